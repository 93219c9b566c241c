"""Dead stones at counting from KataGo's ownership: the engine proposes, the rules engine counts.

The board as it lies is asked twice, once with each side to move (``board_position``), with ownership and its
standard deviation. Each chain is judged on its stones' mean ownership from its own colour's side (+1: its
colour owns its points, -1: the opponent does) in each answer, in this order:

- **seki first**: a chain the rules engine finds in seki (``Game.seki_stones``: it shares liberties with the other
  colour and neither side can approach) is **alive**, unless both answers give it to the opponent firmly (the
  static seki test does not read sacrifices inside a dead shape; KataGo does);
- **dead** when both answers give it to the opponent (at most ``-DEAD``) and neither is unsure of it (a mean
  standard deviation below ``UNSURE_STDEV``);
- **alive** when both answers leave it at least ``-ALIVE``: its colour's, or nobody's, as the stones of a seki
  are (KataGo gives a seki ownership near 0); but not when the two answers are far apart (more than ``SWING``:
  its colour's with one side to move, nobody's with the other). That is a fight the side to move decides;
- otherwise the chain is **disputed**, and the **side to move** (the game's, as recorded: who would play if the
  game went on) decides, as the play-out oracle and its adjudication do (docs/performance.md). When time is left
  in the budget, the side to move's position is asked once more with more visits (only when a chain is
  disputed). A disputed chain is then **dead** when the side to move's reading gives it to the opponent firmly
  and sure, and the rules engine's playouts (``settle``: ``Game.propose_dead`` from the side to move) agree; or
  when every reading leans that way (below 0, the side to move's at most ``-LEAN``) and the playouts have it
  dead. A disputed chain still open that the side to move's deeper reading leans to give away, unsure (a mean
  standard deviation above ``UNSURE_STDEV``), is settled by **KataGo's own line** (``follow``): the deeper
  reading's principal variation played out on a copy of the game, then one reading of its end; the chain is dead
  when the line captures it or the end's reading gives it away firmly and sure (a capturing race the first
  readings cannot see to its end). A sure reading the playouts veto stays uncertain: two judges disagree, the
  players decide. It is **alive** when the side to move's reading gives it to its colour firmly (at least
  ``DEAD``). Anything else stays **uncertain**: not
  proposed dead, marked uncertain on the board, and the players decide.

Only stones are judged: empty points are counted by the rules engine as it counts them (dame stay dame,
whatever KataGo's ownership of them). The rules engine then widens the marks to whole chains and counts.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from app.engines.analysis import Analysis, Colour, Point, Question
from app.engines.errors import EngineUnavailable
from app.engines.lane import Priority
from app.engines.rules import board_position
from app.engines.service import EngineService
from app.rules.game import Game

DEAD = 0.6  # a chain the opponent owns this much (mean, from its colour's side, -1..1) in both answers is dead
ALIVE = 0.3  # a chain owned at least -ALIVE in both answers is alive (seki stones are near 0)
SWING = 0.6  # answers further apart than this on a chain (one side to move or the other): not settled, disputed
LEAN = 0.2  # a disputed chain every reading gives to the opponent, the side to move's at least this: leans dead
UNSURE_STDEV = 0.45  # a mean ownership standard deviation above this: not sure enough to call it dead
MAX_VISITS = 64  # at most this many visits per answer, however fast the engine
SHARE = 0.5  # of the budget spent on the expected time of the two questions (the rest: margin)
DEEPER_SHARE = 0.5  # of the budget left after the two questions, spent on the side to move's deeper reading
FOLLOW_MOVES = 15  # KataGo's own line (the deeper reading's principal variation) followed at most this far
MAX_DEEPER_VISITS = 256  # at most this many visits for the deeper reading, however fast the engine

# Settles what the readings leave open: the rules engine's dead stones of the game (its playouts from the side to
# move), within the given seconds; None when it has no answer in time.
Settle = Callable[[Game, float], Awaitable[set[Point] | None]]


@dataclass(frozen=True)
class Reading:
    """One answer's ownership (rows from the top, -1 White's to 1 Black's) and its standard deviation."""

    ownership: list[list[float]]
    stdev: list[list[float]] | None = None


@dataclass(frozen=True)
class Judgement:
    dead: list[list[int]]  # sorted [x, y]: the stones proposed dead
    uncertain: list[list[int]]  # sorted [x, y]: the stones of the chains the engine is not sure of
    deeper_visits: int = 0  # the visits of the side to move's deeper reading (0: not asked)
    settled: bool = False  # whether the rules engine's playouts were asked


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


def _mean(grid: list[list[float]], chain: list[Point]) -> float:
    return sum(grid[y][x] for x, y in chain) / len(chain)


def read_chains(game: Game, readings: list[Reading]) -> list[ChainReading]:
    """Every chain of ``game``'s board as ``readings`` see it."""
    if not readings:
        raise ValueError("no reading to judge by")
    found: list[ChainReading] = []
    for colour, chain in chains(game):
        sign = 1.0 if colour == "B" else -1.0
        owned = [sign * _mean(r.ownership, chain) for r in readings]
        stdev = [None if r.stdev is None else _mean(r.stdev, chain) for r in readings]
        found.append(ChainReading(colour, chain, owned, stdev))
    return found


def _unsure(stdev: float | None) -> bool:
    return stdev is not None and stdev > UNSURE_STDEV


def verdict(chain: ChainReading, seki: bool = False) -> str:
    """``dead``, ``alive`` or ``uncertain`` from the readings alone, each side to move (the module's first rules);
    ``uncertain`` is a disputed chain the side to move decides (``decide``)."""
    if seki and not all(o <= -DEAD for o in chain.owned):
        return "alive"
    if all(o <= -DEAD for o in chain.owned) and not any(_unsure(s) for s in chain.stdev):
        return "dead"
    if all(o >= -ALIVE for o in chain.owned) and max(chain.owned) - min(chain.owned) <= SWING:
        return "alive"
    return "uncertain"


def decide(
    chain: ChainReading,
    mover: int,
    deeper: tuple[float, float | None] | None,
    playouts: set[Point] | None,
    followed: set[Point] | None = None,
) -> str:
    """A disputed chain decided by the side to move: ``mover`` is the index of its reading in ``chain``, ``deeper``
    its deeper reading of the chain (mean ownership from the chain's side, stdev) when asked, ``playouts`` the
    rules engine's dead stones when asked (None: not asked; nothing is then killed on the side to move's word),
    ``followed`` the stones KataGo's own line (the deeper reading's principal variation) captures or leaves to the
    opponent firmly."""
    owned, stdev = deeper if deeper is not None else (chain.owned[mover], chain.stdev[mover])
    if owned >= DEAD:
        return "alive"
    confirmed = playouts is not None and chain.stones[0] in playouts
    if owned <= -DEAD and not _unsure(stdev) and confirmed:
        return "dead"
    if owned <= -LEAN and all(o < 0 for o in chain.owned) and confirmed:
        return "dead"
    if owned <= -LEAN and followed is not None and chain.stones[0] in followed:
        return "dead"
    return "uncertain"


def unsure_leaning(chain: ChainReading, mover: int, deeper: tuple[float, float | None] | None) -> bool:
    """Whether the side to move's deeper reading leans to give the chain away but is unsure of it: KataGo does not
    know, and its own line is followed to find out (a sure reading the playouts veto stays uncertain: two judges
    disagree, the players decide)."""
    return deeper is not None and deeper[0] <= -LEAN and _unsure(deeper[1])


def needs_playouts(chain: ChainReading, mover: int, deeper: tuple[float, float | None] | None) -> bool:
    """Whether ``decide`` could call the chain dead with the playouts' agreement (so they are worth asking)."""
    owned = deeper[0] if deeper is not None else chain.owned[mover]
    return owned <= -LEAN


def judge(
    game: Game,
    readings: list[Reading],
    to_move: str | None = None,
    deeper: Reading | None = None,
    playouts: set[Point] | None = None,
    seki: set[Point] | None = None,
    followed: set[Point] | None = None,
) -> Judgement:
    """The dead and uncertain stones of ``game``'s board from ``readings`` (one per side to move, Black's first;
    or a single one). With ``to_move``, the side to move decides the disputed chains (with its ``deeper`` reading
    when asked, the rules engine's ``playouts`` and KataGo's ``followed`` line); ``seki``: the rules engine's seki
    stones (asked of ``game`` when None)."""
    seki = game.seki_stones() if seki is None else seki
    mover = None if to_move is None or len(readings) != 2 else (0 if to_move == "B" else 1)
    dead: list[list[int]] = []
    uncertain: list[list[int]] = []
    for chain in read_chains(game, readings):
        found = verdict(chain, chain.stones[0] in seki)
        if found == "uncertain" and mover is not None:
            found = decide(chain, mover, deeper_reading(chain, deeper), playouts, followed)
        if found == "dead":
            dead.extend([x, y] for x, y in chain.stones)
        elif found == "uncertain":
            uncertain.extend([x, y] for x, y in chain.stones)
    return Judgement(sorted(dead), sorted(uncertain), settled=playouts is not None)


def deeper_reading(chain: ChainReading, reading: Reading | None) -> tuple[float, float | None] | None:
    """The chain's mean ownership from its side and mean stdev in ``reading`` (None: no reading)."""
    if reading is None:
        return None
    sign = 1.0 if chain.colour == "B" else -1.0
    return sign * _mean(reading.ownership, chain.stones), None if reading.stdev is None else _mean(reading.stdev, chain.stones)


def visits_for(evals_per_second: float, budget: float) -> int:
    """Visits for each of the two questions, so that both fit in ``SHARE`` of the budget at the measured speed."""
    return max(1, min(MAX_VISITS, int(evals_per_second * budget * SHARE / 2)))


def deeper_visits_for(evals_per_second: float, left: float) -> int:
    """Visits for the side to move's deeper reading: ``DEEPER_SHARE`` of the ``left`` seconds at the measured speed
    (0: not worth asking)."""
    return max(0, min(MAX_DEEPER_VISITS, int(evals_per_second * left * DEEPER_SHARE)))


@dataclass
class Reckoning:
    """What ``ask`` read, for the benches: the two readings, the deeper one, the playouts, the seki stones."""

    readings: list[Reading]
    deeper: Reading | None = None
    playouts: set[Point] | None = None
    seki: set[Point] = field(default_factory=set)
    followed: set[Point] | None = None


async def ask(
    engines: EngineService,
    game: Game,
    budget: float,
    visits: int | None = None,
    settle: Settle | None = None,
    deeper_visits: int | None = None,
    reckoning: Reckoning | None = None,
) -> Judgement:
    """KataGo's judgement of ``game``'s dead stones: the board asked with each side to move, at counting's priority,
    then (a chain disputed, time left) the side to move's position once more with more visits, then (a disputed
    chain leaning dead) the rules engine's playouts through ``settle``; all within ``budget`` seconds
    (``TimeoutError`` past it for the two first questions; the engine's errors, ``RulesNotMapped`` as they come).
    ``visits``/``deeper_visits`` fix the visits (a bench); ``reckoning`` collects what was read."""
    started = time.monotonic()
    readings = await read(engines, game, budget, visits)
    seki = game.seki_stones()
    first = judge(game, readings, seki=seki)
    recorded = reckoning if reckoning is not None else Reckoning(readings)
    recorded.readings, recorded.seki = readings, seki
    if not first.uncertain:
        return first
    to_move: Colour = "B" if game.to_move == "B" else "W"
    mover = 0 if to_move == "B" else 1
    speed = engines.evals_per_second(game.size) or 0.0
    left = budget - (time.monotonic() - started)
    deeper_visits = deeper_visits_for(speed, left) if deeper_visits is None else deeper_visits
    deeper: Reading | None = None
    line: list[Point | None] = []
    if deeper_visits > (visits or visits_for(speed, budget)):
        question = Question(
            board_position(game, to_move), deeper_visits, ownership=True, ownership_stdev=True, pv_length=FOLLOW_MOVES
        )
        try:
            answer = await asyncio.wait_for(engines.analyze(question, Priority.COUNTING), left)
            deeper = Reading(answer.ownership or [], answer.ownership_stdev)
            line = answer.candidates[0].pv if answer.candidates else []
        except TimeoutError:
            deeper = None  # the two answers stand alone
    recorded.deeper = deeper
    disputed = [c for c in read_chains(game, readings) if c.stones[0] not in seki and verdict(c) == "uncertain"]
    playouts: set[Point] | None = None
    if settle is not None and any(needs_playouts(c, mover, deeper_reading(c, deeper)) for c in disputed):
        left = budget - (time.monotonic() - started)
        if left > 0:
            playouts = await settle(game, left)
    recorded.playouts = playouts
    judgement = judge(game, readings, to_move, deeper, playouts, seki)
    followed: set[Point] | None = None
    open_chains = {(x, y) for x, y in judgement.uncertain}
    leaning = [c for c in disputed if c.stones[0] in open_chains and unsure_leaning(c, mover, deeper_reading(c, deeper))]
    if deeper is not None and leaning and line:
        left = budget - (time.monotonic() - started)
        followed = await follow(engines, game, to_move, line, leaning, visits or visits_for(speed, budget), left)
        recorded.followed = followed
        judgement = judge(game, readings, to_move, deeper, playouts, seki, followed)
    return Judgement(judgement.dead, judgement.uncertain, deeper_visits if deeper is not None else 0, playouts is not None)


async def follow(
    engines: EngineService,
    game: Game,
    to_move: Colour,
    line: list[Point | None],
    leaning: list[ChainReading],
    visits: int,
    left: float,
) -> set[Point]:
    """KataGo's own line played out: the deeper reading's principal variation played on a copy of the game (as far
    as it is legal), then one reading of the end (``visits``, within ``left`` seconds). The stones of the
    ``leaning`` chains the line captures, or that the end's reading gives to the opponent firmly and sure."""
    played = game.copy()
    moves: list[tuple[Colour, Point | None]] = []
    for point in line:
        colour: Colour = "B" if played.to_move == "B" else "W"
        if point is None:
            played.pass_turn(colour)
        elif played.is_legal(colour, point):
            played.play(colour, point)
        else:
            break
        moves.append((colour, point))
    found: set[Point] = set()
    standing: list[ChainReading] = []
    for chain in leaning:
        if all(played.stone_at(p) is None for p in chain.stones):
            found.update(chain.stones)
        else:
            standing.append(chain)
    if standing and left > 0:
        start = board_position(game, to_move)
        end = replace(start, moves=tuple(moves))
        question = Question(end, visits, ownership=True, ownership_stdev=True, pv_length=1)
        try:
            answer = await asyncio.wait_for(engines.analyze(question, Priority.COUNTING), left)
        except TimeoutError:
            return found
        reading = Reading(answer.ownership or [], answer.ownership_stdev)
        for chain in standing:
            read = deeper_reading(chain, reading)
            if read is not None and read[0] <= -DEAD and not _unsure(read[1]):
                found.update(chain.stones)
    return found


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
