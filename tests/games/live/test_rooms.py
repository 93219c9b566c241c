"""The RoomManager keeps nothing for game ids it was asked for once, real or made up, and spreads its pings
over ticks and each tick over turns of the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.transport.room_deps import RoomDeps
from app.games.live.rooms import PING_EVERY_TICKS, TICK_CHUNK, RoomManager
from app.transport.connection import Connection
from app.transport.memory_hub import MemoryHub


@pytest.fixture
async def rooms(db_sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncIterator[RoomManager]:
    """A manager on an in-process hub, not started (the tests drive it); closed afterwards, without the stand-in
    rooms a test put in it."""
    hub = MemoryHub()
    await hub.start()
    manager = RoomManager(RoomDeps(hub, db_sessionmaker))
    try:
        yield manager
    finally:
        manager.rooms.clear()
        await manager.close()
        await hub.close()


def _spectator(sent: list[str]) -> Connection:
    """A started spectator's connection whose frames are appended to ``sent``."""

    async def send(text: str) -> None:
        sent.append(text)

    async def close(code: int, reason: str) -> None:
        return None

    conn = Connection(send, close, user_id=None, user_name=None, role=None)
    conn.start(_no_gaps)
    conn.push_start(None, 0)
    return conn


async def test_unknown_ids_leave_nothing_behind(rooms: RoomManager) -> None:
    ids = [f"made-up-{n}-" + "x" * 600 for n in range(300)]
    found = await asyncio.gather(*(rooms.open(game_id) for game_id in ids + ids[:50]))
    assert found == [None] * 350
    assert rooms.rooms == {} and rooms._opening == {}  # the structure that used to grow


class _Room:
    """What the clock tick reads of a room: its sockets and its clock (none: an untimed game)."""

    def __init__(self, conns: list[Connection]) -> None:
        self.connections = set(conns)

    def clock_tick(self) -> bytes | None:
        return None


async def test_each_room_is_pinged_once_per_round_and_never_all_rooms_in_one_tick(rooms: RoomManager) -> None:
    sent: dict[str, list[str]] = {}

    def socket(game_id: str) -> Connection:
        return _spectator(sent.setdefault(game_id, []))

    ids = [f"game{n}" for n in range(50)]
    for game_id in ids:
        rooms.rooms[game_id] = _Room([socket(game_id), socket(game_id)])  # type: ignore[assignment]  # a stand-in with only what the clock tick reads of a Room
    per_tick = []
    for tick in range(1, PING_EVERY_TICKS + 1):
        before = sum(len(texts) for texts in sent.values())
        await rooms._tick(tick)  # one tick of the clock loop, without waiting a second
        per_tick.append(sum(len(texts) for texts in sent.values()) - before)
    assert all(len(sent.get(game_id, [])) == 2 for game_id in ids)  # one ping to each socket per round
    assert all('"t":"ping"' in text for texts in sent.values() for text in texts)
    assert max(per_tick) < 100  # the pings are spread over the round's ticks


async def test_a_tick_lets_the_event_loop_run_between_chunks_of_sockets(rooms: RoomManager) -> None:
    sent: list[str] = []

    def socket() -> Connection:
        return _spectator(sent)

    seen_between: list[int] = []  # pings sent so far, each time another task ran during the tick

    async def other_work() -> None:
        while True:
            seen_between.append(len(sent))
            await asyncio.sleep(0)

    count = 3 * TICK_CHUNK + 7
    rooms.rooms["big"] = _Room([socket() for _ in range(count)])  # type: ignore[assignment]  # a stand-in
    other = asyncio.create_task(other_work())
    await asyncio.sleep(0)
    for tick in range(1, PING_EVERY_TICKS + 1):  # one of them is the big room's turn to be pinged
        await rooms._tick(tick)
    other.cancel()
    assert len(sent) == count  # every socket pinged
    # Other work ran after each chunk: a thousand spectators' pings do not hold the loop for one step.
    assert {n for n in seen_between if 0 < n < count} == {TICK_CHUNK, 2 * TICK_CHUNK, 3 * TICK_CHUNK}


async def _no_gaps(after: int, upto: int) -> list[tuple[int, str]]:
    raise AssertionError("no gap expected")
