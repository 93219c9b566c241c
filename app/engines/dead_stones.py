"""Dead stones at counting from KataGo's ownership: the engine proposes, the rules engine counts.

The board as it lies is asked twice, once with each side to move (``board_position``), with ownership and its
standard deviation. Each chain is judged on its stones' mean ownership from its own colour's side (+1: its
colour owns its points, -1: the opponent does) in each answer:

- **dead** when both answers give it to the opponent (at most ``-DEAD``) and neither is unsure of it (a mean
  standard deviation below ``UNSURE_STDEV``);
- **alive** when both answers leave it at least ``-ALIVE``: its colour's, or nobody's, as the stones of a seki
  are (KataGo gives a seki ownership near 0), so a seki stays alive; but not when the two answers are far apart
  (more than ``SWING``: its colour's with one side to move, nobody's with the other). That is a fight the side to
  move decides, not a seki (whose stones are nobody's whoever moves), and calling it alive would decide it
  silently: seen on the adjudicated set (docs/performance.md), a chain at +0.99 and -0.01 that the side to move
  kills;
- **uncertain** otherwise (the answers disagree, or a chain between the two bounds, or an unsure one). An
  uncertain chain is not proposed dead: it is marked uncertain on the board, and the players decide.

Only stones are judged: empty points are counted by the rules engine as it counts them (dame stay dame,
whatever KataGo's ownership of them). The rules engine then widens the marks to whole chains and counts.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from app.engines.analysis import Analysis, Point, Question
from app.engines.errors import EngineUnavailable
from app.engines.lane import Priority
from app.engines.rules import board_position
from app.engines.service import EngineService
from app.rules.game import Game

DEAD = 0.6  # a chain the opponent owns this much (mean, from its colour's side, -1..1) in both answers is dead
ALIVE = 0.3  # a chain owned at least -ALIVE in both answers is alive (seki stones are near 0)
SWING = 0.6  # answers further apart than this on a chain (one side to move or the other): not settled, uncertain
UNSURE_STDEV = 0.45  # a mean ownership standard deviation above this: not sure enough to call it dead
MAX_VISITS = 64  # at most this many visits per answer, however fast the engine
SHARE = 0.5  # of the budget spent on the expected time of the two questions (the rest: margin)


@dataclass(frozen=True)
class Reading:
    """One answer's ownership (rows from the top, -1 White's to 1 Black's) and its standard deviation."""

    ownership: list[list[float]]
    stdev: list[list[float]] | None = None


@dataclass(frozen=True)
class Judgement:
    dead: list[list[int]]  # sorted [x, y]: the stones proposed dead
    uncertain: list[list[int]]  # sorted [x, y]: the stones of the chains the engine is not sure of


def chains(game: Game) -> list[tuple[str, list[Point]]]:
    """Every chain on the board, with its colour, each once."""
    seen: set[Point] = set()
    found: list[tuple[str, list[Point]]] = []
    for y in range(game.size):
        for x in range(game.size):
            colour = game.stone_at((x, y))
            if colour is None or (x, y) in seen:
                continue
            chain = sorted(game.chain((x, y)))
            seen.update(chain)
            found.append((colour, chain))
    return found


@dataclass(frozen=True)
class ChainReading:
    """One chain as the readings see it: its mean ownership from its own colour's side (+1 its colour's, -1 the
    opponent's) and its mean ownership standard deviation (None: not asked), one of each per reading."""

    colour: str
    stones: list[Point]
    owned: list[float]
    stdev: list[float | None]


def read_chains(game: Game, readings: list[Reading]) -> list[ChainReading]:
    """Every chain of ``game``'s board as ``readings`` see it."""
    if not readings:
        raise ValueError("no reading to judge by")
    found: list[ChainReading] = []
    for colour, chain in chains(game):
        sign = 1.0 if colour == "B" else -1.0
        owned = [sign * sum(r.ownership[y][x] for x, y in chain) / len(chain) for r in readings]
        stdev = [None if r.stdev is None else sum(r.stdev[y][x] for x, y in chain) / len(chain) for r in readings]
        found.append(ChainReading(colour, chain, owned, stdev))
    return found


def verdict(chain: ChainReading) -> str:
    """``dead``, ``alive`` or ``uncertain`` (the module's rules)."""
    unsure = any(s is not None and s > UNSURE_STDEV for s in chain.stdev)
    if all(o <= -DEAD for o in chain.owned) and not unsure:
        return "dead"
    if all(o >= -ALIVE for o in chain.owned) and max(chain.owned) - min(chain.owned) <= SWING:
        return "alive"
    return "uncertain"


def judge(game: Game, readings: list[Reading]) -> Judgement:
    """The dead and uncertain stones of ``game``'s board from ``readings`` (one per side to move)."""
    dead: list[list[int]] = []
    uncertain: list[list[int]] = []
    for chain in read_chains(game, readings):
        found = verdict(chain)
        if found == "dead":
            dead.extend([x, y] for x, y in chain.stones)
        elif found == "uncertain":
            uncertain.extend([x, y] for x, y in chain.stones)
    return Judgement(sorted(dead), sorted(uncertain))


def visits_for(evals_per_second: float, budget: float) -> int:
    """Visits for each of the two questions, so that both fit in ``SHARE`` of the budget at the measured speed."""
    return max(1, min(MAX_VISITS, int(evals_per_second * budget * SHARE / 2)))


async def ask(engines: EngineService, game: Game, budget: float, visits: int | None = None) -> Judgement:
    """KataGo's judgement of ``game``'s dead stones: the board asked with each side to move, at counting's priority,
    within ``budget`` seconds (``TimeoutError`` past it; the engine's errors, ``RulesNotMapped`` as they come)."""
    return judge(game, await read(engines, game, budget, visits))


async def read(engines: EngineService, game: Game, budget: float, visits: int | None = None) -> list[Reading]:
    """The two readings ``ask`` judges by (Black to play, then White)."""
    speed = engines.evals_per_second(game.size)
    if speed is None:
        raise EngineUnavailable(f"KataGo is {engines.state} for {game.size}x{game.size}")
    visits = visits or visits_for(speed, budget)
    questions = [
        Question(board_position(game, colour), visits, ownership=True, ownership_stdev=True, pv_length=1) for colour in ("B", "W")
    ]

    async def both() -> list[Analysis]:
        return list(await asyncio.gather(*(engines.analyze(q, Priority.COUNTING) for q in questions)))

    answers = await asyncio.wait_for(both(), budget)
    return [Reading(a.ownership or [], a.ownership_stdev) for a in answers]
