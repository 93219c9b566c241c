"""Blocks and seeks where they take effect, across two real server processes on one PostgreSQL and one Redis.

A block is read where a pairing is made and where any game starts, not copied when a seek began: two players
seeking when one blocks the other are never paired (the other seeker who fits is), and a rematch offered before
the block is refused when it is accepted after it. A player's live seek is the pool's, so a new lobby socket on
the other instance shows it in its snapshot, and cancelling it there ends it.
"""

from __future__ import annotations

import pytest

from tests.ratings.rated_play import registered
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket
from tests.support.reviews import finished_game

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(240)]


def _seek(*sizes: int) -> dict:
    return {"t": "seek", "sizes": list(sizes), "speeds": ["blitz"], "rules": "any"}


def _paired(sock: GameSocket) -> list[dict]:
    return [m for m in sock.received if m.get("t") == "paired"]


async def test_a_block_made_while_both_seek_keeps_them_apart(cluster: Instances) -> None:
    a, b = cluster.start(2)
    # Two ranks part Ana (8k) and Bao (6k): they become a fit after about 10 s of waiting. Chen (5k), three ranks
    # from Ana, after about 20 s; Chen and Bao never fit (no board size in common).
    ana = await registered(a.url, strength="8k")
    bao = await registered(b.url, strength="6k")
    chen = await registered(b.url, strength="5k")
    try:
        on_a = await ana.lobby()
        on_b = {p: await p.lobby() for p in (bao, chen)}
        for sock in (on_a, *on_b.values()):
            await sock.of_type("snapshot")
        assert (await on_a.act(_seek(9, 13)))["t"] == "ack"
        assert (await on_b[bao].act(_seek(9)))["t"] == "ack"
        assert (await on_b[chen].act(_seek(13)))["t"] == "ack"
        # Both are seeking when Bao blocks Ana (through instance B, while Ana's seek is held by instance A).
        assert (await bao.http.post("/api/blocks", json={"name": ana.user["name"]})).status_code == 201

        paired = await on_a.of_type("paired", timeout=60)
        players = {paired["game"]["players"][c]["id"] for c in ("B", "W")}
        assert players == {ana.user["id"], chen.user["id"]}
        assert (await on_b[chen].of_type("paired"))["game_id"] == paired["game_id"]
        assert not _paired(on_b[bao])  # still seeking: nobody else fits him
        assert (await on_b[bao].act({"t": "seek_cancel"}))["cancelled"] is True
    finally:
        for person in (ana, bao, chen):
            await person.close()


async def test_a_rematch_accepted_after_a_block_is_refused(cluster: Instances) -> None:
    a, b = cluster.start(2)
    ana, bao = await registered(a.url), await registered(b.url)
    try:
        game_id = await finished_game(ana, bao, base_url=a.url)
        on_a = await ana.socket(game_id, base_url=a.url)
        on_b = await bao.socket(game_id, base_url=b.url)
        for sock in (on_a, on_b):
            await sock.of_type("snapshot")
        assert (await on_a.act({"t": "rematch_offer"}))["t"] == "ack"
        await on_b.until(lambda m: m.get("t") == "offer" and m.get("kind") == "rematch")
        # Ana blocks Bao through instance A after offering; Bao accepts on instance B.
        assert (await ana.http.post("/api/blocks", json={"name": bao.user["name"]})).status_code == 201
        refused = await on_b.act({"t": "rematch_accept"})
        assert refused["t"] == "error" and refused["code"] == "blocked", refused
        # No game was started: both may still look for one.
        active = await bao.http.get(f"{b.url}/api/me/games/active")
        assert active.status_code == 200 and active.json()["games"] == [], active.text
    finally:
        for person in (ana, bao):
            await person.close()


async def test_a_new_socket_on_the_other_instance_shows_the_live_seek(cluster: Instances) -> None:
    a, b = cluster.start(2)
    ana = await registered(a.url)
    try:
        on_a = await ana.lobby(base_url=a.url)
        await on_a.of_type("snapshot")
        ack = await on_a.act(_seek(19))
        assert ack["t"] == "ack"
        # A new tab on instance B: its snapshot shows the seek instance A holds.
        on_b = await ana.lobby(base_url=b.url)
        snapshot = await on_b.of_type("snapshot")
        assert snapshot["seek"] is not None and snapshot["seek"]["id"] == ack["seek_id"], snapshot["seek"]
        assert snapshot["seek"]["sizes"] == [19]
        # Cancelled from there, it ends everywhere: instance A's socket hears it, and a third tab shows none.
        assert (await on_b.act({"t": "seek_cancel"}))["cancelled"] is True
        assert (await on_a.of_type("seek_cancelled"))["reason"] == "cancelled"
        again = await ana.lobby(base_url=b.url)
        assert (await again.of_type("snapshot"))["seek"] is None
        on_a_again = await ana.lobby(base_url=a.url)
        assert (await on_a_again.of_type("snapshot"))["seek"] is None
    finally:
        await ana.close()
