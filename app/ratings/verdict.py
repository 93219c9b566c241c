"""Whether a game counts for the ratings, as every view of it says: ``rated`` and, when it does not count,
``unrated_reason``.

A game keeps the ``rated`` it was created with (what its players asked for). Whether it counted is decided when it
ends, by :func:`app.ratings.rate.unrated_reason`, and recorded with the game's rating update
(app/ratings/service.py): ``rated``, ``unrated`` with its reason, or, after a moderator's decision, ``annulled``.
A view shows that record; in the moment between the end and the update it shows what the update is deciding, from
the same facts with the same function, so no view ever calls a game rated that will not be.

Reasons: ``casual`` (asked unrated), ``practice``, ``guest``, ``void`` (no result), ``too_short`` (fewer than
``MIN_STONES_EACH`` stones by a side), ``annulled``.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.ratings.rate import unrated_reason
from app.store.repositories.games import FINISHED, GameWithPlayers


@dataclass(frozen=True)
class Verdict:
    rated: bool
    reason: str | None = None  # why not, when not rated


RATED = Verdict(True)


def verdict(row: GameWithPlayers) -> Verdict:
    game, record = row.game, row.rating
    if game.status != FINISHED:  # not decided yet: what was asked
        return RATED if game.rated else Verdict(False, "casual")
    if record.status == "rated":
        return RATED
    if record.status == "annulled":
        return Verdict(False, "annulled")
    if record.status == "unrated":
        return Verdict(False, record.reason)
    assert record.stones is not None  # the store reads them for a finished game waiting for its update
    reason = unrated_reason(
        rated=game.rated,
        black_id=row.black.id,
        white_id=row.white.id,
        black_guest=row.black.is_guest,
        white_guest=row.white.is_guest,
        ended_by=game.ended_by,
        result=game.result,
        stones=record.stones,
    )
    return RATED if reason is None else Verdict(False, reason)
