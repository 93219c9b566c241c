"""Moderators' actions. Each one is committed together with its audit-log entry (who, when, what, to whom,
why), then takes effect everywhere:

- ``warn``: the user's lobby sockets on every instance get ``moderator_warning``.
- ``mute``: chat refused until a time (checked in the database at every chat line).
- ``suspend`` / ``ban``: no play, chat or challenges (checked in the database where those are accepted); their
  open challenges are cancelled, every instance ends their seek and their sockets (``notices.py``: each socket
  reads ``account_sanctioned``, then closes), and each running game ends as an abandoned game does: the
  opponent wins by abandonment.
- ``lift``: ends a mute, a suspension and a ban.
- ``remove_chat``: the game commits a ``chat_removed`` event naming the lines; every client drops them, and
  snapshots and the chat pages leave them out from then on.
- ``annul``: the game's rating effect is taken back and the ratings recomputed (app/ratings/service.py).
- ``close_report``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import Conflict, Forbidden, NotFound, ServiceError
from app.games.live.rooms import RoomManager
from app.lobby.live.broadcaster import LobbyBroadcaster
from app.lobby.service import withdraw_all
from app.moderation import schemas
from app.moderation.messages import AccountSanctioned, ModeratorWarning
from app.moderation.notices import announce_sanction
from app.moderation.roles import find_user
from app.ratings import service as ratings
from app.store.models import AuditEntry, User
from app.store.repositories import games
from app.store.repositories import moderation as repo
from app.store.types import utcnow
from app.transport.hub import Hub
from app.transport.messages import to_users

log = logging.getLogger(__name__)


def audit_view(entry: AuditEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "at": entry.at,
        "actor": entry.actor,
        "action": entry.action,
        "target": entry.target,
        "target_user_id": entry.target_user_id,
        "game_id": entry.game_id,
        "report_id": entry.report_id,
        "reason": entry.reason,
        "details": entry.details,
    }


@dataclass
class Moderation:
    sessionmaker: async_sessionmaker[AsyncSession]
    hub: Hub
    lobby: LobbyBroadcaster
    rooms: RoomManager
    rating_tau: float

    # ---- people

    async def warn(self, moderator: User, name: str, body: schemas.Action) -> dict[str, Any]:
        async with self.sessionmaker() as session:
            target = await self._target(session, moderator, name)
            entry = await self._audit(session, moderator, "warn", body, target=target)
        await self.lobby.publish(to_users(ModeratorWarning(reason=body.reason), [target.id]))
        return audit_view(entry)

    async def mute(self, moderator: User, name: str, body: schemas.Mute) -> dict[str, Any]:
        until = utcnow() + timedelta(minutes=body.minutes)
        async with self.sessionmaker() as session:
            target = await self._target(session, moderator, name)
            await repo.set_sanction(session, target.id, muted_until=until)
            entry = await self._audit(session, moderator, "mute", body, target=target, details={"until": until.isoformat()})
        return audit_view(entry)

    async def suspend(self, moderator: User, name: str, body: schemas.Suspend) -> dict[str, Any]:
        until = body.until if body.until is not None else utcnow() + timedelta(hours=body.hours or 0)
        if until <= utcnow():
            raise ServiceError("bad_until", "A suspension ends in the future.", 422)
        return await self._sanction(moderator, name, body, "suspend", {"suspended_until": until}, {"until": until.isoformat()})

    async def ban(self, moderator: User, name: str, body: schemas.Action) -> dict[str, Any]:
        return await self._sanction(moderator, name, body, "ban", {"banned": True}, None)

    async def lift(self, moderator: User, name: str, body: schemas.Action) -> dict[str, Any]:
        async with self.sessionmaker() as session:
            target = await self._target(session, moderator, name)
            await repo.set_sanction(session, target.id, banned=False, suspended_until=None, muted_until=None)
            entry = await self._audit(session, moderator, "lift", body, target=target)
        return audit_view(entry)

    async def _sanction(
        self,
        moderator: User,
        name: str,
        body: schemas.Action,
        action: Literal["suspend", "ban"],
        values: dict[str, Any],
        details: dict[str, Any] | None,
    ) -> dict[str, Any]:
        async with self.sessionmaker() as session:
            target = await self._target(session, moderator, name)
            await repo.set_sanction(session, target.id, **values)
            entry = await self._audit(session, moderator, action, body, target=target, details=details)
            await withdraw_all(session, self.lobby, target.id)
            running = await repo.unfinished_games_of(session, target.id)
        # Their sockets on every instance hear why, then close (notices.py).
        until: datetime | None = values.get("suspended_until")
        notice = AccountSanctioned(
            action=action, reason=body.reason, until=None if until is None else until.astimezone(UTC).isoformat()
        )
        await announce_sanction(self.hub, target.id, notice)
        for game in running:
            await self._end_abandoned(game.id, target.id, game.black_id, game.white_id)
        return audit_view(entry)

    async def _end_abandoned(self, game_id: str, user_id: int, black_id: int, white_id: int) -> None:
        """End the game as the rules end an abandoned one: the other player wins by abandonment (a practice
        game, one user on both sides, ends with no result)."""
        action: dict[str, Any] = {"t": "abandoned"}
        if black_id != white_id:
            action["color"] = "B" if black_id == user_id else "W"
        room = await self.rooms.open(game_id)
        if room is None:
            return
        outcome = await room.act(None, None, action)
        if not outcome.ok and outcome.code != "game_over":
            log.warning("game %s of a sanctioned user did not end: %s", game_id, outcome.code)

    # ---- games and chat

    async def remove_chat(self, moderator: User, game_id: str, body: schemas.RemoveChat) -> dict[str, Any]:
        lines = sorted(set(body.lines))
        async with self.sessionmaker() as session:
            if await games.get(session, game_id) is None:
                raise NotFound("game_not_found", "No such game.")
            removed_text = {}
            for v in lines:
                line = await repo.chat_line(session, game_id, v)
                if line is None:
                    raise NotFound("chat_line_not_found", f"Line {v} is not a chat line of this game.")
                removed_text[str(v)] = {"from": line.payload.get("from"), "text": line.payload.get("text")}
        room = await self.rooms.open(game_id)
        if room is None:
            raise NotFound("game_not_found", "No such game.")
        outcome = await room.act(None, None, {"t": "chat_removed", "lines": lines})
        if not outcome.ok:
            raise ServiceError("unavailable", "The game could not be saved right now; try again.", 503)
        async with self.sessionmaker() as session:
            entry = await self._audit(session, moderator, "remove_chat", body, game_id=game_id, details={"lines": removed_text})
        return audit_view(entry)

    async def annul(self, moderator: User, game_id: str, body: schemas.Action) -> dict[str, Any]:
        async with self.sessionmaker() as session:
            game = await games.get(session, game_id)
            if game is None:
                raise NotFound("game_not_found", "No such game.")
            if not game.rated or game.status != "finished":
                raise Conflict("not_rated", "Only a finished rated game can be annulled.")
        if not await ratings.annul(self.sessionmaker, game_id, self.rating_tau):
            raise Conflict("not_rated", "This game has no rating effect to take back.")
        async with self.sessionmaker() as session:
            entry = await self._audit(session, moderator, "annul", body, game_id=game_id)
        return audit_view(entry)

    async def close_report(self, moderator: User, report_id: int, body: schemas.CloseReport) -> dict[str, Any]:
        async with self.sessionmaker() as session:
            if await repo.get_report(session, report_id) is None:
                raise NotFound("report_not_found", "No such report.")
            if not await repo.close_report(session, report_id, moderator.id, body.resolution):
                raise Conflict("report_closed", "This report is closed already.")
            entry = await self._audit(
                session, moderator, "close_report", schemas.Action(reason=body.resolution, report_id=report_id)
            )
        return audit_view(entry)

    # ---- helpers

    async def _target(self, session: AsyncSession, moderator: User, name: str) -> User:
        target = await find_user(session, name)
        if target.id == moderator.id:
            raise ServiceError("own_moderation", "You cannot act on your own account.")
        held = await repo.roles_of(session, target.id)
        if held and "admin" not in await repo.roles_of(session, moderator.id):
            raise Forbidden("protected_user", "Only an admin can act on a moderator's account.")
        return target

    async def _audit(
        self,
        session: AsyncSession,
        moderator: User,
        action: str,
        body: schemas.Action,
        *,
        target: User | None = None,
        game_id: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> AuditEntry:
        entry = await repo.audit(
            session,
            actor_id=moderator.id,
            actor=moderator.name,
            action=action,
            target_user_id=None if target is None else target.id,
            target=None if target is None else target.name,
            game_id=game_id,
            report_id=body.report_id,
            reason=body.reason.strip(),
            details=details,
        )
        await session.commit()
        await session.refresh(entry)
        return entry
