"""How much one user may have open at once: challenges, practice games, and games without a clock.

A game without a clock never ends by itself and every open challenge is shown to everyone, so a stranger could
otherwise fill the lobby and the database. The caps come from the settings (``TENGEN_MAX_*``); the service
functions check them before creating anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Conflict
from app.settings import FromSettings
from app.store.repositories import challenges, games


@dataclass(frozen=True)
class Caps(FromSettings):
    open_challenges: int = 10
    practice_games: int = 3
    untimed_games: int = 10

    SETTINGS: ClassVar = {
        "open_challenges": "max_open_challenges",
        "practice_games": "max_practice_games",
        "untimed_games": "max_untimed_games",
    }


DEFAULT_CAPS = Caps()


def untimed(time_control: dict[str, Any] | None) -> bool:
    return not time_control or time_control.get("kind", "none") == "none"


async def check_open_challenges(session: AsyncSession, caps: Caps, user_id: int) -> None:
    if await challenges.count_open_by(session, user_id) >= caps.open_challenges:
        raise Conflict("too_many_challenges", f"You already have {caps.open_challenges} open challenges.")


async def check_untimed_games(
    session: AsyncSession, caps: Caps, user_id: int, *, practice: bool = False, you: bool = True
) -> None:
    """Refuse one more unfinished game without a clock (a practice game when ``practice``) for ``user_id``."""
    count, practising = await games.count_unfinished_untimed(session, user_id)
    if practice and practising >= caps.practice_games:
        raise Conflict(
            "too_many_practice_games", f"You already have {caps.practice_games} unfinished practice games: finish or resign one."
        )
    if count >= caps.untimed_games:
        who = "You already have" if you else "Your opponent already has"
        raise Conflict(
            "too_many_untimed_games", f"{who} {caps.untimed_games} unfinished games without a clock: finish or resign one first."
        )
