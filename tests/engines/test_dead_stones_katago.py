"""KataGo's dead-stone proposal (``dead_stones.ask``, as counting runs it) on composed 9x9 positions, against the
real KataGo with few visits: stones left in the opponent's territory are dead, a seki stays alive and its shared
liberty stays dame (the rules engine counts it for nobody)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from app.engines import dead_stones
from app.engines.service import EngineService
from app.games.chains import expand_to_chains
from app.rules.game import Game
from tests.engines.questions import katago_settings, until

pytestmark = [pytest.mark.katago, pytest.mark.asyncio(loop_scope="module")]

BUDGET = 120.0  # a shared 2-core machine: wait for KataGo rather than time out
VISITS = 4


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def service(katago_dir: Path) -> AsyncIterator[EngineService]:
    engines = EngineService.from_settings(katago_settings(katago_dir))
    engines.start()
    await until(lambda: engines.lanes[0].started.is_set(), timeout=300)
    assert engines.state == "ready", engines.status()
    yield engines
    await engines.close()


def board(rows: list[str], to_move: str) -> Game:
    game = Game(len(rows))
    black = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "X"]
    white = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "O"]
    game.add_setup(black, white, to_move)
    return game


async def playouts(game: Game, seconds: float) -> set[tuple[int, int]] | None:
    """The rules engine's playouts, in a thread here (a worker process in the server)."""
    return await asyncio.wait_for(asyncio.to_thread(lambda: expand_to_chains(game, game.propose_dead())), seconds)


# Black owns the left (wall on column E), White the right (column F); a white stone lies in Black's area against
# two black stones, a black one in White's against two white stones.
LONE = [
    "....XO...",
    ".O..XO...",
    ".XX.XO...",
    "....XO...",
    "....XO...",
    "....XO...",
    "....XOO..",
    "....XOX..",
    "....XO...",
]

# Top: Black's a9 c9 a8-d8 (eye b9) and White's e9 g9 e8-g8 (eye f9) share d9, a seki with an eye each, inside
# each other's living walls; below, White owns the left, Black the right.
SEKI = [
    "X.X.O.OX.",
    "XXXXOOOX.",
    "OOOOXXXX.",
    ".O.OX....",
    "OOOOX....",
    "...OX....",
    "...OX....",
    "...OX....",
    "...OX....",
]


@pytest.mark.parametrize("to_move", ["B", "W"])
async def test_lone_stones_in_territory_are_dead_whoever_is_to_move(service: EngineService, to_move: str) -> None:
    game = board(LONE, to_move)
    judgement = await dead_stones.ask(service, game, BUDGET, VISITS, settle=playouts, deeper_visits=2 * VISITS)
    assert judgement.dead == [[1, 1], [6, 7]], judgement
    assert judgement.uncertain == []


@pytest.mark.parametrize("to_move", ["B", "W"])
async def test_a_seki_stays_alive_and_its_shared_liberty_dame(service: EngineService, to_move: str) -> None:
    game = board(SEKI, to_move)
    assert (0, 0) in game.seki_stones() and (4, 0) in game.seki_stones()
    judgement = await dead_stones.ask(service, game, BUDGET, VISITS, settle=playouts, deeper_visits=2 * VISITS)
    assert judgement.dead == [], judgement
    score = game.score([(x, y) for x, y in judgement.dead])
    assert score.seki == [(3, 0)]  # d9: counted for nobody
