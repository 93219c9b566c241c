"""What a handicap and komi are worth in ranks, and the handicap that makes a game between two ranks fair.

One handicap stone is worth about one rank, and a game without komi (Black moves first, 0.5 komi) is the
traditional setting for one rank: so ``h`` stones with 0.5 komi are worth ``h`` ranks, and every
``POINTS_PER_RANK`` points of komi below the usual one a further rank. On a board of ``size`` lines the
same setting is worth ``361 / size**2`` times as much (a point matters more on a small board)::

    stones = handicap if handicap >= 2 else 0
    base   = 0.5 if handicap >= 2 else FAIR_KOMI
    ranks  = (stones + (base - komi) / POINTS_PER_RANK) * 361 / size**2

Black's rating is raised by the rating points those ranks are worth at Black's rank, in the expected
result of both players, so a game whose handicap fits the gap between the players is an even bet.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.ratings.ranks import rank_number, rating_for_rank_number
from app.rules.handicap import max_fixed_handicap

FAIR_KOMI = 7.0  # the komi that makes an even game fair (area scoring)
POINTS_PER_RANK = 6.5  # from the fair komi down to 0.5: one rank


def board_factor(size: int) -> float:
    return 361.0 / (size * size)


def black_advantage_ranks(handicap: int, komi: float, size: int) -> float:
    stones = handicap if handicap >= 2 else 0
    base = 0.5 if handicap >= 2 else FAIR_KOMI
    return (stones + (base - komi) / POINTS_PER_RANK) * board_factor(size)


def black_advantage_points(black_rating: float, handicap: int, komi: float, size: int) -> float:
    """Rating points added to Black's rating in the expected result of this game (negative: White's)."""
    ranks = black_advantage_ranks(handicap, komi, size)
    return rating_for_rank_number(rank_number(black_rating) + ranks) - black_rating


@dataclass(frozen=True)
class Suggestion:
    handicap: int
    komi: float | None  # None: the rules preset's usual komi (an even game)
    weaker_is_black: bool


def suggest(rank_gap: float, size: int) -> Suggestion:
    """The handicap and komi for two players ``rank_gap`` rank numbers apart (stronger minus weaker)."""
    gap = abs(rank_gap) / board_factor(size)
    if gap < 0.5:
        return Suggestion(0, None, False)
    if gap < 1.5 or max_fixed_handicap(size) < 2:
        return Suggestion(0, 0.5, True)
    return Suggestion(min(max_fixed_handicap(size), round(gap)), 0.5, True)
