"""``/api/players/{name}``, its rating history and handicap, ``/api/leaderboard`` and ``/api/archive``."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone

from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse

from app.api.deps import DB, OptionalUser
from app.bots.service import is_sparring_partner, sparring_offer
from app.errors import ServiceError
from app.lobby.views import game_summary, player_ids
from app.moderation.fair_play import escape_share
from app.ratings import handicap, players
from app.ratings.lookup import display_ranks, rank_numbers
from app.store.repositories import archive

router = APIRouter(prefix="/api", tags=["players"])
# ``/players/<name>``, the address people share, opens the player's page in the client.
pages = APIRouter(include_in_schema=False)

CATEGORY = Query(default="overall", pattern="^(overall|9|13|19)$")


@router.get("/players/{name}", summary="A player: rating, deviation, volatility, rank per category; record; recent games")
async def player(name: str, request: Request, db: DB, viewer: OptionalUser) -> dict:
    user = await players.find(db, name)
    view = await players.profile(db, user, viewer)
    rule = request.app.state.fair_play
    view["escapes"] = (await escape_share(db, user.id, rule)).view(rule)  # docs/moderation.md, "Escaping"
    return view


@router.get("/players/{name}/history", summary="A player's rating after each rated game, oldest first")
async def history(name: str, db: DB, category: str = CATEGORY, limit: int = Query(default=500, ge=1, le=2000)) -> dict:
    return await players.history(db, await players.find(db, name), category, limit)


@router.get("/players/{name}/handicap", summary="The handicap and komi the ranks suggest for you against this player")
async def suggested_handicap(name: str, db: DB, me: OptionalUser, size: int = Query(default=19, ge=2, le=25)) -> dict:
    other = await players.find(db, name)
    if me is not None and me.id != other.id and is_sparring_partner(other):
        return await sparring_offer(db, other, me, size)  # its own offer: its reach, and its results against you
    numbers = await rank_numbers(db, [other.id] if me is None else [me.id, other.id])
    mine, theirs = None if me is None else numbers.get(me.id), numbers.get(other.id)
    if mine is None or theirs is None:
        raise ServiceError("account_required", "Both players need an account to have ranks.", 403)
    s = handicap.suggest(mine - theirs, size)
    you_black = mine < theirs if s.weaker_is_black else None
    return {"handicap": s.handicap, "komi": s.komi, "you_play_black": you_black}


@router.get("/leaderboard", summary="Registered players by rating in one category, strongest first")
async def leaderboard(
    db: DB,
    category: str = CATEGORY,
    page: int = Query(default=1, ge=1, le=10000),
    per_page: int = Query(default=50, ge=1, le=100),
) -> dict:
    return await players.leaderboard(db, category, page, per_page)


def _day_start(day: date | None, plus: int = 0) -> datetime | None:
    return None if day is None else datetime.combine(day, time(), tzinfo=timezone.utc) + timedelta(days=plus)


@router.get("/archive", summary="Finished games, newest first: by player, board size, result and date, paged")
async def search_archive(
    db: DB,
    player: str | None = Query(default=None, max_length=40),
    size: int | None = Query(default=None, ge=2, le=25),
    result: str | None = Query(default=None, pattern="^(B|W|draw|void|win|loss)$"),
    since: date | None = None,
    until: date | None = None,
    page: int = Query(default=1, ge=1, le=10000),
    per_page: int = Query(default=20, ge=1, le=100),
) -> dict:
    player_id = None
    if player:
        player_id = (await players.find(db, player)).id
    elif result in ("win", "loss"):
        raise ServiceError("player_required", "'win' and 'loss' need a player.")
    rows, total = await archive.search(
        db,
        player_id=player_id,
        size=size,
        result=result,
        since=_day_start(since),
        until=_day_start(until, 1),
        offset=(page - 1) * per_page,
        limit=per_page,
    )
    shown = await display_ranks(db, player_ids(rows))
    return {
        "games": [game_summary(row, ranks=shown) for row in rows],
        "page": page,
        "per_page": per_page,
        "total": total,
    }


@pages.get("/players/{name}")
async def player_page(name: str, db: DB) -> RedirectResponse:
    """The client's page of a player who exists; 404 ``player_not_found`` for a name nobody has."""
    user = await players.find(db, name)
    return RedirectResponse(f"/#/players/{quote(user.name, safe='')}", status_code=302)
