"""Refused actions cost the game nothing: a flood of them from spectators and players never reads the database
under the room's lock (counted by ``tengen_room_catchup_reads_total``), and the players' moves go on."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest

from tests.support.players import Player, start_game


async def _catchup_reads(url: str) -> float:
    async with httpx.AsyncClient(base_url=url) as client:
        text = (await client.get("/metrics")).text
    found = re.search(r"^tengen_room_catchup_reads_total ([0-9.e+]+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


async def test_refused_actions_do_not_read_the_database(live_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Spectators' refusals never read it; players' refusals re-read it (another instance may have committed)
    within a per-room budget: here its refill is turned off, so the budget's burst is all there is."""
    from app.games.live import room as room_module

    monkeypatch.setattr(room_module, "REFUSAL_REREADS_PER_SECOND", 0.0)
    black, white = await Player(live_server).visit(), await Player(live_server).visit()
    watchers = [await Player(live_server).visit() for _ in range(4)]
    game_id = await start_game(black, white)
    bs, ws = await black.socket(game_id), await white.socket(game_id)
    spectators = [await watcher.socket(game_id) for watcher in watchers for _ in range(2)]
    try:
        assert (await bs.act({"t": "play", "p": [2, 2]}))["v"] == 1
        before = await _catchup_reads(live_server)
        for _ in range(3):
            answers = await asyncio.gather(*(sock.act({"t": "play", "p": [4, 4]}) for sock in spectators))
            assert [answer.get("code") for answer in answers] == ["not_a_player"] * len(spectators)
            assert (await bs.act({"t": "play", "p": [5, 5]}))["code"] == "not_your_turn"
            assert (await ws.act({"t": "play", "p": [2, 2]}))["code"] == "illegal_move"
            assert (await ws.act({"t": "undo_accept"}))["t"] == "error"
        for _ in range(20):  # within the socket's message burst
            assert (await bs.act({"t": "play", "p": [5, 5]}))["code"] == "not_your_turn"
        # Play goes on, and no refusal read the database on the room's lock.
        assert (await ws.act({"t": "play", "p": [6, 6]}))["v"] == 2
        assert (await bs.act({"t": "play", "p": [2, 6]}))["v"] == 3
        assert await _catchup_reads(live_server) - before <= room_module.REFUSAL_REREADS_BURST  # not 53
    finally:
        for sock in (bs, ws, *spectators):
            await sock.close()
        for player in (black, white, *watchers):
            await player.close()
