"""The score estimate (the analysis board's, a shared review's, a game page's) and the analysis board's hints from
KataGo, where it runs (the engine service on ``app.state.engines``, at the priority of a person waiting); ``None``
when it cannot answer in time, so that the caller falls back to what the board had without KataGo (the rules
engine's estimate: ``estimate_or_rules``; GNU Go's hints).

The line is replayed by a study worker first (``jobs.katago_position``): an illegal move is refused with its
number and KataGo only ever sees legal positions, under the position's own rules and komi (docs/rules.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.engines.analysis import Analysis, Position, Question
from app.engines.lane import Priority
from app.engines.service import EngineService
from app.errors import ServiceError
from app.study import jobs
from app.study.jobs import Line

log = logging.getLogger(__name__)

ESTIMATE_SECONDS = 10.0  # KataGo's share of an estimate's budget
HINT_SECONDS = 15.0
MAX_VISITS = 400
TOP = 5

Run = Callable[..., Awaitable[Any]]  # runs a job on a study worker


def _visits(speed: float, seconds: float, least: int) -> int:
    return max(least, min(MAX_VISITS, int(speed * seconds * 0.5)))


async def _ask(
    engines: EngineService, run: Run, setup: dict[str, Any], line: Line, seconds: float, least: int, **what: Any
) -> Analysis | None:
    speed = engines.evals_per_second(setup["size"])
    if speed is None:
        return None
    position: Position | None = await run(jobs.katago_position, setup, line)  # TreeError for an illegal move
    if position is None:
        return None
    question = Question(position, _visits(speed, seconds, least), **what)
    try:
        return await asyncio.wait_for(engines.analyze(question, Priority.ESTIMATE), seconds)
    except (TimeoutError, ServiceError) as exc:
        log.info("KataGo gave no answer for the analysis board (%s): without it instead", exc or "over its time")
        return None


async def estimate(engines: EngineService, run: Run, setup: dict[str, Any], line: Line) -> dict[str, Any] | None:
    """The estimate from KataGo's ownership and score lead (``judge`` ``katago``), or None."""
    answer = await _ask(engines, run, setup, line, ESTIMATE_SECONDS, 1, ownership=True, pv_length=1)
    if answer is None or answer.ownership is None:
        return None
    counted: dict[str, Any] = await run(jobs.estimate_from, setup, line, answer.ownership)
    return {**counted, "judge": "katago", "winrate": round(answer.winrate, 4), "score_lead": round(answer.score_lead, 1)}


async def estimate_or_rules(engines: EngineService, run: Run, setup: dict[str, Any], line: Line) -> dict[str, Any]:
    """The estimate every board shows: KataGo's (:func:`estimate`) where it answers in time, else the rules
    engine's playouts (``judge`` ``rules``, ``jobs.estimate``)."""
    with_katago = await estimate(engines, run, setup, line)
    if with_katago is not None:
        return with_katago
    return {**await run(jobs.estimate, setup, line), "judge": "rules"}


async def hints(engines: EngineService, run: Run, setup: dict[str, Any], line: Line) -> dict[str, Any] | None:
    """KataGo's top moves with their win rate, score lead (Black's) and principal variation, or None."""
    answer = await _ask(engines, run, setup, line, HINT_SECONDS, 2 * TOP)
    if answer is None:
        return None
    return {
        "to_move": answer.to_move,
        "engine": "katago",
        "winrate": round(answer.winrate, 4),
        "score_lead": round(answer.score_lead, 1),
        "moves": [
            {
                "point": None if c.point is None else list(c.point),
                "value": None,
                "visits": c.visits,
                "winrate": round(c.winrate, 4),
                "score_lead": round(c.score_lead, 1),
                "pv": [None if p is None else list(p) for p in c.pv],
            }
            for c in answer.candidates[:TOP]
        ],
    }
