"""The review rooms of one instance: a change committed without reaching the hub (its instance died between
the commit and the publish) is caught by the sweep, which resyncs the sockets here; idle rooms close."""

from __future__ import annotations

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.transport.room_deps import RoomDeps
from app.reviews.limits import ReviewLimits
from app.reviews.live.rooms import IDLE_ROOM_SECONDS, ReviewRooms
from app.store.models import Review
from app.store.repositories import reviews, users
from app.study.workers import StudyWorkers
from app.transport.connection import Connection
from app.transport.memory_hub import MemoryHub

TREE = {
    "format": 1,
    "setup": {"size": 9},
    "info": {},
    "nodes": [{"id": 0}, {"id": 1, "parent": 0, "move": {"color": "B", "point": [2, 2]}}],
}


async def _review(sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    async with sessionmaker() as session:
        owner = await users.add_guest(session, "Guest-rr", "guest-rr")
        await session.commit()
        await reviews.add(
            session, Review(id="rr1", owner_id=owner.id, title="t", board_size=9, tree=TREE, current=0, chat=[], version=0)
        )


async def test_the_sweep_resyncs_sockets_after_a_change_the_hub_never_carried(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    await _review(db_sessionmaker)
    hub = MemoryHub()
    await hub.start()
    now = [1000.0]
    workers = StudyWorkers(1)
    rooms = ReviewRooms(RoomDeps(hub, db_sessionmaker, lambda: now[0]), ReviewLimits(), workers)
    sent: list[dict] = []

    async def send(text: str) -> None:
        sent.append(orjson.loads(text))

    async def close(code: int, reason: str) -> None:
        pass

    try:
        room = await rooms.open("rr1")
        assert room is not None and await rooms.open("nosuch") is None
        conn = Connection(send, close, user_id=None, user_name=None, role=None)
        await room.attach(conn, None)
        await conn.flush()
        assert [(m["t"], m["v"]) for m in sent if m["t"] == "snapshot"] == [("snapshot", 0)]
        await rooms.sweep()
        await conn.flush()
        assert len([m for m in sent if m["t"] == "snapshot"]) == 1  # nothing new: no resync
        async with db_sessionmaker() as session:  # committed elsewhere, never published
            await reviews.save(session, "rr1", 0, current=1)
        await rooms.sweep()
        await conn.flush()
        resync = [m for m in sent if m["t"] == "snapshot"][-1]
        assert resync["resync"] is True and resync["v"] == 1 and resync["review"]["current"] == 1
        assert resync["review"]["position"]["board"][2][2] == "X"
        await room.detach(conn)
        await rooms.sweep()
        now[0] += IDLE_ROOM_SECONDS + 1
        await rooms.sweep()
        assert "rr1" not in rooms.rooms
    finally:
        await rooms.close()
        await hub.close()
        workers.close()
