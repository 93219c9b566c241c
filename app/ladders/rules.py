"""The pure rules of a ladder (docs/ladders.md): who may challenge whom, why not, and the order after an outcome.

Standard library only; the service reads the facts from the database under the ladder's lock and asks these.
A refusal is a code, the same one the API answers a refused challenge with and the page shows beside a rung it
greys out: the page is never offered a challenge the server would then refuse (OGS #2859).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

Outcome = Literal["challenger_won", "defender_won", "declined", "expired", "void"]
# The defender loses the place in each of these: by the game, by declining (no camping, OGS #998: a decline
# counts as a loss), or by leaving the challenge unanswered past its deadline.
CHALLENGER_TAKES: frozenset[str] = frozenset({"challenger_won", "declined", "expired"})


@dataclass(frozen=True)
class Policy:
    """A ladder's rules as data (its row)."""

    reach: int  # a challenge goes up to this many places above
    max_outgoing: int  # unsettled challenges a player may have made
    max_incoming: int  # unsettled challenges a player may be defending
    rechallenge: timedelta  # the same player again only this long after the last challenge between them settled


@dataclass(frozen=True)
class Facts:
    """What the refusal depends on besides the positions, for one challenger."""

    outgoing: int = 0  # the challenger's unsettled challenges made
    incoming: dict[int, int] = field(default_factory=dict)  # user -> unsettled challenges they are defending
    engaged: frozenset[int] = frozenset()  # players with an unsettled challenge with the challenger, either way
    last_settled: dict[int, datetime] = field(default_factory=dict)  # user -> when the last challenge with them settled
    blocked: frozenset[int] = frozenset()  # players who blocked the challenger or whom the challenger blocked


def refusal(
    order: Sequence[int], challenger: int | None, defender: int, policy: Policy, facts: Facts, now: datetime
) -> str | None:
    """Why ``challenger`` may not challenge ``defender`` now (an error code), or None when they may.
    ``order``: the user ids from the top (position 1) down."""
    if challenger is None:
        return "account_required"
    places = {user: i for i, user in enumerate(order)}
    if challenger not in places:
        return "not_on_ladder"
    if defender not in places:
        return "not_on_ladder_defender"
    if defender == challenger:
        return "own_rung"
    gap = places[challenger] - places[defender]
    if gap <= 0:
        return "not_above"
    if gap > policy.reach:
        return "too_far_above"
    if defender in facts.blocked:
        return "blocked"
    if defender in facts.engaged:
        return "already_challenged"
    settled = facts.last_settled.get(defender)
    if settled is not None and now < settled + policy.rechallenge:
        return "rechallenge_too_soon"
    if facts.outgoing >= policy.max_outgoing:
        return "too_many_ladder_challenges"
    if facts.incoming.get(defender, 0) >= policy.max_incoming:
        return "defender_busy"
    return None


def after_outcome(order: Sequence[int], challenger: int, defender: int, outcome: str) -> list[int]:
    """The order once a challenge is settled. When the defender loses the place (``CHALLENGER_TAKES``) and the
    challenger is still below them, the challenger takes the defender's place and everyone from the defender down
    to just above the challenger moves down one; otherwise (the defender held, a void game, or the challenger
    has meanwhile risen above the defender) nothing moves. A player no longer on the ladder changes nothing."""
    result = list(order)
    if outcome not in CHALLENGER_TAKES or challenger not in result or defender not in result:
        return result
    to, frm = result.index(defender), result.index(challenger)
    if frm <= to:
        return result
    del result[frm]
    result.insert(to, challenger)
    return result


def after_leaving(order: Sequence[int], user: int) -> list[int]:
    """The order once ``user`` has left: everyone below moves up one."""
    return [u for u in order if u != user]


def challenger_score(black_score: float | None, challenger_is_black: bool) -> Outcome:
    """The outcome of a ladder game from Black's score (1 Black won, 0 White won, 0.5 a draw, None no result),
    whichever colour the challenger had: only a win takes the place; a draw leaves the defender there; a void
    game (aborted, no result) changes nothing."""
    if black_score is None:
        return "void"
    if black_score == 0.5:
        return "defender_won"
    challenger_won = (black_score == 1.0) == challenger_is_black
    return "challenger_won" if challenger_won else "defender_won"
