"""``/api/games`` and ``/api/me/games``: games to watch, one game, my games, SGF download."""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import Response

from app.lobby.records import game_record
from app.records.sgf import export_sgf
from app.ai_review.sgf import annotate
from app.api.deps import DB, OptionalUser, Spectators
from app.games.visibility import author_of, chat_visible, public
from app.errors import NotFound
from app.lobby.views import game_detail, game_summary, player_ids
from app.ratings.lookup import display_ranks, rating_changes
from app.store.repositories import ai_reviews, games, moderation

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games/live", summary="Games in progress, to watch")
async def live(db: DB, spectators: Spectators, limit: int = Query(default=100, ge=1, le=500)) -> dict:
    rows = await games.list_live(db, limit)
    ranks = await display_ranks(db, player_ids(rows))
    return {"games": [game_summary(row, spectators, ranks) for row in rows]}


@router.get("/me/games/active", summary="My unfinished games, to rejoin")
async def my_active(db: DB, user: OptionalUser, spectators: Spectators) -> dict:
    if user is None:
        return {"games": []}
    rows = await games.list_for_user(db, user.id, finished=False)
    ranks = await display_ranks(db, player_ids(rows))
    return {"games": [game_summary(row, spectators, ranks) for row in rows]}


@router.get("/me/games/history", summary="My finished games")
async def my_history(db: DB, user: OptionalUser, limit: int = Query(default=100, ge=1, le=500)) -> dict:
    if user is None:
        return {"games": []}
    rows = await games.list_for_user(db, user.id, finished=True, limit=limit)
    ranks = await display_ranks(db, player_ids(rows))
    return {"games": [game_summary(row, ranks=ranks) for row in rows]}


@router.get("/games/{game_id}", summary="One game with its moves")
async def detail(game_id: str, db: DB, spectators: Spectators) -> dict:
    row = await games.get_with_players(db, game_id)
    if row is None:
        raise NotFound("game_not_found", "No such game.")
    ranks = await display_ranks(db, player_ids([row]))
    view = game_detail(row, await games.moves(db, game_id), spectators, ranks)
    view["rating_changes"] = await rating_changes(db, row)
    return view


@router.get("/games/{game_id}/chat", summary="Older chat of a game, a page at a time (newest first)")
async def chat(
    game_id: str,
    db: DB,
    user: OptionalUser,
    before: int | None = Query(default=None, ge=1, description="only lines with a version below this"),
    limit: int = Query(default=50, ge=1, le=100),
) -> dict:
    """What a snapshot leaves out: the lines this viewer may see, the same way the room shows them."""
    row = await games.get_with_players(db, game_id)
    if row is None:
        raise NotFound("game_not_found", "No such game.")
    seat = None if user is None else {row.game.black_id: "B", row.game.white_id: "W"}.get(user.id)
    finished = row.game.status == "finished"
    events = await games.chat_events(db, game_id, before, limit + 1)
    removed = await moderation.removed_chat(db, game_id)
    blocked = frozenset() if user is None else await moderation.avoided(db, user.id)  # docs/moderation.md
    lines = [
        public(event.payload, event.v)
        for event in events[:limit]
        if event.v not in removed and author_of(event.payload) not in blocked and chat_visible(event.payload, seat, finished)
    ]
    more = len(events) > limit
    return {"chat": lines[::-1], "more": more, "next_before": events[limit - 1].v if more else None}


@router.get("/games/{game_id}/sgf", summary="The game record as SGF", response_class=Response)
async def sgf(game_id: str, db: DB) -> Response:
    row = await games.get_with_players(db, game_id)
    if row is None:
        raise NotFound("game_not_found", "No such game.")
    record = game_record(row, await games.moves(db, game_id))
    if row.game.status == "finished":  # the engine's view of a game only once it has ended (docs/review.md)
        annotate(record, await ai_reviews.figures(db, game_id, len(record.moves) + 1))
    text = export_sgf(record)
    return Response(
        text,
        media_type="application/x-go-sgf",
        headers={"Content-Disposition": f'attachment; filename="tengen-{game_id}.sgf"'},
    )
