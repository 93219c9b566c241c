"""Blocks and reports for every player (``/api/blocks``, ``/api/reports``) and the moderators' API
(``/api/moderation/...``): the report queue, actions on players, games and chat, and the audit log.
docs/moderation.md describes the roles, actions and thresholds."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request

from app.api.deps import DB, RequiredUser
from app.errors import Forbidden, NotFound
from app.moderation import blocks, reports, roles, schemas
from app.moderation.fair_play import escape_share
from app.moderation.service import Moderation, audit_view
from app.store.models import User
from app.store.repositories import moderation as repo

router = APIRouter(prefix="/api", tags=["moderation"])


async def moderator(user: RequiredUser, db: DB) -> User:
    if not await roles.may_moderate(db, user):
        raise Forbidden("not_a_moderator", "Only moderators can do this.")
    return user


Moderator = Annotated[User, Depends(moderator)]


def _service(request: Request) -> Moderation:
    return request.app.state.moderation


# ---- every player


@router.get("/blocks", summary="The players I blocked")
async def my_blocks(db: DB, user: RequiredUser) -> dict:
    return {"blocked": await blocks.listed(db, user)}


@router.post("/blocks", status_code=201, summary="Block a player: no challenges, chat or automatch between us")
async def block(body: schemas.BlockCreate, request: Request, db: DB, user: RequiredUser) -> dict:
    target = await blocks.block(db, request.app.state.hub, user, body.name, request.app.state.settings.max_blocks)
    return {"blocked": {"id": target.id, "name": target.name}}


@router.delete("/blocks/{name}", summary="Unblock a player")
async def unblock(name: str, request: Request, db: DB, user: RequiredUser) -> dict:
    target = await blocks.unblock(db, request.app.state.hub, user, name)
    return {"unblocked": {"id": target.id, "name": target.name}}


@router.post("/reports", status_code=201, summary="Report a player, a game or a chat line to the moderators")
async def report(body: schemas.ReportCreate, request: Request, db: DB, user: RequiredUser) -> dict:
    created = await reports.create(db, user, body, request.app.state.settings.max_open_reports)
    return reports.receipt(created)


# ---- moderators


@router.get("/moderation/me", summary="My roles")
async def my_roles(db: DB, user: Moderator) -> dict:
    return {"name": user.name, "roles": sorted(await repo.roles_of(db, user.id))}


@router.get("/moderation/reports", summary="The report queue (oldest first), or every report")
async def report_queue(db: DB, _: Moderator, status: Literal["received", "closed", "all"] = Query(default="received")) -> dict:
    return {"reports": await reports.queue(db, None if status == "all" else status)}


@router.get("/moderation/reports/{report_id}", summary="One report with its game and chat in context")
async def one_report(report_id: int, db: DB, _: Moderator) -> dict:
    found = await repo.get_report(db, report_id)
    if found is None:
        raise NotFound("report_not_found", "No such report.")
    return await reports.view(db, found)


@router.post("/moderation/reports/{report_id}/close", summary="Close a report, saying what was done")
async def close_report(report_id: int, body: schemas.CloseReport, request: Request, user: Moderator) -> dict:
    return await _service(request).close_report(user, report_id, body)


@router.get("/moderation/users/{name}", summary="A player's standing, roles, escape share and audit entries")
async def user_record(name: str, request: Request, db: DB, _: Moderator) -> dict:
    target = await roles.find_user(db, name)
    standing = await repo.standing(db, target.id)
    assert standing is not None
    share = await escape_share(db, target.id, request.app.state.fair_play)
    return {
        "id": target.id,
        "name": target.name,
        "roles": sorted(await repo.roles_of(db, target.id)),
        "banned": standing.banned,
        "suspended_until": standing.suspended_until,
        "muted_until": standing.muted_until,
        "escapes": share.view(request.app.state.fair_play),
        "audit": [audit_view(e) for e in await repo.audit_entries(db, target_user_id=target.id, limit=50)],
    }


@router.post("/moderation/users/{name}/warn", summary="Warn a player (they see the reason at once)")
async def warn(name: str, body: schemas.Action, request: Request, user: Moderator) -> dict:
    return await _service(request).warn(user, name, body)


@router.post("/moderation/users/{name}/mute", summary="Mute a player's chat for some minutes")
async def mute(name: str, body: schemas.Mute, request: Request, user: Moderator) -> dict:
    return await _service(request).mute(user, name, body)


@router.post("/moderation/users/{name}/suspend", summary="Suspend a player until a time")
async def suspend(name: str, body: schemas.Suspend, request: Request, user: Moderator) -> dict:
    return await _service(request).suspend(user, name, body)


@router.post("/moderation/users/{name}/ban", summary="Ban a player")
async def ban(name: str, body: schemas.Action, request: Request, user: Moderator) -> dict:
    return await _service(request).ban(user, name, body)


@router.post("/moderation/users/{name}/lift", summary="Lift a player's mute, suspension and ban")
async def lift(name: str, body: schemas.Action, request: Request, user: Moderator) -> dict:
    return await _service(request).lift(user, name, body)


@router.post("/moderation/games/{game_id}/chat/remove", summary="Remove chat lines for everyone")
async def remove_chat(game_id: str, body: schemas.RemoveChat, request: Request, user: Moderator) -> dict:
    return await _service(request).remove_chat(user, game_id, body)


@router.post("/moderation/games/{game_id}/annul", summary="Annul a rated game: its rating effect is taken back")
async def annul(game_id: str, body: schemas.Action, request: Request, user: Moderator) -> dict:
    return await _service(request).annul(user, game_id, body)


@router.get("/moderation/audit", summary="The audit log, newest first")
async def audit_log(
    db: DB, _: Moderator, before: int | None = Query(default=None, ge=1), limit: int = Query(default=100, ge=1, le=500)
) -> dict:
    entries = await repo.audit_entries(db, before=before, limit=limit)
    return {"entries": [audit_view(e) for e in entries], "next_before": entries[-1].id if len(entries) == limit else None}
