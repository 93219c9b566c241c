"""Flags fall on time: a tick that finds nothing due arms the real deadline again, and on two instances
sharing Redis every flag of 50 games falls within a second of its deadline."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.transport.room_deps import RoomDeps
from app.games.live.channel import deadline_key
from app.games.live.rooms import RoomManager
from app.store.repositories import users
from app.transport.memory_hub import MemoryHub
from tests.support.room_fixtures import MakePlayer, Servers, make_player, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import Player
from tests.support.stored_games import nine_by_nine

GAMES = 50
MAIN_SECONDS = 20  # the clock runs from the game's creation: room for setting 50 games up on a busy machine


async def test_a_tick_with_nothing_due_arms_the_real_deadline_again(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    async with db_sessionmaker() as session:
        black = await users.add_guest(session, "Guest-d1", "guest-d1")
        white = await users.add_guest(session, "Guest-d2", "guest-d2")
        game = await nine_by_nine(session, black.id, white.id, time_control={"kind": "absolute", "main": 600})
        await session.commit()
    hub = MemoryHub()
    await hub.start()
    rooms = RoomManager(RoomDeps(hub, db_sessionmaker))
    try:
        room = await rooms.open(game.id)
        assert room is not None and room.authority is not None
        real = room.authority.deadline()
        assert real is not None and await hub.get_deadline(deadline_key(game.id)) == real
        # A deadline that comes too early (e.g. set from an older state): claimed, settled, nothing due.
        await hub.set_deadline(deadline_key(game.id), time.time() - 1)
        await rooms.start()
        for _ in range(100):
            await asyncio.sleep(0.05)
            if await hub.get_deadline(deadline_key(game.id)) == real:
                break
        assert await hub.get_deadline(deadline_key(game.id)) == real  # not left a lease (30 s) ahead
    finally:
        await rooms.close()
        await hub.close()


async def _one_game(black: Player, white: Player, on_a: str, on_b: str, starting: asyncio.Semaphore) -> float:
    """Black moves on instance A, white on instance B, then black lets the clock run: how late the flag fell."""
    body = {"board_size": 9, "color": "black", "time_control": {"kind": "absolute", "main": MAIN_SECONDS}}
    async with starting:  # games are created a few at a time; they then run side by side
        created = await black.http.post(on_a + "/api/challenges", json=body, timeout=30.0)
        assert created.status_code == 201, created.text
        accepted = await white.http.post(on_b + f"/api/challenges/{created.json()['id']}/accept", timeout=30.0)
        assert accepted.status_code == 201, accepted.text
    game_id = accepted.json()["game_id"]
    b = await black.socket(game_id, base_url=on_a)
    w = await white.socket(game_id, base_url=on_b)
    try:
        await b.of_type("snapshot")
        await w.of_type("snapshot")
        assert (await b.act({"t": "play", "p": [2, 2]}))["t"] == "ack"
        await w.of_type("move")
        assert (await w.act({"t": "play", "p": [6, 6]}))["t"] == "ack"
        watcher = await white.socket(game_id, base_url=on_b)  # where white's move was committed
        deadline = (await watcher.of_type("snapshot"))["game"]["deadline"]
        assert deadline is not None
        await watcher.close()
        over = await b.until(lambda m: m.get("t") == "game_over", timeout=60.0)
        assert over["result"]["reason"] == "timeout" and over["result"]["winner"] == "W"
        return float(over["server_time"]) - float(deadline)
    finally:
        await b.close()
        await w.close()


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_fifty_flags_fall_on_time_across_two_instances(servers: Servers, make_player: MakePlayer) -> None:
    a, b = servers.start(), servers.start()
    pairs = [(await make_player(a.url), await make_player(a.url)) for _ in range(GAMES)]
    starting = asyncio.Semaphore(5)
    late = await asyncio.gather(*(_one_game(black, white, a.url, b.url, starting) for black, white in pairs))
    assert all(0 <= d <= 1.0 for d in late), (sorted(late)[:3], sorted(late)[-3:])
