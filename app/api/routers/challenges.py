"""``/api/challenges``: list, create, view, cancel and accept challenges."""

from __future__ import annotations

from fastapi import APIRouter, Query

from app.api.deps import DB, CurrentUser, Lobby, OptionalUser, Spectators
from app.lobby import service
from app.lobby.schemas import ChallengeAccept, ChallengeCreate
from app.lobby.views import challenge_view, game_summary, game_url
from app.store.repositories import challenges, users

router = APIRouter(prefix="/api/challenges", tags=["challenges"])


@router.get("", summary="Open challenges anyone may accept")
async def list_open(db: DB) -> dict:
    rows = await challenges.list_open(db)
    names = await users.names(db, {row.creator_id for row in rows})
    return {"challenges": [challenge_view(row, names.get(row.creator_id, "?")) for row in rows]}


@router.post("", status_code=201, summary="Create a challenge")
async def create(body: ChallengeCreate, db: DB, user: CurrentUser, lobby: Lobby) -> dict:
    challenge = await service.create_challenge(db, lobby, user, body)
    return challenge_view(challenge, user.name, with_token=True)


@router.get("/{challenge_id}", summary="One challenge (a private one needs its token)")
async def get(
    challenge_id: str, db: DB, user: OptionalUser, token: str | None = Query(default=None, max_length=128)
) -> dict:
    challenge = await service.find_challenge(db, user, challenge_id, token)
    names = await users.names(db, {challenge.creator_id})
    mine = user is not None and user.id == challenge.creator_id
    return challenge_view(challenge, names.get(challenge.creator_id, "?"), with_token=mine)


@router.delete("/{challenge_id}", summary="Cancel your challenge")
async def cancel(challenge_id: str, db: DB, user: CurrentUser, lobby: Lobby) -> dict:
    challenge = await service.cancel_challenge(db, lobby, user, challenge_id)
    return challenge_view(challenge, user.name)


@router.post("/{challenge_id}/accept", status_code=201, summary="Accept a challenge: a game starts")
async def accept(
    challenge_id: str, db: DB, user: CurrentUser, lobby: Lobby, spectators: Spectators, body: ChallengeAccept | None = None
) -> dict:
    row = await service.accept_challenge(db, lobby, user, challenge_id, body.token if body else None)
    return {"game_id": row.game.id, "url": game_url(row.game.id), "game": game_summary(row, spectators)}
