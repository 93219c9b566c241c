"""Lobby news published while an instance is cut from Redis is not lost: two real server processes on one
PostgreSQL, one reaching Redis directly and one through a proxy the test cuts.

Whatever a lobby socket may have missed (the news of a challenge to its player, a public one, a pairing, a game
started from their challenge) reaches it as a ``resync``, after which the socket's new snapshot holds it: the
instance that was cut tells its sockets once its subscriptions are back, and an instance whose publish failed
tells the other instances' sockets once Redis takes its messages again.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.ratings.rated_play import registered
from tests.support.instances import POSTGRES_ONLY, Instances, redis_cluster_prefix, redis_cut_cluster  # noqa: F401 - pytest fixtures
from tests.support.players import GameSocket, Player
from tests.support.tcp_proxy import TcpProxy

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(240)]

CHALLENGE = {"board_size": 9, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}


@pytest.fixture
def cut(redis_cut_cluster: tuple[Instances, Instances, TcpProxy]) -> tuple[str, str, TcpProxy]:
    """Two started instances: A reaches Redis directly, B only through ``proxy``; their base URLs."""
    direct, proxied, proxy = redis_cut_cluster
    return direct.start(1)[0].url, proxied.start(1)[0].url, proxy


async def _told(sock: GameSocket, kind: str, matches: Callable[[dict], bool] | None = None, timeout: float = 30) -> dict:
    """The message of type ``kind`` (matching ``matches``, a predicate) or the ``resync`` that stands for it."""
    return await sock.until(
        lambda m: m.get("t") == "resync" or (m.get("t") == kind and (matches is None or matches(m))),
        timeout,
    )


async def _snapshot(person: Player, base_url: str) -> dict:
    """What the client does on ``resync``: open the socket again and read its snapshot."""
    sock = await person.lobby(base_url=base_url)
    try:
        return await sock.of_type("snapshot")
    finally:
        await sock.close()


async def test_challenges_published_while_an_instance_was_cut_reach_its_sockets(cut: tuple[str, str, TcpProxy]) -> None:
    a, b, proxy = cut
    ana, bao, chen = await registered(b), await registered(a), await registered(b)
    try:
        on_b = {p: await p.lobby() for p in (ana, chen)}
        for sock in on_b.values():
            await sock.of_type("snapshot")
        proxy.down()  # B loses Redis: what A publishes now never reaches B's subscriptions
        try:
            to_ana = await bao.http.post("/api/challenges", json={**CHALLENGE, "opponent": ana.user["name"]})
            assert to_ana.status_code == 201, to_ana.text
            public = await bao.http.post("/api/challenges", json={**CHALLENGE, "board_size": 13})
            assert public.status_code == 201, public.text
        finally:
            proxy.up()
        to_ana_id, public_id = to_ana.json()["id"], public.json()["id"]
        # Ana, whose own challenge it is (her user channel), and Chen, who sees the public list, both learn.
        told = await _told(on_b[ana], "challenge_created", lambda m: m["challenge"]["id"] == to_ana_id)
        if told["t"] == "resync":
            assert to_ana_id in {c["id"] for c in (await _snapshot(ana, b))["incoming"]}
        told = await _told(on_b[chen], "challenge_created", lambda m: m["challenge"]["id"] == public_id)
        if told["t"] == "resync":
            assert public_id in {c["id"] for c in (await _snapshot(chen, b))["challenges"]}
        assert "resync" in {m["t"] for m in on_b[ana].received} | {m["t"] for m in on_b[chen].received}
    finally:
        for person in (ana, bao, chen):
            await person.close()


async def test_a_game_started_through_a_cut_instance_reaches_the_other_instance(cut: tuple[str, str, TcpProxy]) -> None:
    a, b, proxy = cut
    ana, bao = await registered(b), await registered(a)
    try:
        bao_lobby = await bao.lobby()  # on A, which never loses Redis
        await bao_lobby.of_type("snapshot")
        made = await bao.http.post("/api/challenges", json=CHALLENGE)
        assert made.status_code == 201, made.text
        proxy.down()  # B cannot publish: Ana accepts there all the same
        try:
            accepted = await ana.http.post(f"/api/challenges/{made.json()['id']}/accept")
        finally:
            proxy.up()
        assert accepted.status_code == 201, accepted.text
        game_id = accepted.json()["game"]["id"]
        # Bao learns his game began: its news, or a resync whose snapshot sends him there.
        told = await _told(bao_lobby, "game_started", lambda m: m["game_id"] == game_id)
        if told["t"] == "resync":
            snapshot = await _snapshot(bao, a)
            assert snapshot["playing"] == game_id
            assert game_id in {g["id"] for g in snapshot["my_games"]}
    finally:
        for person in (ana, bao):
            await person.close()


async def test_a_pairing_made_while_the_seekers_instance_was_cut_reaches_them(cut: tuple[str, str, TcpProxy]) -> None:
    a, b, proxy = cut
    ana, bao = await registered(b), await registered(a)
    seek = {"t": "seek", "sizes": [9], "speeds": ["blitz"], "rules": "any"}
    try:
        ana_lobby, bao_lobby = await ana.lobby(), await bao.lobby()
        for sock in (ana_lobby, bao_lobby):
            await sock.of_type("snapshot")
        assert (await ana_lobby.act(seek))["t"] == "ack"
        proxy.down()
        try:
            assert (await bao_lobby.act(seek))["t"] == "ack"  # A pairs them at once; B cannot hear it
            paired = await bao_lobby.of_type("paired")
        finally:
            proxy.up()
        told = await _told(ana_lobby, "paired", lambda m: m["game_id"] == paired["game_id"])
        if told["t"] == "resync":
            snapshot = await _snapshot(ana, b)
            assert snapshot["seek"] is None and snapshot["playing"] == paired["game_id"]
        # However she learnt it, a new tab knows where she plays.
        assert (await _snapshot(ana, b))["playing"] == paired["game_id"]
    finally:
        for person in (ana, bao):
            await person.close()
