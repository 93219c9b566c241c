"""``/api/bots`` and ``/api/tokens``: bot accounts and the API tokens programs authenticate with; and
``/api/bots/katago``, the instance's KataGo for its own house bots (docs/bots.md, "KataGo house bots")."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import tokens
from app.api.deps import DB, RequiredUser, SessionUser
from app.bots import kata_engine, service
from app.bots.declaration import BotAccepts
from app.engines.analysis import Question
from app.engines.lane import Priority
from app.engines.service import EngineService
from app.errors import Forbidden, ServiceError
from app.field_limits import AtMost
from app.study import jobs
from app.study.schemas import MoveDoc, SetupDoc
from app.study.tree import LIMITS, TreeError
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


MAX_BOT_VISITS = kata_engine.MAX_VISITS  # a house bot's search at most (the strongest step on a fast machine)
MAX_BOT_SECONDS = kata_engine.MAX_SECONDS  # a house bot's question at most (its clock's budget for the move)
SPEED_SHARE = 0.6  # of the budget's seconds the visits are planned to fill
REPLAY_BUDGET = 5.0  # seconds: a study worker checks the game's line (milliseconds)


class BotQuestion(BaseModel):
    """A house bot's position: the game's setup and moves, the visits and the seconds it may take."""

    model_config = ConfigDict(extra="forbid")
    setup: SetupDoc
    line: Annotated[list[MoveDoc], AtMost(LIMITS.depth, *LIMITS.refusal("depth"))] = Field(default_factory=list)
    visits: int = Field(default=1, ge=1)
    seconds: float = Field(default=5.0, gt=0)


@router.post("/bots/katago", summary="KataGo's policy and candidates at a position: the server's own house bots only")
async def house_bot_analysis(body: BotQuestion, request: Request, db: DB, user: RequiredUser) -> dict:
    if not user.is_bot or user.owner_id is not None:
        raise Forbidden("house_bots_only", "Only the server's own house bots ask its KataGo for moves.")
    await db.close()  # the pooled connection goes back while the line is checked and KataGo thinks
    if body.visits > MAX_BOT_VISITS:
        raise ServiceError("too_many_visits", f"A house bot's question is at most {MAX_BOT_VISITS} visits.", 422)
    if body.seconds > MAX_BOT_SECONDS:
        raise ServiceError("budget_too_long", f"A house bot's question is at most {MAX_BOT_SECONDS:g} seconds.", 422)
    line = [(m.color, None if m.point is None else (m.point[0], m.point[1])) for m in body.line]
    try:
        position = await request.app.state.study_workers.run(
            jobs.katago_position, body.setup.model_dump(), line, budget=REPLAY_BUDGET
        )
    except TreeError as exc:
        raise ServiceError(exc.code, exc.message, 422) from None
    if position is None:
        raise ServiceError("engine_unavailable", "KataGo cannot be told these rules (docs/rules.md).", 503)
    engines: EngineService = request.app.state.engines
    speed = engines.evals_per_second(body.setup.size)
    # The visits the measured speed does in the budget, with room for the queue (a policy step asks for one), less
    # the visits already queued ahead of it: with three searches at once, each planned for the whole budget, the
    # later ones overran theirs and their moves fell to the fallback (bench/bot_blitz.py).
    ahead = engines.backlog(body.setup.size)
    visits = body.visits if speed is None else max(1, min(body.visits, int(speed * body.seconds * SPEED_SHARE) - ahead))
    question = Question(position, visits, pv_length=1, policy=True)
    try:
        # A person waits for the bot's move: the priority of an estimate; never past the bot's own budget.
        answer = await asyncio.wait_for(engines.analyze(question, Priority.ESTIMATE), body.seconds)
    except TimeoutError:
        raise ServiceError("engine_timeout", f"KataGo gave no answer within {body.seconds:g} s.", 503) from None
    return {
        "to_move": answer.to_move,
        "visits": answer.visits,
        "winrate": answer.winrate,
        "score_lead": answer.score_lead,
        "policy": answer.policy,
        "candidates": [
            {"point": None if c.point is None else list(c.point), "visits": c.visits, "winrate": c.winrate}
            for c in answer.candidates
        ],
    }
