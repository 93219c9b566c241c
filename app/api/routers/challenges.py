"""``/api/challenges``: list, create, view, cancel, accept and decline challenges."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from app.api.deps import DB, Lobby, OptionalUser, RequiredUser, Spectators, Visiting
from app.lobby import service
from app.lobby.schemas import ChallengeAccept, ChallengeCreate, ChallengeDecline
from app.lobby.challenge_views import challenge_views, one_challenge_view
from app.lobby.views import game_summary, game_url, player_ids
from app.ratings.lookup import display_ranks
from app.store.repositories import challenges, moderation

router = APIRouter(prefix="/api/challenges", tags=["challenges"])


@router.get("", summary="Open challenges anyone may accept (but those of players blocked either way)")
async def list_open(db: DB, user: OptionalUser) -> dict:
    hiding = frozenset() if user is None else await moderation.avoided(db, user.id)
    return {"challenges": await challenge_views(db, await challenges.list_open(db, hiding=hiding))}


@router.get("/incoming", summary="Open challenges addressed to me (a bot polls this after a reconnect)")
async def incoming(db: DB, user: OptionalUser) -> dict:
    if user is None:
        return {"challenges": []}
    return {"challenges": await challenge_views(db, await challenges.list_open_to(db, user.id))}


@router.post("", status_code=201, summary="Create a challenge (to anyone, or to one player with `opponent`)")
async def create(body: ChallengeCreate, request: Request, db: DB, visitor: Visiting, lobby: Lobby) -> dict:
    user = await visitor.user(commit=False)  # stored with the challenge
    challenge = await service.create_challenge(db, lobby, user, body, request.app.state.caps, request.app.state.fair_play)
    return await one_challenge_view(db, challenge, with_token=True)


@router.get("/{challenge_id}", summary="One challenge (a private one needs its token)")
async def get(challenge_id: str, db: DB, user: OptionalUser, token: str | None = Query(default=None, max_length=128)) -> dict:
    challenge = await service.find_challenge(db, user, challenge_id, token)
    mine = user is not None and user.id == challenge.creator_id
    return await one_challenge_view(db, challenge, with_token=mine)


@router.delete("/{challenge_id}", summary="Cancel your challenge")
async def cancel(challenge_id: str, db: DB, user: RequiredUser, lobby: Lobby) -> dict:
    challenge = await service.cancel_challenge(db, lobby, user, challenge_id)
    return await one_challenge_view(db, challenge)


@router.post("/{challenge_id}/accept", status_code=201, summary="Accept a challenge: a game starts")
async def accept(
    challenge_id: str,
    request: Request,
    db: DB,
    visitor: Visiting,
    lobby: Lobby,
    spectators: Spectators,
    body: ChallengeAccept | None = None,
) -> dict:
    user = await visitor.user(commit=False)  # stored with the game
    row = await service.accept_challenge(
        db,
        request.app.state.hub,
        lobby,
        user,
        challenge_id,
        body.token if body else None,
        request.app.state.caps,
        request.app.state.fair_play,
    )
    ranks = await display_ranks(db, player_ids([row]))
    return {"game_id": row.game.id, "url": game_url(row.game.id), "game": game_summary(row, spectators, ranks)}


@router.post("/{challenge_id}/decline", summary="Decline a challenge addressed to you, with a reason")
async def decline(challenge_id: str, db: DB, user: RequiredUser, lobby: Lobby, body: ChallengeDecline | None = None) -> dict:
    challenge = await service.decline_challenge(db, lobby, user, challenge_id, body.reason if body else None)
    return await one_challenge_view(db, challenge)
