"""Points from the record: a win 1, a jigo 1/2, a loss, both losing or an unplayed game 0; a bye 1, an absence 0
(the McMahon score counts an absence as app/tournaments/mcmahon_score.py says)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from .model import Bye, Result

WIN = 1.0
JIGO = 0.5
BYE = 1.0


def game_points(result: Result, player: str) -> float:
    """What ``player`` earned from ``result`` (0 if they were not in it)."""
    if result.outcome == "jigo" and player in (result.black, result.white):
        return JIGO
    if (result.outcome == "B" and player == result.black) or (result.outcome == "W" and player == result.white):
        return WIN
    return 0.0


def points(results: Iterable[Result], byes: Iterable[Bye], before_round: int | None = None) -> dict[str, float]:
    """Everyone's points from games and byes of the rounds before ``before_round`` (all rounds if None)."""
    total: dict[str, float] = defaultdict(float)
    for r in results:
        if before_round is None or r.round < before_round:
            total[r.black] += game_points(r, r.black)
            total[r.white] += game_points(r, r.white)
    for b in byes:
        if (before_round is None or b.round < before_round) and b.kind == "bye":
            total[b.player] += BYE
    return dict(total)


def opponents(results: Iterable[Result]) -> dict[str, set[str]]:
    """Who met whom (an unplayed game counts as met: they were paired)."""
    met: dict[str, set[str]] = defaultdict(set)
    for r in results:
        met[r.black].add(r.white)
        met[r.white].add(r.black)
    return met


def colour_balance(results: Iterable[Result]) -> dict[str, int]:
    """Blacks minus whites per player, over games that were played."""
    balance: dict[str, int] = defaultdict(int)
    for r in results:
        if r.outcome != "unplayed":
            balance[r.black] += 1
            balance[r.white] -= 1
    return balance
