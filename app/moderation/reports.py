"""Reports: a player reports a user, a game or one chat line with a reason and is told it was received; the
moderators' queue shows each report with the reported chat lines and the game in context."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Conflict, NotFound, ServiceError
from app.lobby.views import game_summary
from app.moderation.roles import find_user
from app.moderation.schemas import ReportCreate
from app.store.models import Report, User
from app.store.repositories import games, moderation as repo, users


async def create(session: AsyncSession, reporter: User, body: ReportCreate, cap: int) -> Report:
    if await repo.open_reports_by(session, reporter.id) >= cap:
        raise Conflict("too_many_reports", f"You have {cap} reports waiting for a moderator already.")
    user_id: int | None = None
    if body.user:
        user_id = (await find_user(session, body.user)).id
    if body.game_id is not None and await games.get(session, body.game_id) is None:
        raise NotFound("game_not_found", "No such game.")
    if body.kind == "chat":
        assert body.game_id is not None and body.chat_v is not None
        line = await repo.chat_line(session, body.game_id, body.chat_v)
        if line is None:
            raise NotFound("chat_line_not_found", "No such chat line in this game.")
        author = (line.payload.get("from") or {}).get("id")
        user_id = author if isinstance(author, int) else user_id
    if user_id == reporter.id:
        raise ServiceError("own_report", "You cannot report yourself.")
    report = await repo.add_report(
        session,
        reporter_id=reporter.id,
        kind=body.kind,
        user_id=user_id,
        game_id=body.game_id,
        chat_v=body.chat_v if body.kind == "chat" else None,
        reason=body.reason.strip(),
    )
    await session.commit()
    return report


def receipt(report: Report) -> dict[str, Any]:
    """What the reporter is told."""
    return {"id": report.id, "status": report.status, "kind": report.kind, "created_at": report.created_at}


async def view(session: AsyncSession, report: Report) -> dict[str, Any]:
    """A report as the moderators' queue shows it: who, what, the game and the chat around the line."""
    named = await users.names(session, {i for i in (report.reporter_id, report.user_id, report.closed_by) if i})
    out: dict[str, Any] = {
        "id": report.id,
        "kind": report.kind,
        "status": report.status,
        "reason": report.reason,
        "created_at": report.created_at,
        "chat_v": report.chat_v,
        "reporter": {"id": report.reporter_id, "name": named.get(report.reporter_id)},
        "user": None if report.user_id is None else {"id": report.user_id, "name": named.get(report.user_id)},
        "closed_at": report.closed_at,
        "resolution": report.resolution,
        "closed_by": None if report.closed_by is None else named.get(report.closed_by),
        "game": None,
        "chat": [],
    }
    if report.game_id is not None:
        row = await games.get_with_players(session, report.game_id)
        if row is not None:
            out["game"] = game_summary(row)
            removed = await repo.removed_chat(session, report.game_id)
            out["chat"] = [
                {
                    "v": event.v,
                    "from": event.payload.get("from"),
                    "text": event.payload.get("text"),
                    "channel": event.payload.get("channel"),
                    "removed": event.v in removed,
                    "reported": event.v == report.chat_v,
                }
                for event in await repo.chat_around(session, report.game_id, report.chat_v)
            ]
    return out


async def queue(session: AsyncSession, status: str | None) -> list[dict[str, Any]]:
    return [await view(session, report) for report in await repo.reports(session, status)]
