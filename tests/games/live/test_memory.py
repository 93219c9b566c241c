"""Memory that comes back: after games opened and finished and unknown game ids asked for, an instance holds
(within 10 %) what it held before. The games run on the room manager of one instance (the in-process hub,
SQLite), the path every socket takes, without HTTP around it. Each game costs two commits, so by default the
test plays two rounds of 100 games and 1,000 unknown 6000-character ids each, and projects what the second
round left allocated to 10,000 of each; TENGEN_MEMORY_GAMES / TENGEN_MEMORY_UNKNOWN raise the counts (10,000 each measures it
directly: many minutes on SQLite).
"""

from __future__ import annotations

import asyncio
import gc
import os
import resource
import tracemalloc

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.transport.room_deps import RoomDeps
from app.games.live.rooms import IDLE_ROOM_SECONDS, RoomManager
from app.store.repositories import users
from app.transport.connection import Connection
from app.transport.memory_hub import MemoryHub
from tests.support.fake_clock import FakeClock
from tests.support.stored_games import nine_by_nine

GAMES = int(os.environ.get("TENGEN_MEMORY_GAMES", "100"))  # per round
UNKNOWN = int(os.environ.get("TENGEN_MEMORY_UNKNOWN", "1000"))  # per round
TARGET = 10_000  # games, and unknown ids, the measure is about
WARM_UP = 50
BATCH = 100


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


async def _noop_send(_text: str) -> None:
    return None


async def _noop_close(_code: int, _reason: str) -> None:
    return None


async def _play_and_finish(
    rooms: RoomManager, clock: FakeClock, sessionmaker: async_sessionmaker[AsyncSession], black_id: int, white_id: int, count: int
) -> None:
    for start in range(0, count, BATCH):
        async with sessionmaker() as session:
            ids = []
            for _ in range(min(BATCH, count - start)):
                game = await nine_by_nine(session, black_id, white_id)
                ids.append(game.id)
            await session.commit()

        async def one(game_id: str) -> None:
            room = await rooms.open(game_id)
            assert room is not None
            black = Connection(_noop_send, _noop_close, user_id=black_id, user_name="b", role="B")
            assert (await room.act(black, "p1", {"t": "play", "p": [4, 4]})).ok
            assert (await room.act(black, "r1", {"t": "resign"})).ok

        await asyncio.gather(*(one(game_id) for game_id in ids))
        await _close_idle(rooms, clock)  # as on a server, where finished rooms close once idle


async def _close_idle(rooms: RoomManager, clock: FakeClock) -> None:
    """Move the clock past the idle time and let the manager's own tick close the rooms nobody watches."""
    for _ in range(100):
        clock.advance(IDLE_ROOM_SECONDS + 1)
        await asyncio.sleep(0.1)
        if not rooms.rooms:
            return


async def _ask_unknown(rooms: RoomManager, first: int, count: int) -> None:
    """Open ``count`` made-up 6000-character game ids, ``BATCH`` at a time (within what the database pool
    serves before its timeout on a busy machine)."""
    for start in range(first, first + count, BATCH):
        made_up = [f"no-such-game-{n}-" + "x" * 6000 for n in range(start, min(start + BATCH, first + count))]
        found = await asyncio.gather(*(rooms.open(game_id) for game_id in made_up))
        assert found == [None] * len(made_up)


async def _quiet(rooms: RoomManager, clock: FakeClock) -> None:
    """Let every room fall idle and close (the manager's own tick), then collect."""
    await _close_idle(rooms, clock)
    assert rooms.rooms == {}
    for _ in range(3):
        gc.collect()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_memory_comes_back_after_games_and_unknown_ids(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    clock = FakeClock(1_800_000_000.0)
    hub = MemoryHub()
    await hub.start()
    rooms = RoomManager(RoomDeps(hub, db_sessionmaker, clock))
    await rooms.start()
    async with db_sessionmaker() as session:
        black = await users.add_guest(session, "Guest-m1", "guest-m1")
        white = await users.add_guest(session, "Guest-m2", "guest-m2")
        await session.commit()
        black_id, white_id = black.id, white.id
    try:
        # Warm up every path measured (caches, pools, first-use allocations), so that what remains is growth.
        await _play_and_finish(rooms, clock, db_sessionmaker, black_id, white_id, WARM_UP)
        await _ask_unknown(rooms, 0, WARM_UP * 10)
        await _quiet(rooms, clock)
        held = _resident_bytes()  # where the instance's memory starts
        tracemalloc.start()
        try:
            measured = [tracemalloc.get_traced_memory()[0]]
            for round_ in range(2):
                await _play_and_finish(rooms, clock, db_sessionmaker, black_id, white_id, GAMES)
                await _ask_unknown(rooms, (round_ + 1) * 100_000, UNKNOWN)
                await _quiet(rooms, clock)
                measured.append(tracemalloc.get_traced_memory()[0])
        finally:
            tracemalloc.stop()
        # The first round may still fill bounded structures (dict tables, pools); it stays within 10 % of what
        # the instance held. The second adds what every further game and id would: projected to 10,000 of
        # each, still within 10 %.
        first, second = measured[1] - measured[0], measured[2] - measured[1]
        print(
            f"memory: games={GAMES} unknown={UNKNOWN} per round; held={held / 2**20:.1f} MiB "
            f"first_round={first / 2**20:+.2f} MiB ({100 * first / held:+.1f} %) "
            f"second_round={second / 2**20:+.2f} MiB ({100 * second / held:+.1f} %) "
            f"both_rounds={(first + second) / 2**20:+.2f} MiB ({100 * (first + second) / held:+.1f} %)"
        )
        assert first <= 0.10 * held, (measured, held)
        projected = max(second, 0) * TARGET / min(GAMES, UNKNOWN)
        assert projected <= 0.10 * held, (measured, projected, held)
        assert not rooms._opening and not hub._logs and not hub._deadline_versions
    finally:
        await rooms.close()
        await hub.close()
