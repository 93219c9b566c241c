"""``/api/study``: what an analysis board asks the server (docs/study.md): positions (legality, captures),
score estimates, engine hints, a stored game as a tree, SGF import and export. And ``POST
/api/games/{id}/estimate`` (``games_router``): the score estimate of a stored game's position, for the game page.

The board's tree lives in the browser; every rule is applied here. The slow work runs in the study workers
(``app.study.workers``) or in an engine process (``app.study.hints``), never on the event loop. Nothing here
needs a session, nor stores one: a visitor without one (analysing a finished game it watched) is limited by
its client address instead of its user.
"""

from __future__ import annotations

from email.message import Message
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.api.deps import DB, OptionalUser
from app.api.login_limits import client_address
from app.errors import Forbidden, RateLimited, ServiceError
from app.field_limits import AtMost
from app.limits.rules import Limiter, Rule
from app.settings import Settings
from app.store.models import User
from app.store.repositories import games as games_repo
from app.study import jobs
from app.study.games import FINISHED, game_history, game_line
from app.study import judge
from app.study.hints import HintEngine
from app.study.schemas import MoveDoc, SetupDoc, TreeDoc
from app.study.tree import LIMITS, TreeError
from app.study.workers import StudyWorkers

router = APIRouter(prefix="/api/study", tags=["study"])
games_router = APIRouter(prefix="/api/games", tags=["study"])

POSITION_BUDGET = 10.0  # seconds: a line of a thousand moves takes milliseconds
HEAVY_BUDGET = 20.0  # seconds: estimates, imports, exports
GAME_ID_LENGTH = 16  # the longest game id the store holds


class LineBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    setup: SetupDoc = Field(default_factory=SetupDoc)
    # As long as a variation of the tree may be (tree_too_deep beyond, like the tree's own refusal).
    line: Annotated[list[MoveDoc], AtMost(LIMITS.depth, *LIMITS.refusal("depth"))] = Field(default_factory=list)

    def plain_line(self) -> jobs.Line:
        return [(m.color, None if m.point is None else (m.point[0], m.point[1])) for m in self.line]


class PositionBody(LineBody):
    """A line from a setup, or from the position a stored game has reached (``game_id``, its moves included: the
    line's ko and superko are judged against the whole game, as the game's own authority judges a move)."""

    game_id: str | None = Field(default=None, min_length=1, max_length=GAME_ID_LENGTH)

    @model_validator(mode="after")
    def _one_start(self) -> PositionBody:
        if self.game_id is not None and "setup" in self.model_fields_set:
            raise ValueError("a line starts from a setup or from a game, not both")
        return self


def _workers(request: Request) -> StudyWorkers:
    return request.app.state.study_workers


async def _limit(request: Request, rule: Rule, key: str | int, what: str) -> None:
    limiter: Limiter = request.app.state.limiter
    if not await limiter.allow(rule, key):
        raise RateLimited(f"Too many {what}; wait a moment.", int(rule.window))


async def _run(request: Request, fn: Any, *args: Any, budget: float) -> Any:
    try:
        return await _workers(request).run(fn, *args, budget=budget)
    except TreeError as exc:
        raise ServiceError(exc.code, exc.message, 422) from None


def _runner(request: Request, budget: float) -> Callable[..., Awaitable[Any]]:
    """``_run`` with its request and budget, for ``app.study.judge``."""

    async def run(fn: Any, *args: Any) -> Any:
        return await _run(request, fn, *args, budget=budget)

    return run


def _settings(request: Request) -> Settings:
    return request.app.state.settings


def _key(request: Request, user: User | None) -> str:
    """Who a limit counts: the user, or the client address of a visitor without a session."""
    return f"u{user.id}" if user is not None else f"a{client_address(request)}"


@router.post("/position", summary="The position after a line of moves, with the last move's captures")
async def position(request: Request, body: PositionBody, user: OptionalUser, db: DB) -> dict:
    settings = _settings(request)
    await _limit(request, Rule("study", settings.study_requests, 60), _key(request, user), "requests")
    if body.game_id is None:
        return await _run(request, jobs.position, body.setup.model_dump(), body.plain_line(), budget=POSITION_BUDGET)
    _, setup, history = await game_history(db, body.game_id)
    await db.close()  # the connection goes back to the pool while the worker replays the game
    setup_doc = SetupDoc.of(setup).model_dump()
    return await _run(request, jobs.position, setup_doc, body.plain_line(), history, budget=POSITION_BUDGET)


@router.post("/estimate", summary="Score estimate: dead stones, ownership of every point, the score")
async def estimate(request: Request, body: LineBody, user: OptionalUser) -> dict:
    await _limit(request, Rule("study-estimate", _settings(request).study_estimates, 60), _key(request, user), "estimates")
    run = _runner(request, HEAVY_BUDGET)
    return await judge.estimate_or_rules(request.app.state.engines, run, body.setup.model_dump(), body.plain_line())


class GameEstimateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: int | None = Field(default=None, ge=0)  # the position after this many of the game's moves; None: now


@games_router.post("/{game_id}/estimate", summary="Score estimate of a game's position (not for its players while it is played)")
async def game_estimate(request: Request, game_id: str, body: GameEstimateBody, user: OptionalUser, db: DB) -> dict:
    """The estimate of ``/api/study/estimate`` at a stored game's position, under the game's own setup, rules
    and komi, as the store has it (so the same on every instance); score lead and ownership only, never a win
    rate (the engine's view of a game in progress stays out of it). Refused to the game's players until it ends."""
    rule = Rule("game-estimate", _settings(request).game_estimates, 60)
    if not await request.app.state.limiter.allow(rule, _key(request, user)):
        raise RateLimited("Too many estimates of games; wait a moment.", int(rule.window), code="too_many_estimates")
    row, setup, history = await game_history(db, game_id)
    await db.close()  # the connection goes back to the pool while the estimate is made
    game = row.game
    if game.status != FINISHED and user is not None and user.id in (game.black_id, game.white_id):
        raise Forbidden("estimate_own_game", "Your own game's score is estimated once it has ended.")
    moves = len(history) if body.move is None else body.move
    if moves > len(history):
        raise ServiceError("bad_move_number", f"The game has {len(history)} moves; there is no position after move {moves}.", 422)
    run = _runner(request, HEAVY_BUDGET)
    answer = await judge.estimate_or_rules(request.app.state.engines, run, SetupDoc.of(setup).model_dump(), history[:moves])
    answer.pop("winrate", None)
    return {**answer, "move": moves}


@router.post("/hints", summary="The engine's top moves at a position (not while you play a game)")
async def hints(request: Request, body: LineBody, user: OptionalUser, db: DB) -> dict:
    if user is not None and await games_repo.list_for_user(db, user.id, finished=False, limit=1):
        raise ServiceError("hints_during_game", "Engine hints are not given while you have a game in progress.", 403)
    settings = _settings(request)
    rule = Rule("study-hints", settings.hints_per_window, settings.hint_window)
    await _limit(request, rule, _key(request, user), "hint requests")
    engine: HintEngine = request.app.state.hints
    # the line is checked by the rules first: the engine only ever sees legal positions
    setup, line = body.setup.model_dump(), body.plain_line()
    with_katago = await judge.hints(request.app.state.engines, _runner(request, HEAVY_BUDGET), setup, line)
    if with_katago is not None:
        return with_katago
    await _run(request, jobs.position, setup, line, budget=POSITION_BUDGET)
    return await engine.top_moves(body.setup.to_setup(), body.plain_line())


@router.get("/games/{game_id}", summary="A stored game as a tree (its moves as the main line)")
async def game(request: Request, game_id: str, db: DB, user: OptionalUser) -> dict:
    settings = _settings(request)
    await _limit(request, Rule("study", settings.study_requests, 60), _key(request, user), "requests")
    setup, info, line = await game_line(db, game_id, None if user is None else user.id)
    return await _run(request, jobs.line_to_doc, SetupDoc.of(setup).model_dump(), info, line, budget=HEAVY_BUDGET)


@router.post("/sgf", summary="Read an SGF record (the request body) into a tree")
async def import_sgf(request: Request, user: OptionalUser) -> dict:
    settings = _settings(request)
    await _limit(request, Rule("study", settings.study_requests, 60), _key(request, user), "requests")
    data = await request.body()
    if len(data) > settings.study_max_sgf_bytes:
        raise ServiceError("sgf_too_large", f"An SGF record may hold at most {settings.study_max_sgf_bytes} bytes.", 413)
    if not data.strip():
        raise ServiceError("bad_sgf", "The record is empty.", 422)
    return await _run(request, jobs.sgf_to_doc, _record(request, data), budget=HEAVY_BUDGET)


def _record(request: Request, data: bytes) -> bytes | str:
    """The body as a file's bytes, read in the character set the record's CA names (``read_game``); or, when the
    request declares a charset (pasted text, sent as ``...; charset=utf-8``), as text in that charset."""
    header = Message()
    header["content-type"] = request.headers.get("content-type", "")
    charset = header.get_content_charset()
    if charset is None:
        return data
    try:
        return data.decode(charset)
    except (LookupError, UnicodeDecodeError):
        raise ServiceError("bad_sgf", f"The record is not {charset} text.", 422) from None


@router.post("/export", summary="A tree as an SGF record", response_class=Response)
async def export_sgf(request: Request, body: TreeDoc, user: OptionalUser) -> Response:
    settings = _settings(request)
    await _limit(request, Rule("study", settings.study_requests, 60), _key(request, user), "requests")
    text = await _run(request, jobs.doc_to_sgf, body.model_dump(mode="json"), budget=HEAVY_BUDGET)
    return Response(
        text, media_type="application/x-go-sgf", headers={"Content-Disposition": 'attachment; filename="tengen-study.sgf"'}
    )
