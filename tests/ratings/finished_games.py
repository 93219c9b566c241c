"""Registered players and finished games written straight to the store, for the rating service tests."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import update

from app.lobby.game_settings import build_config, game_columns
from app.store.models import Game
from app.store.repositories import games, users

_n = itertools.count(1)
_t0 = datetime(2026, 1, 1, tzinfo=UTC)


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
) -> str:
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
                move_count=120,
            )
        )
        await session.commit()
        return game.id
