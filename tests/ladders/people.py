"""Players and ladder settings for the ladder tests, on a real server."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update

from app.store.db import create_engine, create_sessionmaker
from app.store.models import Ladder
from tests.ratings.rated_play import registered
from tests.support.players import Player

__all__ = ["registered", "set_ladder", "on_ladder", "view"]

LADDER = "9x9-live"


async def set_ladder(database_url: str, ladder_id: str = LADDER, **values: Any) -> None:
    """Change a ladder's rules or game settings in its row, as an operator would."""
    engine = create_engine(database_url)
    try:
        async with create_sessionmaker(engine)() as session:
            await session.execute(update(Ladder).where(Ladder.id == ladder_id).values(**values))
            await session.commit()
    finally:
        await engine.dispose()


async def on_ladder(base_url: str, count: int, ladder_id: str = LADDER) -> list[Player]:
    """``count`` new accounts who join the ladder in turn: the first is at the top."""
    people = []
    for n in range(count):
        person = await registered(base_url, prefix="lad")
        joined = await person.http.post(f"/api/ladders/{ladder_id}/join")
        assert joined.status_code == 201, joined.text
        assert joined.json() == {"position": n + 1}
        people.append(person)
    return people


async def view(person: Player, ladder_id: str = LADDER) -> dict[str, Any]:
    response = await person.http.get(f"/api/ladders/{ladder_id}")
    assert response.status_code == 200, response.text
    return response.json()


def names(ladder: dict[str, Any]) -> list[str]:
    return [rung["player"]["name"] for rung in ladder["rungs"]]
