"""The McMahon score (MMS), by the EGF's definitions: a player starts at their rank, raised to the bottom bar
and lowered to the top bar (everyone at or above the top bar starts equal, and so everyone at or below the
bottom bar); MMS = start + wins, a jigo 1/2, a bye 1, an absence 0 (the EGF's default: the director may give
1/2, which is a ``Bye`` of kind "bye" at the runtime's choice — not done here)."""

from __future__ import annotations

from collections.abc import Iterable

from .model import Bye, Entrant, Result, TournamentRules
from .scores import points


def starting_mms(rank: int, rules: TournamentRules) -> int:
    """The start: the rank (30k = 0 ... 1d = 30) between the bars; bars apply to McMahon events only."""
    if rules.format != "mcmahon":
        return 0
    start = rank
    if rules.top_bar is not None:
        start = min(start, rules.top_bar)
    if rules.bottom_bar is not None:
        start = max(start, rules.bottom_bar)
    return start


def mcmahon_scores(
    rules: TournamentRules,
    entrants: Iterable[Entrant],
    results: Iterable[Result],
    byes: Iterable[Bye],
    before_round: int | None = None,
) -> dict[str, float]:
    """Every entrant's MMS before ``before_round`` (after every round if None)."""
    won = points(results, byes, before_round)
    return {e.player_id: starting_mms(e.rank, rules) + won.get(e.player_id, 0.0) for e in entrants}
