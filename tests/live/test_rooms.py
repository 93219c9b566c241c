"""The RoomManager keeps nothing for game ids it was asked for once, real or made up."""

from __future__ import annotations

import asyncio

from app.live.memory_hub import MemoryHub
from app.live.rooms import RoomManager


async def test_unknown_ids_leave_nothing_behind(db_sessionmaker) -> None:  # type: ignore[no-untyped-def]
    hub = MemoryHub()
    await hub.start()
    rooms = RoomManager(hub, db_sessionmaker)
    try:
        ids = [f"made-up-{n}-" + "x" * 600 for n in range(300)]
        found = await asyncio.gather(*(rooms.open(game_id) for game_id in ids + ids[:50]))
        assert found == [None] * 350
        assert rooms.rooms == {} and rooms._opening == {}  # noqa: SLF001 - the structure that used to grow
    finally:
        await rooms.close()
        await hub.close()
