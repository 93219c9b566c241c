"""Ranks and figures as the API shows them, read from the store.

A registered player who has not played a rated game yet has the starting figures of the strength they gave
(provisional); guests have no rank.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.ratings import ranks
from app.ratings.rate import CATEGORIES
from app.store.models import User
from app.store.repositories import ratings as repo
from app.store.repositories.games import GameWithPlayers


def start_of(strength: str | None) -> ranks.Start:
    try:
        return ranks.starting_rating(strength)
    except ValueError:
        return ranks.starting_rating(None)


def figures_view(rating: float, deviation: float, volatility: float, games: int) -> dict[str, Any]:
    return {
        "rating": round(rating, 2),
        "deviation": round(deviation, 2),
        "volatility": round(volatility, 6),
        "rank": ranks.rank_label(rating),
        "provisional": ranks.is_provisional(deviation),
        "display": ranks.display(rating, deviation),
        "games": games,
    }


async def display_ranks(session: AsyncSession, user_ids: Iterable[int]) -> dict[int, str | None]:
    """``{user_id: "6k"}`` (``"6k?"`` while provisional, None for guests) for showing beside names."""
    out: dict[int, str | None] = {}
    for uid, guest, strength, rating, deviation in await repo.rank_inputs(session, set(user_ids)):
        if guest:
            out[uid] = None
        elif rating is None or deviation is None:
            start = start_of(strength)
            out[uid] = ranks.display(start.rating, start.deviation)
        else:
            out[uid] = ranks.display(rating, deviation)
    return out


async def player_figures(session: AsyncSession, user: User) -> dict[str, dict[str, Any]]:
    """Every category's figures (the starting ones where no rated game was played yet)."""
    rows = {r.category: r for r in await repo.of_user(session, user.id)}
    start = start_of(user.strength)
    out = {}
    for category in CATEGORIES:
        r = rows.get(category)
        out[category] = (
            figures_view(r.rating, r.deviation, r.volatility, r.games)
            if r is not None
            else figures_view(start.rating, start.deviation, start.volatility, 0)
        )
    return out


async def rank_numbers(session: AsyncSession, user_ids: Iterable[int]) -> dict[int, float | None]:
    """``{user_id: rank number}`` from the overall rating (the starting one before any rated game); None for guests."""
    out: dict[int, float | None] = {}
    for uid, guest, strength, rating, _deviation in await repo.rank_inputs(session, set(user_ids)):
        if guest:
            out[uid] = None
        else:
            out[uid] = ranks.rank_number(rating if rating is not None else start_of(strength).rating)
    return out


async def rating_changes(session: AsyncSession, row: GameWithPlayers) -> dict[str, dict[str, float]] | None:
    """``{"B": {"before", "after"}, "W": ...}``: what a rated game did to each overall rating; None until it is
    rated (or when it is not)."""
    changes = await repo.changes_for_games(session, [row.game.id])
    seats = {row.game.black_id: "B", row.game.white_id: "W"}
    out = {
        seats[c.user_id]: {"before": round(c.rating_before, 2), "after": round(c.rating_after, 2)}
        for c in changes
        if c.user_id in seats
    }
    return out or None
