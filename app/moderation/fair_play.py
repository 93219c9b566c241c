"""Escaping: a player's share of recent games lost by abandonment or on time without a move.

Over the last ``window`` finished games (aborted and void games left out), once at least ``min_games`` count,
a share above ``threshold`` limits the player to unrated games. The limit lifts itself: each game played to
its end lowers the share, and it is measured again at every rated challenge, acceptance and seek.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Forbidden
from app.settings import FromSettings
from app.store.repositories import moderation as repo


@dataclass(frozen=True)
class FairPlay(FromSettings):
    window: int = 50
    min_games: int = 10
    threshold: float = 0.2

    SETTINGS: ClassVar = {"window": "escape_window", "min_games": "escape_min_games", "threshold": "escape_threshold"}


DEFAULT_FAIR_PLAY = FairPlay()


@dataclass(frozen=True)
class EscapeShare:
    games: int
    escapes: int
    share: float
    limited: bool

    def view(self, rule: FairPlay) -> dict[str, object]:
        return {
            "games": self.games,
            "escapes": self.escapes,
            "share": round(self.share, 3),
            "limited": self.limited,
            "threshold": rule.threshold,
            "window": rule.window,
            "min_games": rule.min_games,
        }


async def escape_share(session: AsyncSession, user_id: int, rule: FairPlay = DEFAULT_FAIR_PLAY) -> EscapeShare:
    record = await repo.escape_record(session, user_id, rule.window)
    share = record.escapes / record.games if record.games else 0.0
    limited = record.games >= rule.min_games and share > rule.threshold
    return EscapeShare(record.games, record.escapes, share, limited)


async def check_may_play_rated(
    session: AsyncSession, user_ids: set[int], rule: FairPlay = DEFAULT_FAIR_PLAY, you: int | None = None
) -> None:
    """Refuse a rated game when any of these players escapes too often (``you``: the one asking)."""
    for user_id in sorted(user_ids):
        share = await escape_share(session, user_id, rule)
        if share.limited:
            who = "You leave" if user_id == you or you is None else "Your opponent leaves"
            raise Forbidden(
                "escaping_limited",
                f"{who} too many games unfinished ({share.escapes} of the last {share.games}): "
                "unrated games only until that share falls.",
            )
