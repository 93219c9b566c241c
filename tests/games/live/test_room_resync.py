"""A reconnect (``?v=N``) gets exactly the missed events when the recent-event log holds them all, and one
``snapshot`` with ``"resync": true`` otherwise: trimmed, lost, or never logged (docs/protocol.md §2)."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.transport.room_deps import RoomDeps
from app.games.live.room import Room
from app.store.repositories import users
from app.transport.connection import Connection
from app.transport.memory_hub import MemoryHub
from tests.support.stored_games import nine_by_nine

LOG_SIZE = 5
MOVES = [[2, 2], [6, 6], [2, 6], [6, 2], [4, 4], [4, 2], [2, 4], [6, 4], [4, 6], [0, 0], [8, 8], [0, 8]]


class Collected:
    def __init__(self) -> None:
        self.texts: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.texts.append(orjson.loads(text))

    async def close(self, code: int, reason: str) -> None:
        return None


class ForgetfulHub(MemoryHub):
    """An in-process hub whose recent-event log can be lost, as a Redis flush or restart loses it."""

    def lose_log(self, channel: str) -> None:
        self._logs.pop(channel, None)


async def _played_room(sessionmaker: async_sessionmaker[AsyncSession]) -> tuple[Room, ForgetfulHub]:
    async with sessionmaker() as session:
        black = await users.add_guest(session, "Guest-b1", "guest-b1")
        white = await users.add_guest(session, "Guest-w1", "guest-w1")
        game = await nine_by_nine(session, black.id, white.id)
        await session.commit()
        ids = {"B": black.id, "W": white.id}
    hub = ForgetfulHub(log_size=LOG_SIZE)
    await hub.start()
    room = Room(game.id, RoomDeps(hub, sessionmaker))
    assert await room.load()
    for n, point in enumerate(MOVES):
        color = "B" if n % 2 == 0 else "W"
        seat = Connection(Collected().send, Collected().close, user_id=ids[color], user_name=color, role=color)
        assert (await room.act(seat, f"m{n}", {"t": "play", "p": point})).ok
    while room.outbox.busy:  # wait until the hub has logged every commit
        await asyncio.sleep(0.01)
    return room, hub


async def _reconnect(room: Room, since_v: int) -> list[dict[str, Any]]:
    sink = Collected()
    conn = Connection(sink.send, sink.close, user_id=None, user_name=None, role=None)
    await room.attach(conn, since_v)
    for _ in range(200):
        if not conn.busy:
            break
        await asyncio.sleep(0.01)
    await room.detach(conn)
    # Presence (who is here) is unversioned and sent when it settles: not part of what a reconnect replays.
    return [text for text in sink.texts if text["t"] != "presence"]


async def test_reconnects_replay_from_the_log_or_resync(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    room, hub = await _played_room(db_sessionmaker)
    try:
        assert room.v == len(MOVES)
        # Within the log: exactly the missed events, no snapshot.
        recent = await _reconnect(room, len(MOVES) - 3)
        assert [(m["t"], m["v"]) for m in recent] == [("move", v) for v in range(len(MOVES) - 2, len(MOVES) + 1)]
        # Up to date: nothing at all.
        assert await _reconnect(room, len(MOVES)) == []
        # Older than the log (trimmed to its last 5): one resync snapshot instead of a database replay.
        old = await _reconnect(room, 2)
        assert [(m["t"], m.get("resync"), m["v"]) for m in old] == [("snapshot", True, len(MOVES))]
        # Newer than the game: a resync snapshot.
        ahead = await _reconnect(room, len(MOVES) + 7)
        assert [(m["t"], m.get("resync")) for m in ahead] == [("snapshot", True)]
        # The log lost (a hub restart, a Redis flush): a resync snapshot, even for a recent version.
        hub.lose_log(room.channel)
        lost = await _reconnect(room, len(MOVES) - 1)
        assert [(m["t"], m.get("resync"), m["v"]) for m in lost] == [("snapshot", True, len(MOVES))]
    finally:
        await room.close()
        await hub.close()


async def test_the_memory_hub_forgets_a_game_no_room_holds(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    room, hub = await _played_room(db_sessionmaker)
    assert await hub.replay(room.channel, len(MOVES) - 1) is not None
    await room.close()
    assert await hub.replay(room.channel, len(MOVES) - 1) is None
    await hub.close()


async def test_a_game_stored_without_its_phase_gets_it_when_its_room_opens(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    from sqlalchemy import update

    from app.store.models import Game
    from app.store.repositories import games

    room, hub = await _played_room(db_sessionmaker)
    ids = {seat: uid for uid, seat in room.user_seats.items()}
    for n, color in enumerate(("B", "W")):
        seat = Connection(Collected().send, Collected().close, user_id=ids[color], user_name=color, role=color)
        assert (await room.act(seat, f"pass{n}", {"t": "pass"})).ok
    await room.close()
    async with db_sessionmaker() as session:  # as a game reached scoring before the status followed phases
        await session.execute(update(Game).where(Game.id == room.game_id).values(status="playing"))
        await session.commit()
    again = Room(room.game_id, RoomDeps(hub, db_sessionmaker))
    assert await again.load()
    async with db_sessionmaker() as session:
        stored = await games.get(session, room.game_id)
    assert stored is not None and stored.status == "scoring"
    await again.close()
    await hub.close()


async def test_the_snapshot_a_room_sends_is_the_typed_snapshot(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    from app.protocol import Snapshot, encode

    room, hub = await _played_room(db_sessionmaker)
    try:
        for seat in ("B", "W", None):
            conn = Connection(Collected().send, Collected().close, user_id=None, user_name=None, role=seat)
            for resync in (False, True):
                sent = orjson.loads(encode(room.snapshot_message(conn, resync=resync)))
                assert Snapshot.model_validate(sent).game.move_number == len(MOVES)
    finally:
        await room.close()
        await hub.close()
