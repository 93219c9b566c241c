"""One rated game's effect on both players' figures, in every category it counts for (pure).

The live update and ``tengen ratings rebuild`` both call :func:`rate_game`, so they give the same figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from app.ratings.glicko2 import Outcome, Rating, expected_score, update
from app.ratings.handicap import black_advantage_points

OVERALL = "overall"
SIZES = (9, 13, 19)
CATEGORIES = (OVERALL, *(str(s) for s in SIZES))
UNRATED_ENDINGS = ("abort", "no_result", "cancelled")
# A game in which either side played fewer stones than this is not rated, whatever its result: a resignation
# at move 0 between two accounts must not move a rating. Stones played count; passes do not, and handicap
# stones are placed with the board, not played (docs/ratings.md, "Which games are rated").
MIN_STONES_EACH = 2


def categories_for(size: int) -> list[str]:
    return [OVERALL] + ([str(size)] if size in SIZES else [])


def black_score(result: str | None) -> float | None:
    """1 when Black won, 0 when White won, 0.5 for a draw, None for no result (``Void``)."""
    if not result:
        return None
    if result.startswith("B+"):
        return 1.0
    if result.startswith("W+"):
        return 0.0
    if result == "Draw":
        return 0.5
    return None


@dataclass(frozen=True)
class GameFacts:
    game_id: str
    black_id: int
    white_id: int
    size: int
    handicap: int
    komi: float
    black_score: float
    at: datetime


@dataclass(frozen=True)
class Change:
    user_id: int
    opponent_id: int
    category: str
    score: float
    expected: float
    before: Rating
    after: Rating


def unrated_reason(
    *,
    rated: bool,
    black_id: int,
    white_id: int,
    black_guest: bool,
    white_guest: bool,
    ended_by: str | None,
    result: str | None,
    stones: Mapping[str, int],
) -> str | None:
    """Why a finished game is not rated, or None when it is. ``stones``: the stones each side played."""
    if not rated:
        return "casual"
    if black_id == white_id:
        return "practice"
    if black_guest or white_guest:
        return "guest"
    if ended_by in UNRATED_ENDINGS or black_score(result) is None:
        return "void"
    if min(stones.get("B", 0), stones.get("W", 0)) < MIN_STONES_EACH:
        return "too_short"
    return None


def rate_game(facts: GameFacts, figures: dict[tuple[int, str], Rating], tau: float) -> list[Change]:
    """Both players' changes in each category, each against the other's figures from before the game."""
    changes = []
    for category in categories_for(facts.size):
        black = figures[(facts.black_id, category)]
        white = figures[(facts.white_id, category)]
        extra = black_advantage_points(black.rating, facts.handicap, facts.komi, facts.size)
        for me, them, mine, theirs, score, advantage in (
            (facts.black_id, facts.white_id, black, white, facts.black_score, extra),
            (facts.white_id, facts.black_id, white, black, 1.0 - facts.black_score, -extra),
        ):
            after = update(mine, [Outcome(theirs, score, advantage)], tau)
            changes.append(Change(me, them, category, score, expected_score(mine, theirs, advantage), mine, after))
    return changes
