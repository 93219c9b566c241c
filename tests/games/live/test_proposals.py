"""Scoring does not block the server: the dead-stone proposal is computed in a worker process within a time
budget, recorded with the action that started scoring, and never computed again when the game is rebuilt."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.games.live.proposals import DeadStoneProposer
from app.store.repositories import games
from tests.conftest import LiveServer
from tests.support.room_fixtures import STACKS, MakePlayer, Servers, make_player, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, start_game

SLOW_SECONDS = 3.0


def slow_proposal(game: Any) -> list[list[int]]:
    """A proposal that takes its time (run in a worker process)."""
    time.sleep(SLOW_SECONDS)
    return []


async def _seated(make_player: MakePlayer, **settings: Any) -> tuple[str, GameSocket, GameSocket]:
    black, white = await make_player(), await make_player()
    game_id = await start_game(black, white, **settings)
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    await w.of_type("snapshot")
    return game_id, b, w


async def _to_scoring_moves(b: GameSocket, w: GameSocket) -> None:
    """A white stone alone in black's corner, then black passes: white's pass will start scoring."""
    for sock, point in ((b, [2, 2]), (w, [0, 0]), (b, [6, 6]), (w, [8, 8])):
        assert (await sock.act({"t": "play", "p": point}))["t"] == "ack"
    assert (await b.act({"t": "pass"}))["t"] == "ack"


@STACKS
async def test_the_proposal_is_stored_with_the_pass_and_never_computed_again(
    make_player: MakePlayer,
    servers: Servers,
    monkeypatch: pytest.MonkeyPatch,
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game_id, b, w = await _seated(make_player)
    await _to_scoring_moves(b, w)
    ack = await w.act({"t": "pass"})
    assert ack["t"] == "ack"
    phase = await b.until(lambda m: m.get("t") == "phase" and m.get("phase") == "scoring")
    assert phase["v"] == ack["v"]
    # Stored with the action that started scoring, as the fact it was applied with.
    async with db_sessionmaker() as session:
        rows = await games.events_after(session, game_id, ack["v"] - 2)
    facts = rows[0].payload["_action"]["facts"]
    assert rows[0].payload["t"] == "pass" and facts["dead"] == phase["dead"]
    # Another instance rebuilds the game from its events without computing any proposal.
    import app.games.scoring_phase as authority

    def no_recomputing(game: Any) -> set[tuple[int, int]]:
        raise AssertionError("the proposal was computed again")

    monkeypatch.setattr(authority, "propose_dead_chains", no_recomputing)
    other = servers.start()
    watcher = await make_player(other.url)
    snapshot = await (await watcher.socket(game_id)).of_type("snapshot")
    assert snapshot["game"]["phase"] == "scoring" and snapshot["game"]["scoring"]["dead"] == phase["dead"]
    for sock in (b, w):
        await sock.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_other_games_move_while_a_proposal_is_computed(make_player: MakePlayer, server: LiveServer) -> None:
    server.app.state.rooms.proposer = DeadStoneProposer(budget=30.0, compute=slow_proposal)
    game_id, b, w = await _seated(make_player)
    _, b2, w2 = await _seated(make_player, board_size=19)
    await _to_scoring_moves(b, w)
    scoring = asyncio.create_task(w.act({"t": "pass"}, timeout=30.0))
    await asyncio.sleep(0.5)  # the pass is with the worker now
    moves = 0
    while not scoring.done():
        n = moves // 2  # black fills the top half, white the bottom half: nothing is ever captured
        sock, point = (b2, [n % 19, n // 19]) if moves % 2 == 0 else (w2, [n % 19, 18 - n // 19])
        answer = await sock.act({"t": "play", "p": point})
        assert answer["t"] == "ack", answer
        moves += 1
        await asyncio.sleep(0.1)  # within each socket's message rate
    assert (await scoring)["t"] == "ack"
    assert moves >= 4  # the other game kept moving the whole time the proposal took
    for sock in (b, w, b2, w2):
        await sock.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_proposal_over_its_budget_starts_scoring_with_nothing_proposed(
    make_player: MakePlayer, server: LiveServer
) -> None:
    proposer = DeadStoneProposer(budget=0.5, compute=slow_proposal)
    server.app.state.rooms.proposer = proposer
    _, b, w = await _seated(make_player)
    await _to_scoring_moves(b, w)
    assert (await w.act({"t": "pass"}, timeout=30.0))["t"] == "ack"
    phase = await b.until(lambda m: m.get("t") == "phase" and m.get("phase") == "scoring")
    assert phase["dead"] == [] and proposer.given_up == 1
    # The players mark the stones themselves.
    marked = await b.act({"t": "toggle_dead", "p": [0, 0]})
    assert marked["t"] == "ack"
    for sock in (b, w):
        await sock.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_without_katago_the_rules_engine_proposes_and_no_second_opinion_is_given(
    make_player: MakePlayer, server: LiveServer
) -> None:
    assert server.app.state.engines.state == "off"  # TENGEN_ENV=test: KataGo is not started
    game_id, b, w = await _seated(make_player)
    await _to_scoring_moves(b, w)
    assert (await w.act({"t": "pass"}, timeout=30.0))["t"] == "ack"
    phase = await b.until(lambda m: m.get("t") == "phase" and m.get("phase") == "scoring")
    assert phase["judge"] == "rules" and phase["uncertain"] == []
    refused = await b.act({"t": "ask_engine"})
    assert refused["t"] == "error" and refused["code"] == "engine_unavailable"
    snapshot = await (await (await make_player()).socket(game_id)).of_type("snapshot")
    assert snapshot["game"]["scoring"]["judge"] == "rules" and snapshot["game"]["scoring"]["uncertain"] == []
    for sock in (b, w):
        await sock.close()


class SlowEngines:
    """An engine service that never answers in time (KataGo busy with a 19x19 queue, or a slow machine)."""

    def evals_per_second(self, size: int) -> float:
        return 1.0

    async def analyze(self, question: Any, priority: Any) -> Any:
        await asyncio.sleep(60)


async def test_katago_over_the_budget_leaves_the_rules_engines_proposal() -> None:
    from app.rules.game import Game

    proposer = DeadStoneProposer(budget=0.5, engines=SlowEngines())  # type: ignore[arg-type]  # a stand-in with only the two methods the proposer calls
    game = Game(9)
    for colour, p in (("B", (2, 2)), ("W", (0, 0)), ("B", (6, 6)), ("W", (8, 8))):
        game.play(colour, p)
    try:
        proposal = await proposer.propose(game)
    finally:
        proposer.close()
    assert proposal["judge"] == "rules" and proposal["uncertain"] == []
    assert proposal["dead"] == sorted([x, y] for x, y in game.propose_dead())
    assert proposer.given_up == 0
