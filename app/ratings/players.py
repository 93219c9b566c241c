"""What a player page shows: figures in every category, rating history, record, recent games, head-to-head."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import NotFound
from app.lobby.speeds import speed
from app.lobby.views import game_summary, player_ids
from app.ratings import ranks
from app.ratings.lookup import display_ranks, player_figures, start_of
from app.ratings.rate import black_score
from app.store.models import User
from app.store.repositories import archive
from app.store.repositories import ratings as repo
from app.store.repositories import users

RECENT_GAMES = 10
HEAD_TO_HEAD_GAMES = 10
RECORD_GAMES = 5000  # the record counts a player's last 5000 finished games


async def find(session: AsyncSession, name: str) -> User:
    from app.accounts.service import name_key

    user = await users.get_by_name_key(session, name_key(name.strip()))
    if user is None:
        raise NotFound("player_not_found", "No such player.")
    return user


def _tally(counter: Counter[str]) -> dict[str, int]:
    return {"wins": counter["win"], "losses": counter["loss"], "draws": counter["draw"]}


def _outcome(result: str | None, was_black: bool) -> str | None:
    score = black_score(result)
    if score is None:
        return None
    mine = score if was_black else 1.0 - score
    return "win" if mine == 1.0 else "loss" if mine == 0.0 else "draw"


async def record(session: AsyncSession, user_id: int) -> dict[str, Any]:
    total: Counter[str] = Counter()
    by_size: dict[str, Counter[str]] = {}
    by_speed: dict[str, Counter[str]] = {}
    for size, tc, result, was_black in await archive.outcomes(session, user_id, RECORD_GAMES):
        outcome = _outcome(result, was_black)
        if outcome is None:
            continue
        total[outcome] += 1
        by_size.setdefault(str(size) if size in (9, 13, 19) else "other", Counter())[outcome] += 1
        by_speed.setdefault(speed(tc), Counter())[outcome] += 1
    return {
        "total": _tally(total),
        "by_size": {k: _tally(v) for k, v in sorted(by_size.items())},
        "by_speed": {k: _tally(v) for k, v in sorted(by_speed.items())},
    }


async def _summaries(session: AsyncSession, rows: list[Any], user_id: int) -> list[dict[str, Any]]:
    shown = await display_ranks(session, player_ids(rows))
    changes = {(c.game_id, c.user_id): c for c in await repo.changes_for_games(session, [r.game.id for r in rows])}
    out = []
    for row in rows:
        view = game_summary(row, ranks=shown)
        change = changes.get((row.game.id, user_id))
        view["rating_change"] = (
            None
            if change is None
            else {
                "before": round(change.rating_before, 2),
                "after": round(change.rating_after, 2),
            }
        )
        out.append(view)
    return out


async def profile(session: AsyncSession, user: User, viewer: User | None) -> dict[str, Any]:
    shown = await display_ranks(session, [user.id])
    recent, _ = await archive.search(session, player_id=user.id, limit=RECENT_GAMES)
    view: dict[str, Any] = {
        "player": {
            "id": user.id,
            "name": user.name,
            "guest": user.is_guest,
            "bot": bool(user.is_bot),
            "rank": shown.get(user.id),
            "strength": user.strength,
            "registered_at": user.registered_at.isoformat() if user.registered_at else None,
        },
        "ratings": None if user.is_guest else await player_figures(session, user),
        "record": await record(session, user.id),
        "recent": await _summaries(session, recent, user.id),
        "head_to_head": None,
    }
    if viewer is not None and viewer.id != user.id:
        # From the viewer's side: their wins, losses and draws against this player.
        games, total = await archive.search(session, player_id=viewer.id, opponent_id=user.id, limit=HEAD_TO_HEAD_GAMES)
        tally: Counter[str] = Counter()
        for outcome in ("win", "loss", "draw"):
            _, tally[outcome] = await archive.search(session, player_id=viewer.id, opponent_id=user.id, result=outcome, limit=0)
        view["head_to_head"] = {
            "opponent": {"id": viewer.id, "name": viewer.name},
            "games_total": total,
            **_tally(tally),
            "games": await _summaries(session, games, viewer.id),
        }
    return view


async def history(session: AsyncSession, user: User, category: str, limit: int) -> dict[str, Any]:
    start = start_of(user.strength)
    changes = await repo.history(session, user.id, category, limit)
    names = await users.names(session, {c.opponent_id for c in changes})
    return {
        "category": category,
        "start": {"rating": round(start.rating, 2), "deviation": start.deviation, "rank": ranks.rank_label(start.rating)},
        "points": [
            {
                "game_id": c.game_id,
                "at": c.at.isoformat(),
                "rating": round(c.rating_after, 2),
                "deviation": round(c.deviation_after, 2),
                "rank": ranks.rank_label(c.rating_after),
                "change": round(c.rating_after - c.rating_before, 2),
                "score": c.score,
                "opponent": {"id": c.opponent_id, "name": names.get(c.opponent_id, "?")},
            }
            for c in changes
        ],
    }


async def leaderboard(session: AsyncSession, category: str, page: int, per_page: int) -> dict[str, Any]:
    offset = (page - 1) * per_page
    rows = await repo.leaderboard(session, category, offset, per_page)
    return {
        "category": category,
        "page": page,
        "per_page": per_page,
        "total": await repo.count_leaderboard(session, category),
        "players": [
            {
                "position": offset + n + 1,
                "id": user.id,
                "name": user.name,
                "bot": bool(user.is_bot),
                "rating": round(r.rating, 2),
                "deviation": round(r.deviation, 2),
                "rank": ranks.rank_label(r.rating),
                "provisional": ranks.is_provisional(r.deviation),
                "display": ranks.display(r.rating, r.deviation),
                "games": r.games,
            }
            for n, (r, user) in enumerate(rows)
        ],
    }
