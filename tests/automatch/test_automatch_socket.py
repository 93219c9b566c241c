"""Automatch through the real lobby socket of one server (the embedded default: in-process pool and hub)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.support.players import GameSocket, Player, guests, start_game

pytestmark = pytest.mark.timeout(60)


async def _seek(sock: GameSocket, **prefs: Any) -> dict[str, Any]:
    return await sock.act({"t": "seek", **prefs})


async def test_two_seekers_with_overlapping_preferences_land_in_one_game(live_server: str) -> None:
    async with guests(live_server, 2) as (ana, bao):
        a, b = await ana.lobby(), await bao.lobby()
        assert (await a.of_type("snapshot"))["seek"] is None
        await b.of_type("snapshot")
        ack = await _seek(a, sizes=[9, 13], speeds=["blitz"], rules="any")
        assert ack["t"] == "ack" and ack["seek_id"]
        seeking = await a.of_type("seeking")
        assert seeking["seek"]["sizes"] == [9, 13] and seeking["seek"]["id"] == ack["seek_id"]
        assert (await _seek(b, sizes=[13, 19], speeds=["rapid", "blitz"], rules="japanese"))["t"] == "ack"
        paired_a, paired_b = await a.of_type("paired"), await b.of_type("paired")
        assert paired_a["game_id"] == paired_b["game_id"] and paired_a["speed"] == "blitz"
        game = paired_a["game"]
        assert game["board_size"] == 13 and game["rules"] == "japanese" and game["komi"] == 6.5
        assert game["time_control"] == {"kind": "byoyomi", "main": 180, "periods": 3, "period_time": 10}
        assert {game["players"]["B"]["id"], game["players"]["W"]["id"]} == {ana.user["id"], bao.user["id"]}
        assert paired_a["url"] == f"/#/game/{game['id']}"
        started = await a.until(lambda m: m.get("t") == "game_started" and m.get("automatch"))
        assert started["game_id"] == game["id"]
        # The game is an ordinary game: its page and its socket work.
        detail = (await ana.http.get(f"/api/games/{game['id']}")).json()
        assert detail["status"] == "playing" and detail["board_size"] == 13
        metrics = (await ana.http.get("/metrics")).text
        assert "tengen_automatch_pairs_total 1.0" in metrics and "tengen_automatch_seekers 0.0" in metrics
        assert "tengen_automatch_wait_seconds_count 2.0" in metrics
        # One game at a time: a player in a live game cannot look for another.
        refused = await _seek(a, sizes=[9])
        assert refused["t"] == "error" and refused["code"] == "already_playing"
        for sock in (a, b):
            await sock.close()


async def test_a_search_is_cancellable_and_ends_when_its_sockets_close(live_server: str) -> None:
    async with guests(live_server, 3) as (ana, bao, chen):
        a1, a2 = await ana.lobby(), await ana.lobby()
        assert (await _seek(a1, sizes=[9]))["t"] == "ack"
        await a2.of_type("seeking")  # every socket of the player hears of the search
        cancelled = await a1.act({"t": "seek_cancel"})
        assert cancelled["t"] == "ack" and cancelled["cancelled"] is True
        assert (await a2.of_type("seek_cancelled"))["reason"] == "cancelled"
        # Bao's seek waits alone; nobody is paired with a cancelled seek.
        b = await bao.lobby()
        assert (await _seek(b, sizes=[9]))["t"] == "ack"
        await asyncio.sleep(1.5)
        assert not [m for m in b.received if m.get("t") == "paired"]
        # Bao's only socket closes: his seek is gone, and Chen's search finds nobody.
        await b.close()
        c = await chen.lobby()
        await asyncio.sleep(0.3)
        assert (await _seek(c, sizes=[9]))["t"] == "ack"
        await asyncio.sleep(1.5)
        await c.drain(0.2)
        assert not [m for m in c.received if m.get("t") == "paired"]
        # A new seek of Ana's meets Chen's.
        assert (await _seek(a1, sizes=[9, 19]))["t"] == "ack"
        assert (await c.of_type("paired"))["game"]["board_size"] == 9
        for sock in (a1, a2, c):
            await sock.close()


async def test_bad_seeks_get_a_clear_error_and_the_socket_lives_on(live_server: str) -> None:
    async with guests(live_server, 1) as (ana,):
        a = await ana.lobby()
        await a.of_type("snapshot")
        bad = await _seek(a, sizes=[7])
        assert bad["t"] == "error" and bad["code"] == "invalid_message" and "sizes" in bad["message"]
        rules = await _seek(a, rules="klingon")
        assert rules["t"] == "error" and rules["code"] == "invalid_message"
        rated = await _seek(a, rated=True)
        assert rated["t"] == "error" and rated["code"] == "account_required"
        unknown = await a.act({"t": "teleport"})
        assert unknown["code"] == "unknown_type"
        await a.send_raw("{not json")
        assert (await a.until(lambda m: m.get("code") == "bad_json"))["t"] == "error"
        await asyncio.sleep(3)  # the socket's general message budget (2 a second, burst 10) fills up again
        fast = [await _seek(a, sizes=[9]) for _ in range(6)]
        assert [m["t"] for m in fast[:5]] == ["ack"] * 5 and fast[5]["code"] == "rate_limited"
        await a.send({"t": "ping"})
        assert (await a.of_type("pong"))["t"] == "pong"
        await a.close()


async def test_a_socket_without_a_session_may_watch_but_not_seek(live_server: str) -> None:
    nobody = Player(live_server)
    try:
        sock = await nobody.lobby()
        await sock.of_type("snapshot")
        refused = await _seek(sock, sizes=[9])
        assert refused["code"] == "not_authenticated"
        await sock.close()
    finally:
        await nobody.close()


async def test_a_player_already_in_a_game_is_not_paired_into_a_second(live_server: str) -> None:
    async with guests(live_server, 3) as (ana, bao, chen):
        a, c = await ana.lobby(), await chen.lobby()
        assert (await _seek(a, sizes=[9]))["t"] == "ack"
        # Ana accepts a challenge while her search waits: the search ends with that game.
        await start_game(bao, ana)
        paired = await a.of_type("paired", timeout=10)
        assert ana.user["id"] in {paired["game"]["players"][c]["id"] for c in "BW"}
        assert (await _seek(c, sizes=[9]))["t"] == "ack"
        await asyncio.sleep(1.5)
        await c.drain(0.2)
        assert not [m for m in c.received if m.get("t") == "paired"]
        for sock in (a, c):
            await sock.close()
