"""``/api/tournaments``: the list, making one, an event's page (settings, entrants, rounds with the why of each
board and bye, standings, crosstable, games to watch; for its directors the overdue games and the audit log),
registering, withdrawing, checking in, the directors' actions, the SGF archive and the EGD (h9) export. docs/tournaments.md."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse, Response

from app.api.deps import DB, OptionalUser, RequiredUser
from app.errors import NotFound
from app.store.repositories import tournaments as repo
from app.tournaments import archive
from app.tournaments.schemas import AddCoDirector, CreateTournament, DirectorReason, Repair, SetResult, Withdraw
from app.tournaments.service import TournamentService

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


def _service(request: Request) -> TournamentService:
    return request.app.state.tournaments


@router.get("", summary="Tournaments, the latest first")
async def listing(
    request: Request,
    status: Literal["registration", "running", "paused", "finished"] | None = None,
    limit: int = Query(default=50, ge=1, le=200),
) -> dict:
    return await _service(request).listing(status, limit)


@router.post("", status_code=201, summary="Make a tournament (you direct it)")
async def create(body: CreateTournament, request: Request, user: RequiredUser) -> dict:
    return await _service(request).create(user, body)


@router.get("/{tournament_id}", summary="A tournament: settings, entrants, rounds, standings, crosstable, games")
async def detail(tournament_id: str, request: Request, user: OptionalUser) -> dict:
    return await _service(request).view(tournament_id, user)


@router.get("/{tournament_id}/rounds/{number}/replay", summary="Pair a round again from its recorded input")
async def replay(tournament_id: str, number: int, request: Request) -> dict:
    return await _service(request).replay(tournament_id, number)


@router.post("/{tournament_id}/register", summary="Register (rank limits, the cap, late registration)")
async def register(tournament_id: str, request: Request, user: RequiredUser) -> dict:
    return await _service(request).register(user, tournament_id)


@router.post("/{tournament_id}/withdraw", summary="Leave: finish the games you name, resign the others")
async def withdraw(tournament_id: str, body: Withdraw, request: Request, user: RequiredUser) -> dict:
    return await _service(request).withdraw(user, tournament_id, body)


@router.post("/{tournament_id}/check-in", summary="Check in for the next round (in its window)")
async def check_in(tournament_id: str, request: Request, user: RequiredUser) -> dict:
    return await _service(request).check_in(user, tournament_id)


@router.post("/{tournament_id}/pause", summary="Director: pause the schedule")
async def pause(tournament_id: str, body: DirectorReason, request: Request, user: RequiredUser) -> dict:
    return await _service(request).pause(user, tournament_id, body.reason)


@router.post("/{tournament_id}/resume", summary="Director: resume (rounds not started move later)")
async def resume(tournament_id: str, body: DirectorReason, request: Request, user: RequiredUser) -> dict:
    return await _service(request).resume(user, tournament_id, body.reason)


@router.post("/{tournament_id}/rounds/{number}/repair", summary="Director: pair a round again before it starts")
async def repair(tournament_id: str, number: int, body: Repair, request: Request, user: RequiredUser) -> dict:
    return await _service(request).repair(user, tournament_id, number, body)


@router.post("/{tournament_id}/pairings/{pairing_id}/result", summary="Director: set a board's result")
async def set_result(tournament_id: str, pairing_id: int, body: SetResult, request: Request, user: RequiredUser) -> dict:
    return await _service(request).set_result(user, tournament_id, pairing_id, body)


@router.post("/{tournament_id}/players/{name}/disqualify", summary="Director: disqualify a player")
async def disqualify(tournament_id: str, name: str, body: DirectorReason, request: Request, user: RequiredUser) -> dict:
    return await _service(request).disqualify(user, tournament_id, name, body.reason)


@router.post("/{tournament_id}/directors", summary="Director: add a co-director")
async def add_co_director(tournament_id: str, body: AddCoDirector, request: Request, user: RequiredUser) -> dict:
    return await _service(request).add_co_director(user, tournament_id, body.name)


@router.get(
    "/{tournament_id}/h9", summary="The finished rounds for the European Go Database (h9)", response_class=PlainTextResponse
)
async def h9(
    tournament_id: str,
    request: Request,
    country: str = Query(default="XX", pattern="^[A-Za-z]{2}$", description="Where it was held (two letters)"),
    city: str = Query(default="Online", min_length=1, max_length=40),
) -> PlainTextResponse:
    name, text = await _service(request).h9(tournament_id, country, city)
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/{tournament_id}/sgf", summary="Every game of the tournament as SGF, in one zip", response_class=Response)
async def sgf_archive(tournament_id: str, db: DB) -> Response:
    if await repo.get(db, tournament_id) is None:
        raise NotFound("tournament_not_found", "No such tournament.")
    data = await archive.sgf_zip(db, tournament_id)
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="tengen-tournament-{tournament_id}.zip"'},
    )
