"""A game's configuration: built once by the game's rules, stored whole, and read back exactly by the room."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.transport.room_deps import RoomDeps
from app.games.config import GameConfig
from app.games.live.room import Room
from app.lobby.game_settings import InvalidGameSettings, build_config, game_columns
from app.store.models import Game
from app.store.repositories import games
from app.transport.memory_hub import MemoryHub
from tests.conftest import MakeClient


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"board_size": 8, "handicap": 5}, "at most 4 handicap stones"),
        ({"board_size": 7, "handicap": 9}, "at most 4 handicap stones"),
        ({"board_size": 5, "handicap": 2}, "takes no handicap stones"),
        ({"handicap": 1}, "'handicap' must be 0"),
        (
            {"time_control": {"kind": "byoyomi", "main": 1, "periods": 1, "period_time": 1, "preset": "x"}},
            "does not take 'preset'",
        ),
        ({"rules": "klingon"}, "unknown rules preset"),
    ],
)
def test_what_the_game_cannot_play_is_refused_with_its_reason(settings: dict, says: str) -> None:
    args = {"board_size": 19, "rules": "chinese", "komi": None, "handicap": 0, "time_control": None, **settings}
    with pytest.raises(InvalidGameSettings) as refused:
        build_config(**args)
    assert says in refused.value.message and refused.value.status == 422


def test_the_columns_repeat_the_whole_configuration() -> None:
    config = build_config(board_size=13, rules="japanese", komi=None, handicap=3, time_control="chinese_countdown")
    columns = game_columns(config)
    assert columns["komi"] == 0.5 and columns["handicap"] == 3 and columns["rules"] == "japanese"
    assert columns["time_control"] == {"kind": "chinese_countdown", "main": 1800, "periods": 3, "period_time": 60}
    stored = columns["config"]
    assert {"lag", "scoring_timeout", "abandon_grace", "handicap_points"} <= set(stored)
    assert GameConfig.from_dict(stored) == config


async def test_an_accepted_challenge_stores_the_whole_configuration(
    make_client: MakeClient, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    alice, bob = make_client(), make_client()
    created = await alice.post(
        "/api/challenges", json={"board_size": 13, "handicap": 2, "rules": "aga", "time_control": "chinese_countdown"}
    )
    assert created.status_code == 201, created.text
    accepted = await bob.post(f"/api/challenges/{created.json()['id']}/accept")
    assert accepted.status_code == 201, accepted.text
    async with db_sessionmaker() as session:
        game = await games.get(session, accepted.json()["game_id"])
    assert game is not None
    expected = build_config(board_size=13, rules="aga", komi=None, handicap=2, time_control="chinese_countdown")
    assert game.config == expected.to_dict()


async def test_a_practice_game_stores_the_whole_configuration(
    client: httpx.AsyncClient, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    created = await client.post("/api/practice", json={"size": 13})
    assert created.status_code == 201, created.text
    async with db_sessionmaker() as session:
        game = await games.get(session, created.json()["game_id"])
    assert game is not None and GameConfig.from_dict(game.config).size == 13


async def test_the_room_plays_exactly_the_stored_configuration(
    make_client: MakeClient, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """Lag, scoring timeout and abandonment grace come from the game's row, never from today's defaults."""
    alice, bob = make_client(), make_client()
    created = await alice.post("/api/challenges", json={"board_size": 9, "time_control": {"kind": "absolute", "main": 60}})
    game_id = (await bob.post(f"/api/challenges/{created.json()['id']}/accept")).json()["game_id"]
    async with db_sessionmaker() as session:
        game = await games.get(session, game_id)
        assert game is not None
        old = dict(game.config)
        old.update(
            scoring_timeout=12.0,
            abandon_grace=3.0,
            lag={"initial": 1.0, "cap": 4.0, "refill_fraction": 0.5, "refill_max": 0.1, "max_estimate": 2.0},
        )
        old["rules"] = {**old["rules"], "komi": 3.5}
        await session.execute(update(Game).where(Game.id == game_id).values(config=old))
        await session.commit()
    hub = MemoryHub()
    await hub.start()
    room = Room(game_id, RoomDeps(hub, db_sessionmaker))
    try:
        assert await room.load()
        assert room.authority is not None and room.authority.config == GameConfig.from_dict(old)
    finally:
        await room.close()
        await hub.close()
