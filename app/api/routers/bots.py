"""``/api/bots`` and ``/api/tokens``: bot accounts and the API tokens programs authenticate with."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import tokens
from app.api.deps import DB, RequiredUser, SessionUser
from app.bots import service
from app.bots.declaration import BotAccepts
from app.transport.sockets import announce_token_revoked

router = APIRouter(prefix="/api", tags=["bots"])


class BotCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)
    accepts: BotAccepts = Field(default_factory=BotAccepts)
    strength: str | None = Field(default=None, max_length=16)  # its starting rank, like a person's at registration


class TokenCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="token", min_length=1, max_length=64)
    scopes: list[str] = Field(default_factory=lambda: ["read", "play"], max_length=len(tokens.SCOPES))
    user_id: int | None = None  # one of your bots; None: yourself


@router.get("/bots", summary="Every bot (the server's own first), what each accepts and how busy it is")
async def list_bots(db: DB) -> dict:
    return {"bots": await service.listed(db)}


@router.post("/bots", status_code=201, summary="Register a bot account that you own")
async def create_bot(body: BotCreate, db: DB, user: SessionUser) -> dict:
    return service.bot_view(await service.create_bot(db, user, body.name, body.accepts, body.strength))


@router.put("/bots/{bot_id}/accepts", summary="Change what a bot accepts (its owner, or the bot's own token)")
async def set_accepts(bot_id: int, body: BotAccepts, db: DB, user: RequiredUser) -> dict:
    return service.bot_view(await service.set_accepts(db, user, bot_id, body))


@router.get("/tokens", summary="Your API tokens and your bots' (never the tokens themselves)")
async def list_tokens(db: DB, user: SessionUser) -> dict:
    return {"tokens": [tokens.view(row) for row in await tokens.listed(db, user)]}


@router.post("/tokens", status_code=201, summary="Make an API token for you or one of your bots (shown once)")
async def create_token(body: TokenCreate, db: DB, user: SessionUser) -> dict:
    row, token = await tokens.create(db, user, body.name, body.scopes, body.user_id)
    return {**tokens.view(row), "token": token}


@router.delete("/tokens/{token_id}", summary="Revoke an API token (the sockets it opened close, on every instance)")
async def revoke_token(token_id: int, request: Request, db: DB, user: SessionUser) -> dict:
    owner_id = await tokens.revoke(db, user, token_id)
    await announce_token_revoked(request.app.state.hub, owner_id, token_id)
    return {"ok": True}
