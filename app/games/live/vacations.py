"""Correspondence settings and vacations: what a player chose, and their vacation reaching every game.

Turning vacation on or off stores the new balance (app/accounts/vacation.py), then acts ``vacation`` on each of
the player's unfinished correspondence games through its room, like any other action (every instance sees
it). The sweep ends the vacations that ran out, on every instance (each step is idempotent: a vacation already
ended is not found again, and the action changes nothing in a game where the player is already back).
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.vacation import Vacation
from app.background import Periodic
from app.errors import Forbidden, ServiceError
from app.games.live.rooms import RoomManager
from app.games.weekends import UnknownTimeZone, zone
from app.store.models import CorrespondenceSettings, User
from app.store.repositories import correspondence as repo

log = logging.getLogger(__name__)

DEFAULT_TIME_ZONE = "UTC"


def _registered_at(user: User) -> float:
    return (user.registered_at or user.created_at).timestamp()


def vacation_of(user: User, row: CorrespondenceSettings | None) -> Vacation:
    if row is None:
        return Vacation.starting(_registered_at(user))
    return Vacation(banked=row.vacation_banked, banked_at=row.vacation_banked_at, since=row.vacation_since)


def settings_view(user: User, row: CorrespondenceSettings | None, now: float) -> dict[str, Any]:
    vacation = vacation_of(user, row).view(now) if not user.is_guest else None
    return {
        "weekend_pause": bool(row and row.weekend_pause),
        "time_zone": row.time_zone if row is not None else DEFAULT_TIME_ZONE,
        "vacation": vacation,
    }


def _row(user: User, row: CorrespondenceSettings | None) -> CorrespondenceSettings:
    if row is not None:
        return row
    start = Vacation.starting(_registered_at(user))
    return CorrespondenceSettings(
        user_id=user.id,
        weekend_pause=False,
        time_zone=DEFAULT_TIME_ZONE,
        vacation_banked=start.banked,
        vacation_banked_at=start.banked_at,
        vacation_since=None,
    )


async def update_settings(session: AsyncSession, user: User, weekend_pause: bool, time_zone: str) -> CorrespondenceSettings:
    try:
        zone(time_zone)
    except UnknownTimeZone as exc:
        raise ServiceError("invalid_time_zone", f"{exc}; use an IANA name such as Europe/Paris", 422) from None
    row = _row(user, await repo.get(session, user.id))
    row.weekend_pause, row.time_zone = weekend_pause, time_zone
    await repo.put(session, row)
    await session.commit()
    return row


def _store(row: CorrespondenceSettings, vacation: Vacation) -> None:
    row.vacation_banked, row.vacation_banked_at, row.vacation_since = vacation.banked, vacation.banked_at, vacation.since


async def set_vacation(
    sessionmaker: async_sessionmaker[AsyncSession],
    rooms: RoomManager,
    user: User,
    on: bool,
) -> dict[str, Any]:
    """Start or end ``user``'s vacation now; returns their settings view."""
    if user.is_guest:
        raise Forbidden("account_required", "Register to take vacations from correspondence games.")
    now = rooms.clock()
    async with sessionmaker() as session:
        row = _row(user, await repo.get(session, user.id))
        vacation = vacation_of(user, row)
        if on and not vacation.on:
            if vacation.balance(now) <= 0:
                raise ServiceError("no_vacation_left", "You have no vacation days left.", 409)
            _store(row, vacation.start(now))
        elif not on and vacation.on:
            _store(row, vacation.stop(now))
        await repo.put(session, row)
        await session.commit()
        games = await repo.unfinished_games(session, user.id)
        view = settings_view(user, row, now)
    await _reach_games(rooms, games, on)
    return view


async def _reach_games(rooms: RoomManager, games: list[tuple[str, str, dict[str, Any]]], on: bool) -> None:
    for game_id, color, time_control in games:
        if not time_control.get("correspondence"):
            continue
        room = await rooms.open(game_id)
        if room is not None:
            await room.act(None, None, {"t": "vacation", "color": color, "on": on})


class VacationSweeper(Periodic):
    """Ends the vacations that ran out, every ``interval`` seconds (read on the server's clock)."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], rooms: RoomManager, interval: float) -> None:
        super().__init__("tengen-vacations", interval)
        self.sessionmaker = sessionmaker
        self.rooms = rooms

    async def run_once(self) -> int:
        """Vacations ended."""
        now = self.rooms.clock()
        async with self.sessionmaker() as session:
            over = await repo.vacations_over(session, now)
        ended = 0
        for user_id in over:
            async with self.sessionmaker() as session:
                row = await repo.get(session, user_id)
                if row is None or row.vacation_since is None:
                    continue
                vacation = Vacation(banked=row.vacation_banked, banked_at=row.vacation_banked_at, since=row.vacation_since)
                _store(row, vacation.stop(now))
                await session.commit()
                games = await repo.unfinished_games(session, user_id)
            await _reach_games(self.rooms, games, False)
            ended += 1
        if ended:
            log.info("vacation sweep: %d vacations ended", ended)
        return ended
