"""Faults on a real multi-instance deployment: a server process killed with SIGKILL, Redis emptied and its
connections cut, PostgreSQL unreachable. Nothing acknowledged is ever lost, and play goes on.

All on loopback, with real processes (``python -m app.cli serve``), this test's own PostgreSQL database and
its own Redis key prefix (emptying Redis means deleting every key under that prefix, never FLUSHALL).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson
import pytest
import redis
import websockets

from tests.support.instances import (  # noqa: F401 - pytest fixtures, taken by name as test parameters
    POSTGRES_ONLY,
    Instance,
    Instances,
    cluster,
    delete_redis_prefix,
    redis_cluster_prefix,
)
from tests.support.players import GameSocket, Player, start_game
from tests.support.services import REDIS_URL
from tests.support.tcp_proxy import TcpProxy

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(150)]

GAMES = int(os.environ.get("TENGEN_FAULT_GAMES", "50"))
_ids = itertools.count(1)
CLOCK = {"kind": "fischer", "main": 300, "increment": 5}
BLACK_POINTS = [[x, y] for y in (0, 1, 2, 3) for x in range(9)]
WHITE_POINTS = [[x, y] for y in (8, 7, 6, 5) for x in range(9)]


def next_point(move_number: int) -> list[int]:
    """The point of move ``move_number`` (1-based): black fills the top rows, white the bottom ones."""
    return (BLACK_POINTS if move_number % 2 == 1 else WHITE_POINTS)[(move_number - 1) // 2]


@dataclass
class Table:
    black: Player
    white: Player
    game_id: str
    sockets: dict[str, GameSocket] = field(default_factory=dict)
    acked: list[tuple[int, list[int]]] = field(default_factory=list)


async def _table(url: str) -> Table:
    black, white = await Player(url).visit(), await Player(url).visit()
    return Table(black, white, await start_game(black, white, time_control=CLOCK))


async def _answer(sock: GameSocket, message: dict, timeout: float = 60) -> dict:
    """Send ``message`` (perhaps again, with the same id) and return the answer to this sending."""

    def answers() -> list[dict]:
        return [m for m in sock.received if m.get("id") == message["id"] and m.get("t") in ("ack", "error")]

    before = len(answers())
    await sock.send(message)

    async def wait() -> dict:
        while len(answers()) <= before:
            sock.received.append(orjson.loads(await sock.connection.recv()))
        return answers()[before]

    return await asyncio.wait_for(wait(), timeout)


async def _taken(sock: GameSocket, message: dict, timeout: float = 60) -> dict:
    """Send an action until the server takes it, as a client does: ``unavailable`` (the game could not be
    stored, e.g. PostgreSQL out of connection slots on a busy machine) means send the same id again."""
    message = {"id": f"m{next(_ids)}", **message}
    for _ in range(40):
        reply = await _answer(sock, message, timeout)
        if reply["t"] != "error" or reply["code"] != "unavailable":
            return reply
        await asyncio.sleep(0.25)
    return reply


async def _two_moves_in(table: Table, black_on: Instance, white_on: Instance) -> tuple[GameSocket, GameSocket]:
    """Black and white connected through their instances, both having seen the first two moves."""
    black = await table.black.socket(table.game_id, base_url=black_on.url)
    white = await table.white.socket(table.game_id, base_url=white_on.url)
    for sock in (black, white):
        await sock.of_type("snapshot")
    assert (await _taken(black, {"t": "play", "p": next_point(1)}))["v"] == 1
    assert (await _taken(white, {"t": "play", "p": next_point(2)}))["v"] == 2
    for sock in (black, white):
        await sock.event(2)
    return black, white


def _last_seen(sock: GameSocket) -> int:
    versions = [m["v"] for m in sock.received if "v" in m and m.get("t") != "ack"]
    return max(versions, default=0)


# ---------------------------------------------------------------------------------------------- kill -9


async def test_kill_9_mid_game_loses_no_acknowledged_move_and_every_game_resumes(cluster: Instances) -> None:
    doomed, keeper, rescuer = cluster.start(3)
    tables = await asyncio.gather(*(_table(keeper.url) for _ in range(GAMES)))

    async def seat(table: Table) -> None:
        table.sockets["B"] = await table.black.socket(table.game_id, base_url=doomed.url)
        table.sockets["W"] = await table.white.socket(table.game_id, base_url=keeper.url)
        for sock in table.sockets.values():
            await sock.of_type("snapshot", timeout=30)

    async def play(table: Table) -> None:
        move = 1
        try:
            while move <= 60:
                color = "B" if move % 2 else "W"
                point = next_point(move)
                reply = await _taken(table.sockets[color], {"t": "play", "p": point}, timeout=15)
                assert reply["t"] == "ack" and reply["v"] == move, reply
                table.acked.append((reply["v"], point))
                move += 1
        except (websockets.ConnectionClosed, TimeoutError):
            return  # the instance died under this game

    try:
        for batch in range(0, GAMES, 10):
            await asyncio.gather(*(seat(t) for t in tables[batch : batch + 10]))
        players = [asyncio.create_task(play(t)) for t in tables]
        while sum(len(t.acked) for t in tables) < 3 * GAMES:  # well into every game
            await asyncio.sleep(0.05)
        doomed.kill()
        await asyncio.wait_for(asyncio.gather(*players), 60)
        assert all(t.acked for t in tables)

        async def resume(table: Table) -> None:
            seen = _last_seen(table.sockets["B"])
            await table.sockets["B"].close()
            detail = (await table.white.http.get(f"{rescuer.url}/api/games/{table.game_id}")).json()
            stored = [m["p"] for m in detail["moves"]]
            # Every acknowledged move is in the database, at its acknowledged number.
            for v, point in table.acked:
                assert stored[v - 1] == point, (table.game_id, v, point, stored)
            version = detail["version"]
            assert version == len(stored) >= len(table.acked)
            # The black player comes back through another instance, from the last version it saw.
            back = await table.black.socket(table.game_id, v=seen, base_url=rescuer.url)
            if version > seen:
                try:
                    await back.caught_up(version, timeout=30)
                except TimeoutError:
                    raise AssertionError((seen, version, back.received[:5])) from None
            resyncs = back.resyncs()
            if resyncs:
                # The killed instance committed events its hub never logged: the gap is answered with one
                # resync snapshot of the whole game, holding every stored move.
                assert len(resyncs) == 1 and resyncs[0]["v"] == version, resyncs
                assert [m["p"] for m in resyncs[0]["game"]["moves"]] == stored
                assert not back.versioned()
            else:
                assert [m["v"] for m in back.versioned()] == list(range(seen + 1, version + 1))
            # Play resumes: whoever is to move plays, and both sides see it.
            mover = back if (version + 1) % 2 == 1 else table.sockets["W"]
            reply = await _taken(mover, {"t": "play", "p": next_point(version + 1)}, timeout=30)
            assert reply["t"] == "ack" and reply["v"] == version + 1, reply
            for sock in (back, table.sockets["W"]):
                await sock.event(version + 1, timeout=30)
            # The clocks agree on both surviving instances.
            views = [
                await table.black.socket(table.game_id, base_url=rescuer.url),
                await table.white.socket(table.game_id, base_url=keeper.url),
            ]
            snaps = [await s.of_type("snapshot", timeout=30) for s in views]
            clocks = [s["game"]["clocks"] for s in snaps]
            to_move = "B" if (version + 2) % 2 == 1 else "W"
            waiting = "W" if to_move == "B" else "B"
            for view in clocks:
                assert view[to_move]["running"] and not view[waiting]["running"], view
                for color in "BW":
                    assert 0 < view[color]["main"] <= CLOCK["main"] + CLOCK["increment"] * (version + 1)
            assert clocks[0][waiting]["main"] == clocks[1][waiting]["main"]  # a stopped clock is exact
            assert abs(clocks[0][to_move]["main"] - clocks[1][to_move]["main"]) < 5
            for sock in (back, *views, table.sockets["W"]):
                await sock.close()

        for batch in range(0, GAMES, 10):
            await asyncio.gather(*(resume(t) for t in tables[batch : batch + 10]))
    finally:
        for table in tables:  # closed even after a failure, so no socket is left to a later test's teardown
            for sock in table.sockets.values():
                await sock.close()
            await table.black.close()
            await table.white.close()


# ---------------------------------------------------------------------------------------------- Redis loss


def _hub_pubsub_clients(client: redis.Redis, prefix: str) -> list[dict]:
    return [c for c in client.client_list() if c.get("name", "").startswith(prefix)]


async def test_redis_emptied_and_connections_cut_mid_game(cluster: Instances, redis_cluster_prefix: str) -> None:
    one, two = cluster.start(2)
    table = await _table(one.url)
    watcher = await Player(two.url).visit()
    admin = redis.Redis.from_url(REDIS_URL)
    try:
        sockets = {
            "B": await table.black.socket(table.game_id, base_url=one.url),
            "W": await table.white.socket(table.game_id, base_url=two.url),
            "s1": await watcher.socket(table.game_id, base_url=one.url),
            "s2": await watcher.socket(table.game_id, base_url=two.url),
        }
        for sock in sockets.values():
            await sock.of_type("snapshot")

        async def play(first: int, last: int) -> None:
            for move in range(first, last + 1):
                reply = await _taken(sockets["B" if move % 2 else "W"], {"t": "play", "p": next_point(move)})
                assert reply["t"] == "ack" and reply["v"] == move, reply

        await play(1, 4)
        for sock in sockets.values():
            await sock.event(4)
        before = {c["id"] for c in _hub_pubsub_clients(admin, redis_cluster_prefix)}
        assert len(before) == 2  # one Pub/Sub connection per instance

        assert delete_redis_prefix(redis_cluster_prefix) > 0  # the log, presence, deadlines: all gone
        for client_id in before:
            admin.client_kill_filter(_id=client_id)
        deadline = time.monotonic() + 20
        while True:  # both instances reconnect and subscribe again by themselves
            now = {c["id"] for c in _hub_pubsub_clients(admin, redis_cluster_prefix)}
            if len(now) == 2 and not now & before:
                break
            assert time.monotonic() < deadline, "the hub did not reconnect"
            await asyncio.sleep(0.1)

        await play(5, 8)
        for sock in sockets.values():
            await sock.event(8)
        sequences = [[(m["v"], m.get("p")) for m in sock.versioned()] for sock in sockets.values()]
        assert all(seq == sequences[0] for seq in sequences)
        assert sequences[0] == [(v, next_point(v)) for v in range(1, 9)]
        # The clock deadline is registered again with the next move.
        assert admin.zscore(f"{redis_cluster_prefix}deadlines", table.game_id) is not None

        # Replaying from before the loss: the log no longer covers it, so one resync snapshot answers
        # (docs/protocol.md section 2), never a replay from the database.
        late = await watcher.socket(table.game_id, v=1, base_url=two.url)
        snapshot = await late.caught_up(8)
        assert snapshot["t"] == "snapshot" and snapshot["resync"] is True and snapshot["v"] == 8, snapshot
        assert [m["p"] for m in snapshot["game"]["moves"]] == [next_point(v) for v in range(1, 9)]
        assert not late.versioned()
        for sock in (*sockets.values(), late):
            await sock.close()
    finally:
        admin.close()
        await watcher.close()
        await table.black.close()
        await table.white.close()


@pytest.fixture
def redis_proxied_instance(
    database_url: str, redis_cluster_prefix: str, tmp_path: Path
) -> Iterator[tuple[Instance, Instance, TcpProxy]]:
    """An instance that reaches Redis directly and one that reaches it only through a proxy the test can cut."""
    from urllib.parse import urlparse

    target = urlparse(REDIS_URL)
    proxy = TcpProxy(target.hostname or "127.0.0.1", target.port or 6379).start()
    proxied_url = REDIS_URL.replace(target.netloc, f"127.0.0.1:{proxy.port}")
    assert proxied_url != REDIS_URL
    direct = Instances(database_url, REDIS_URL, redis_cluster_prefix, tmp_path / "direct")
    proxied = Instances(database_url, proxied_url, redis_cluster_prefix, tmp_path / "proxied")
    for group in (direct, proxied):
        (group.workdir).mkdir()
    yield direct.start(1)[0], proxied.start(1)[0], proxy
    proxied.stop_all()
    direct.stop_all()
    proxy.close()


async def test_the_last_move_missed_while_an_instance_was_cut_from_redis_arrives_when_it_reconnects(
    redis_proxied_instance: tuple[Instance, Instance, TcpProxy],
) -> None:
    """No later move comes to reveal the gap: the reconnect itself must hand the sockets what they missed."""
    one, two, proxy = redis_proxied_instance
    table = await _table(one.url)
    try:
        black, white = await _two_moves_in(table, one, two)

        proxy.down()  # instance two loses Redis: its Pub/Sub connection drops and cannot come back yet
        try:
            assert (await _taken(black, {"t": "play", "p": next_point(3)}))["v"] == 3  # published, two cannot hear
            await black.event(3)
        finally:
            proxy.up()
        missed = await white.event(3, timeout=30)
        assert missed["t"] == "move" and missed["p"] == next_point(3)
        assert (await _taken(white, {"t": "play", "p": next_point(4)}))["v"] == 4
        for sock in (black, white):
            await sock.event(4, timeout=30)
            assert [(m["v"], m["p"]) for m in sock.versioned()] == [(v, next_point(v)) for v in range(1, 5)]
            await sock.close()
    finally:
        await table.black.close()
        await table.white.close()


# ---------------------------------------------------------------------------------------------- PostgreSQL loss


@pytest.fixture
def proxied_cluster(database_url: str, redis_cluster_prefix: str, tmp_path: Path) -> Iterator[tuple[Instances, TcpProxy]]:
    """Instances that reach PostgreSQL only through a proxy the test can cut."""
    from urllib.parse import urlparse

    target = urlparse(database_url.replace("+asyncpg", ""))
    proxy = TcpProxy(target.hostname or "127.0.0.1", target.port or 5432).start()
    proxied = database_url.replace(f"{target.hostname}:{target.port or 5432}", f"127.0.0.1:{proxy.port}")
    assert proxied != database_url
    group = Instances(proxied, REDIS_URL, redis_cluster_prefix, tmp_path)
    yield group, proxy
    group.stop_all()
    proxy.close()


async def test_moves_during_a_database_outage_are_refused_then_play_resumes(proxied_cluster: tuple[Instances, TcpProxy]) -> None:
    group, proxy = proxied_cluster
    one, two = group.start(2)
    table = await _table(one.url)
    try:
        black, white = await _two_moves_in(table, one, two)
        await asyncio.sleep(0.5)  # black's instance has caught up: its next move reaches the commit itself
        proxy.down()  # every database connection drops; new ones are refused
        try:
            move = {"t": "play", "p": next_point(3), "id": "in-the-outage"}
            refused = await _answer(black, move)
            assert refused["t"] == "error" and refused["code"] == "unavailable", refused
            again = await _answer(black, move)
            assert again["t"] == "error" and again["code"] == "unavailable", again
            await asyncio.sleep(1.0)
        finally:
            proxy.up()
        await white.drain(0.3)
        assert [m["v"] for m in white.versioned()] == [1, 2]  # nothing was broadcast

        # The client sends the same move again until it is taken: it is applied exactly once.
        reply = await _taken(black, move)
        assert reply["t"] == "ack" and reply["v"] == 3, reply
        await white.event(3)
        assert (await _taken(white, {"t": "play", "p": next_point(4)}))["v"] == 4
        await black.event(4)
        detail = (await table.black.http.get(f"{two.url}/api/games/{table.game_id}")).json()
        assert detail["version"] == 4
        assert [m["p"] for m in detail["moves"]] == [next_point(v) for v in range(1, 5)]
        await white.event(4)  # its ack may come before the event
        for sock in (black, white):
            await sock.drain(0.2)
            assert [m["v"] for m in sock.versioned()] == [1, 2, 3, 4]
            await sock.close()
    finally:
        await table.black.close()
        await table.white.close()
