"""Dead stones at counting from KataGo, through a real server and its game sockets, with the real KataGo on 9x9
(few visits): the engine proposes, the rules engine counts, the proposal is recorded with the action that started
scoring, and a player can ask the engine for a second opinion."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.settings import Settings
from app.store.repositories import games
from tests.conftest import LiveServer
from tests.support.room_fixtures import MakePlayer
from tests.support.room_fixtures import make_player, server, servers  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, start_game

pytestmark = [pytest.mark.katago, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

BUDGET = 120.0  # a shared 2-core machine: the test waits for KataGo rather than fall back to the rules engine


@pytest.fixture
async def stack_settings(settings: Settings, katago_dir: Path) -> AsyncIterator[Settings]:
    yield settings.model_copy(
        update={"katago": True, "engines_dir": katago_dir, "katago_buffers": [9], "katago_measure_visits": 1}
    )


async def ready(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        for _ in range(1200):
            katago = (await http.get("/healthz")).json()["engines"]["katago"]
            if katago["state"] == "ready" and katago["buffers"]["9x9"]["evals_per_second"]:
                return
            assert katago["state"] != "failed", katago
            await asyncio.sleep(0.25)
    raise AssertionError("KataGo did not become ready")


async def finished_position(make_player: MakePlayer) -> tuple[str, GameSocket, GameSocket]:
    """9x9: Black owns the left (column 4), White the right (column 5); a white stone lies dead at (1, 1) in
    Black's area, against two black stones, a black one at (7, 7) in White's, against two white stones. Black has
    passed: White's pass starts scoring."""
    black, white = await make_player(), await make_player()
    game_id = await start_game(black, white)
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    await w.of_type("snapshot")
    moves = [((4, y), (5, y)) for y in range(9)] + [((1, 2), (1, 1)), ((2, 1), (7, 6)), ((7, 7), (6, 7))]
    for black_point, white_point in moves:
        for sock, p in ((b, black_point), (w, white_point)):
            assert (await sock.act({"t": "play", "p": list(p)}))["t"] == "ack"
            await asyncio.sleep(0.1)  # within each socket's message rate
    assert (await b.act({"t": "pass"}))["t"] == "ack"
    return game_id, b, w


async def test_katago_proposes_the_dead_stones_and_the_rules_engine_counts(
    make_player: MakePlayer, server: LiveServer, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    await ready(server)
    server.app.state.rooms.proposer.budget = BUDGET
    game_id, b, w = await finished_position(make_player)
    ack = await w.act({"t": "pass"}, timeout=BUDGET)
    assert ack["t"] == "ack", ack
    phase = await b.until(lambda m: m.get("t") == "phase" and m.get("phase") == "scoring")
    assert phase["judge"] == "katago"
    assert phase["dead"] == [[1, 1], [7, 7]]
    assert phase["uncertain"] == []
    # the rules engine counts with those marks: 45 points for Black, 36 + 7.5 for White
    assert phase["score"]["B"]["total"] == 45 and phase["score"]["W"]["total"] == 43.5
    # recorded with the pass that started scoring: a replay reads it, never asks again
    async with db_sessionmaker() as session:
        rows = await games.events_after(session, game_id, ack["v"] - 2)
    facts: dict[str, Any] = rows[0].payload["_action"]["facts"]
    assert facts["judge"] == "katago" and facts["dead"] == phase["dead"] and facts["uncertain"] == []
    # the marks are KataGo's already: a second opinion is refused
    refused = await b.act({"t": "ask_engine"})
    assert refused["t"] == "error" and refused["code"] == "engine_already_judged"
    # the players still change the marks and accept
    assert (await b.act({"t": "toggle_dead", "p": [7, 7]}))["t"] == "ack"
    toggled = await w.of_type("dead_stones")
    assert toggled["dead"] == [[1, 1]] and toggled["judge"] == "katago"
    for sock in (b, w):
        await sock.close()


async def test_a_player_asks_katago_for_a_second_opinion(make_player: MakePlayer, server: LiveServer) -> None:
    await ready(server)
    proposer = server.app.state.rooms.proposer
    proposer.budget = BUDGET
    engines, proposer.engines = proposer.engines, None  # scoring starts with the rules engine's proposal
    _, b, w = await finished_position(make_player)
    assert (await w.act({"t": "pass"}, timeout=BUDGET))["t"] == "ack"
    phase = await b.until(lambda m: m.get("t") == "phase" and m.get("phase") == "scoring")
    assert phase["judge"] == "rules"
    assert (await b.act({"t": "toggle_dead", "p": [4, 4]}))["t"] == "ack"  # a wrong mark
    proposer.engines = engines
    asked = await w.act({"t": "ask_engine"}, timeout=BUDGET)
    assert asked["t"] == "ack", asked
    opinion = await b.of_type("engine_opinion")
    assert opinion["by"] == "W" and opinion["judge"] == "katago"
    assert opinion["dead"] == [[1, 1], [7, 7]] and opinion["uncertain"] == []
    assert opinion["accepted"] == {"B": False, "W": False}
    for sock in (b, w):
        await sock.close()
