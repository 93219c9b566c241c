"""``/api/ladders``: the ladders, one ladder with each rung's challengeability for the caller, joining, leaving,
challenges and their answers, and the history (docs/ladders.md)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from app.api.deps import DB, Lobby, OptionalUser, RequiredUser, Spectators
from app.ladders import service
from app.ladders.schemas import LadderChallengeCreate
from app.lobby.views import game_summary, game_url, player_ids
from app.ratings.lookup import display_ranks

router = APIRouter(prefix="/api/ladders", tags=["ladders"])


@router.get("", summary="Every ladder, with its rules and number of players")
async def list_ladders(db: DB) -> dict:
    return {"ladders": await service.list_ladders(db)}


@router.get("/{ladder_id}", summary="One ladder: its rungs, and whether the caller may challenge each (else why)")
async def get(ladder_id: str, db: DB, user: OptionalUser) -> dict:
    return await service.ladder_view(db, ladder_id, user)


@router.get("/{ladder_id}/history", summary="The ladder's history, newest first (page with `before`)")
async def history(
    ladder_id: str,
    db: DB,
    before: int | None = Query(default=None, ge=1),
    limit: int = Query(default=service.HISTORY_PAGE, ge=1, le=service.HISTORY_PAGE),
) -> dict:
    return await service.history(db, ladder_id, before, limit)


@router.post("/{ladder_id}/join", status_code=201, summary="Take the bottom rung")
async def join(ladder_id: str, db: DB, user: RequiredUser, lobby: Lobby) -> dict:
    return {"position": await service.join(db, lobby, user, ladder_id)}


@router.post("/{ladder_id}/leave", summary="Leave the ladder (those below move up one)")
async def leave(ladder_id: str, db: DB, user: RequiredUser, lobby: Lobby) -> dict:
    await service.leave(db, lobby, user, ladder_id)
    return {"left": True}


@router.post("/{ladder_id}/challenges", status_code=201, summary="Challenge a player above you")
async def challenge(
    ladder_id: str, body: LadderChallengeCreate, request: Request, db: DB, user: RequiredUser, lobby: Lobby
) -> dict:
    return await service.challenge(db, lobby, user, ladder_id, body.defender_id, body.color, request.app.state.fair_play)


@router.post("/challenges/{challenge_id}/accept", status_code=201, summary="Accept a challenge: its game starts")
async def accept(challenge_id: str, request: Request, db: DB, user: RequiredUser, lobby: Lobby, spectators: Spectators) -> dict:
    row = await service.accept(db, request.app.state.hub, lobby, user, challenge_id, request.app.state.fair_play)
    ranks = await display_ranks(db, player_ids([row]))
    return {"game_id": row.game.id, "url": game_url(row.game.id), "game": game_summary(row, spectators, ranks)}


@router.post("/challenges/{challenge_id}/decline", summary="Decline a challenge: it counts as a loss (no camping)")
async def decline(challenge_id: str, db: DB, user: RequiredUser, lobby: Lobby) -> dict:
    return await service.decline(db, lobby, user, challenge_id)
