"""Several real server processes on one PostgreSQL database and one Redis: one game, many instances.

The database is the truth: each action is committed with a compare-and-set on ``games.version`` before it is
acknowledged or broadcast, so two instances racing on one game can never both win; the loser re-reads and
answers from the new state.
"""

from __future__ import annotations

import asyncio

import pytest

from app.transport.room_deps import RoomDeps
from app.games.live.room import Room
from app.store.db import create_engine, create_sessionmaker
from app.store.repositories import games as games_repo
from app.store.repositories.games import NewEvent, VersionConflict
from app.transport.memory_hub import MemoryHub
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, guests, start_game
from tests.support.room_seats import seats

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(90)]

BLACK_POINTS = [[x, y] for y in (0, 1, 2, 3) for x in range(9)]
WHITE_POINTS = [[x, y] for y in (8, 7, 6, 5) for x in range(9)]


def _sequence(sock: GameSocket) -> list[tuple[int, str, object]]:
    return [(m["v"], m["t"], m.get("p")) for m in sock.versioned()]


async def test_players_and_spectators_on_three_instances_see_the_same_sequence(cluster: Instances) -> None:
    a, b, c = cluster.start(3)
    async with guests(a.url, 4) as (black, white, watcher_a, watcher_c):
        game_id = await start_game(black, white, time_control={"kind": "fischer", "main": 300, "increment": 5})
        bs = await black.socket(game_id, base_url=a.url)
        ws = await white.socket(game_id, base_url=b.url)
        spectators = [
            await watcher_a.socket(game_id, base_url=a.url),
            await watcher_a.socket(game_id, base_url=b.url),
            await watcher_c.socket(game_id, base_url=c.url),
        ]
        everyone = [bs, ws, *spectators]
        for sock in everyone:
            assert (await sock.of_type("snapshot"))["v"] == 0
        for turn in range(12):
            sock, point = (bs, BLACK_POINTS[turn // 2]) if turn % 2 == 0 else (ws, WHITE_POINTS[turn // 2])
            ack = await sock.act({"t": "play", "p": point})
            assert ack["t"] == "ack" and ack["v"] == turn + 1, ack
        chat = await ws.act({"t": "chat", "channel": "players", "text": "gg so far"})
        assert chat["t"] == "ack" and chat["v"] == 13
        for sock in everyone:
            await sock.event(13)
        sequences = [_sequence(sock) for sock in everyone]
        assert all(seq == sequences[0] for seq in sequences), sequences
        assert [v for v, _, _ in sequences[0]] == list(range(1, 14))
        assert [t for _, t, _ in sequences[0]] == ["move"] * 12 + ["chat"]
        detail = (await watcher_c.http.get(f"{c.url}/api/games/{game_id}")).json()
        assert detail["version"] == 13 and len(detail["moves"]) == 12
        for sock in everyone:
            await sock.close()


async def test_the_same_move_id_sent_to_two_instances_at_once_is_applied_once(cluster: Instances) -> None:
    a, b = cluster.start(2)
    async with guests(a.url, 10) as people:
        games = [await start_game(people[i], people[i + 1]) for i in range(0, 10, 2)]
        outcomes = []
        for n, game_id in enumerate(games):
            black = people[2 * n]
            on_a, on_b = await black.socket(game_id, base_url=a.url), await black.socket(game_id, base_url=b.url)
            await on_a.of_type("snapshot")
            await on_b.of_type("snapshot")
            move = {"t": "play", "p": [4, 4], "id": f"same-{n}"}
            replies = await asyncio.gather(on_a.act(move), on_b.act(move))
            outcomes.append(replies)
            for reply in replies:
                assert reply["id"] == f"same-{n}"
                assert (reply["t"] == "ack" and reply["v"] == 1) or (reply["t"] == "error" and reply["code"]), reply
            assert any(reply["t"] == "ack" for reply in replies)
            detail = (await black.http.get(f"{b.url}/api/games/{game_id}")).json()
            assert detail["version"] == 1 and [m["p"] for m in detail["moves"]] == [[4, 4]]
            for sock in (on_a, on_b):
                await sock.event(1)
                await sock.drain(0.2)
                assert [m["v"] for m in sock.versioned()] == [1]
                await sock.close()
        assert len(outcomes) == 5


async def test_two_instances_racing_different_moves_one_wins_the_other_rereads(cluster: Instances) -> None:
    a, b = cluster.start(2)
    async with guests(a.url, 12) as people:
        games = [await start_game(people[i], people[i + 1]) for i in range(0, 12, 2)]
        for n, game_id in enumerate(games):
            black, white = people[2 * n], people[2 * n + 1]
            on_a, on_b = await black.socket(game_id, base_url=a.url), await black.socket(game_id, base_url=b.url)
            watchers = [await white.socket(game_id, base_url=a.url), await white.socket(game_id, base_url=b.url)]
            for sock in (on_a, on_b, *watchers):
                await sock.of_type("snapshot")
            replies = await asyncio.gather(on_a.act({"t": "play", "p": [2, 2]}), on_b.act({"t": "play", "p": [6, 6]}))
            kinds = sorted(reply["t"] for reply in replies)
            assert kinds == ["ack", "error"], replies
            won = replies[0] if replies[0]["t"] == "ack" else replies[1]
            lost = replies[1] if won is replies[0] else replies[0]
            assert won["v"] == 1
            assert lost["code"] == "not_your_turn", lost  # decided on the state that includes the winner's move
            winner_point = [2, 2] if won is replies[0] else [6, 6]
            detail = (await white.http.get(f"{a.url}/api/games/{game_id}")).json()
            assert detail["version"] == 1 and [m["p"] for m in detail["moves"]] == [winner_point]
            for sock in watchers:
                event = await sock.event(1)
                assert event["p"] == winner_point
            # Play goes on from either instance on the state both now share.
            assert (await watchers[1].act({"t": "play", "p": [4, 4]}))["v"] == 2
            assert (await on_a.act({"t": "play", "p": [0, 0]}))["v"] == 3
            for sock in (on_a, on_b, *watchers):
                await sock.close()


async def test_rooms_that_never_hear_of_each_other_still_cannot_both_commit(cluster: Instances, database_url: str) -> None:
    """No hub between the two rooms: only the database compare-and-set stands between them."""
    (a,) = cluster.start(1)
    async with guests(a.url, 2) as (black, white):
        engine = create_engine(database_url)
        rooms: list[Room] = []
        try:
            game_id = await start_game(black, white)
            sessionmaker = create_sessionmaker(engine)
            for _ in range(2):
                hub = MemoryHub()
                await hub.start()
                room = Room(game_id, RoomDeps(hub, sessionmaker))
                assert await room.load()
                rooms.append(room)
            first, second = rooms
            seat = seats(black, white)

            assert b'"ack"' in (await first.act(seat("B"), "one", {"t": "play", "p": [2, 2]})).encode()
            assert second.v == 0  # it was never told
            refused = (await second.act(seat("B"), "two", {"t": "play", "p": [6, 6]})).encode()
            assert b'"not_your_turn"' in refused and second.v == 1
            assert b'"v":2' in (await second.act(seat("W"), "three", {"t": "play", "p": [6, 6]})).encode()
            assert b'"v":3' in (await first.act(seat("B"), "four", {"t": "play", "p": [2, 6]})).encode()
            async with sessionmaker() as session:
                moves = await games_repo.moves(session, game_id)
                assert [(m.x, m.y) for m in moves] == [(2, 2), (6, 6), (2, 6)]

            # The repository itself: of two appends at one expected version, exactly one commits.
            async def append(text: str) -> int | str:
                async with sessionmaker() as session:
                    try:
                        return await games_repo.append(session, game_id, 3, [NewEvent(type="note", payload={"t": text})])
                    except VersionConflict:
                        return "conflict"

            results = await asyncio.gather(append("x"), append("y"))
            assert sorted(results, key=str) == [4, "conflict"]
        finally:
            for room in rooms:
                await room.close()
                await room.hub.close()
            await engine.dispose()
