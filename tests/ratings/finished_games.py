"""Registered players and finished games written straight to the store, for the rating service tests."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import update

from app.lobby.game_settings import build_config, game_columns
from app.store.models import Game, Move
from app.store.repositories import games, users

_n = itertools.count(1)
_t0 = datetime(2026, 1, 1, tzinfo=UTC)
# Two stones by each side: the fewest a rated game needs (docs/ratings.md, "Which games are rated").
TWO_STONES_EACH: tuple[tuple[str, tuple[int, int] | None], ...] = (("B", (2, 2)), ("W", (6, 6)), ("B", (2, 6)), ("W", (6, 2)))


async def player(sessionmaker: Any, strength: str | None = None, guest: bool = False) -> int:
    n = next(_n)
    async with sessionmaker() as session:
        if guest:
            user = await users.add_guest(session, f"Guest-{n:04x}", f"guest-{n:04x}")
        else:
            user = await users.add_registered(session, f"player{n}", f"player{n}", "x")
            user.strength = strength
        await session.commit()
        return user.id


async def finished_game(
    sessionmaker: Any,
    black: int,
    white: int,
    result: str,
    *,
    size: int = 19,
    handicap: int = 0,
    komi: float = 7.5,
    rated: bool = True,
    ended_by: str = "score",
    moves: Sequence[tuple[str, tuple[int, int] | None]] = TWO_STONES_EACH,
) -> str:
    """A finished game with these moves stored (colour and point, None for a pass)."""
    async with sessionmaker() as session:
        config = build_config(board_size=size, rules="chinese", komi=komi, handicap=handicap, time_control={"kind": "none"})
        game = await games.add(
            session,
            **game_columns(config),
            rules_params={"preset": "chinese"},
            rated=rated,
            black_id=black,
            white_id=white,
        )
        await session.execute(
            update(Game)
            .where(Game.id == game.id)
            .values(
                status="finished",
                result=result,
                ended_by=ended_by,
                ended_at=_t0 + timedelta(minutes=next(_n)),
                move_count=len(moves),
            )
        )
        for number, (color, point) in enumerate(moves, start=1):
            x, y = point if point is not None else (None, None)
            session.add(Move(game_id=game.id, number=number, color=color, x=x, y=y))
        await session.commit()
        return game.id
