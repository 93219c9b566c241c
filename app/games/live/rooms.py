"""The rooms of one instance, and the background work they share: clock ticks, lag pings and deadlines."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import zlib


from app.games.live.channel import deadline_key, game_of_deadline
from app.games.live.proposals import DeadStoneProposer
from app.games.live.room import NO_HOOKS, GameHooks, Room
from app.transport.messages import ServerPing, encode
from app.store.repositories import games as games_repo
from app.store.repositories import server_marks
from app.transport.room_deps import RoomDeps

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
PING_EVERY_TICKS = 5
# Sockets a clock tick writes to (clocks, pings) before it lets the event loop run other work: the pings of
# 140 sockets in one step took 4-6 ms of the loop on a quiet machine (docs/performance.md, "The eighth round").
TICK_CHUNK = 50
DEADLINE_POLL_SECONDS = 0.2
# How often the database is read for new games whose first deadline passed that long ago and was never settled
# (its registration with the hub was lost): TENGEN_DEADLINE_SWEEP_SECONDS.
DEADLINE_SWEEP_SECONDS = 30.0
IDLE_ROOM_SECONDS = 60.0
HEARTBEAT_SECONDS = 2.0
# On start, a heartbeat older than this means no instance was serving: the games' clocks restart (downtime
# is charged to nobody). Younger, another instance was up (a rolling restart): clocks ran on as usual.
DOWN_AFTER_SECONDS = 3 * HEARTBEAT_SECONDS


class _Opening:
    """A game id being opened: its lock, and how many are waiting on it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


def _ping_turn(game_id: str) -> int:
    """The tick (modulo ``PING_EVERY_TICKS``) on which a game's sockets are pinged."""
    return zlib.crc32(game_id.encode()) % PING_EVERY_TICKS


class RoomManager:
    def __init__(
        self,
        deps: RoomDeps,
        hooks: GameHooks = NO_HOOKS,
        proposer: DeadStoneProposer | None = None,
        deadline_sweep: float = DEADLINE_SWEEP_SECONDS,
    ) -> None:
        self.deps = deps  # handed to every room, with the hooks
        self.hooks = hooks
        self.hub = deps.hub
        self.sessionmaker = deps.sessionmaker
        self.clock = deps.clock
        self.deadline_sweep = deadline_sweep
        self.proposer = proposer or DeadStoneProposer()  # dead-stone proposals, off the event loop
        self.metrics = hooks.metrics
        self.rooms: dict[str, Room] = {}
        self._opening: dict[str, _Opening] = {}
        self._idle_since: dict[str, float] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._ping_seq = 0
        self._closing = False
        self._down_from: float | None = None  # servers were down since then: rooms restart their clocks on opening
        self._up_at = 0.0  # ... and serving resumed then

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._tick_loop(), name="tengen-clock-ticks"),
            asyncio.create_task(self._deadline_loop(), name="tengen-deadlines"),
            asyncio.create_task(self._sweep_loop(), name="tengen-deadline-sweep"),
            asyncio.create_task(self._heartbeat_loop(), name="tengen-heartbeat"),
        ]

    async def close(self) -> None:
        self._closing = True  # the loops also stop by themselves, should a library swallow a cancellation
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._tasks:
            await self._heartbeat()  # the moment this instance stopped serving
        for room in list(self.rooms.values()):
            await room.close()
        self.rooms.clear()
        self.proposer.close()

    async def open(self, game_id: str) -> Room | None:
        """The room of ``game_id`` on this instance, loading it from the database if needed."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        # One loader per game id at a time; the entry lives only while someone is opening that id, so ids asked
        # for once (real or made up) leave nothing behind.
        opening = self._opening.setdefault(game_id, _Opening())
        opening.users += 1
        try:
            async with opening.lock:
                room = self.rooms.get(game_id)
                if room is None:
                    room = Room(game_id, self.deps, self.hooks, self.proposer)
                    if not await room.load():
                        await room.close()
                        return None
                    if self._down_from is not None:
                        # Servers were down: the clocks restart before anyone acts (idempotent across instances).
                        await room.restart(self._down_from, self._up_at)
                    self.rooms[game_id] = room
            return room
        finally:
            opening.users -= 1
            if opening.users == 0:
                del self._opening[game_id]

    def spectators(self, game_id: str) -> int:
        room = self.rooms.get(game_id)
        return 0 if room is None else int(room.presence["spectators"])

    async def _tick_loop(self) -> None:
        ticks = 0
        while not self._closing:
            await asyncio.sleep(TICK_SECONDS)
            ticks += 1
            try:
                await self._tick(ticks)
            except Exception:  # one bad room must not stop the clocks of the others
                log.exception("clock tick failed")

    async def _tick(self, tick: int) -> None:
        """Clocks to every room's sockets; pings (for the lag estimate) to the sockets of one room in
        ``PING_EVERY_TICKS``, each room in its turn, so that the pings of every socket on the instance never go
        out in one tick. Within a tick, the event loop runs other work (moves, the other sockets' messages)
        after every ``TICK_CHUNK`` sockets written to; a room's clocks still go to all its sockets at once."""
        now = self.clock()
        ping_text = None
        ping_turn = tick % PING_EVERY_TICKS
        budget = TICK_CHUNK  # sockets left to write to before the next turn of the loop
        for game_id, room in list(self.rooms.items()):
            if room.connections:
                self._idle_since.pop(game_id, None)
                data = room.clock_tick()
                if data is not None:
                    room.broadcast_local(data.decode())
                    budget -= len(room.connections)
                if _ping_turn(game_id) == ping_turn:
                    if ping_text is None:
                        self._ping_seq += 1
                        ping_text = encode(ServerPing(id=f"s{self._ping_seq}", server_time=now)).decode()
                    ping_id = f"s{self._ping_seq}"
                    for conn in list(room.connections):
                        if budget <= 0:
                            await asyncio.sleep(0)
                            budget = TICK_CHUNK
                        conn.ping_sent(ping_id, time.monotonic())
                        conn.push(ping_text)
                        budget -= 1
                if budget <= 0:
                    await asyncio.sleep(0)
                    budget = TICK_CHUNK
            else:
                since = self._idle_since.setdefault(game_id, now)
                if now - since > IDLE_ROOM_SECONDS and not room.lock.locked():
                    self._idle_since.pop(game_id, None)
                    self.rooms.pop(game_id, None)
                    await room.close()

    async def _deadline_loop(self) -> None:
        while not self._closing:
            await asyncio.sleep(DEADLINE_POLL_SECONDS)
            try:
                due = [game_of_deadline(key) for key in await self.hub.claim_due(self.clock())]
            except Exception:  # a failing hub is retried on the next poll
                log.exception("claiming due deadlines failed")
                continue
            # Side by side: games falling due together (a tournament round) each settle at once, instead of
            # the last waiting for every commit before it.
            await asyncio.gather(*(self._settle_due(game_id) for game_id in due))

    async def _settle_due(self, game_id: str) -> None:
        try:
            room = await self.open(game_id)
            if room is None:
                await self.hub.clear_deadline(deadline_key(game_id))
                return
            await room.settle()
        except Exception:  # one game's failure must not hold the others; its lease retries it
            log.exception("settling the deadline of game %s failed", game_id)

    async def _sweep_loop(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.deadline_sweep)
            try:
                await self.rearm_overdue()
            except Exception:  # the database or the hub is unreachable: the next sweep tries again
                log.exception("sweeping for overdue new games failed")

    async def rearm_overdue(self) -> list[str]:
        """Register again the deadline of every game nobody has acted on whose first deadline passed more than a
        sweep ago: its registration after the commit that added it was lost (the process died between the two,
        or the hub failed then; app/lobby/starting.py). Each falls due now, at the version it was read at (0),
        so it never replaces a deadline a room computed later; the deadline loop then settles it.

        Only games at version 0 are looked for: a game that has had a commit has had a room, which sets its
        deadline after every commit and again after any catch-up; a game nobody ever opened has no room to."""
        now = self.clock()
        async with self.sessionmaker() as session:
            overdue = await games_repo.overdue_untouched(session, now - self.deadline_sweep)
        for game_id in overdue:
            log.warning("game %s: its first deadline passed unregistered; registering it now", game_id)
            await self.hub.set_deadline(deadline_key(game_id), now, 0)
        return overdue

    async def _heartbeat(self) -> None:
        try:
            async with self.sessionmaker() as session:
                await server_marks.touch(session, self.clock())
        except Exception:  # a missed beat only makes a later downtime look longer
            log.exception("writing the server heartbeat failed")

    async def _heartbeat_loop(self) -> None:
        while not self._closing:
            await self._heartbeat()
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def down_since(self) -> float | None:
        """Call before ``start``: the last heartbeat if no instance has served for a while, else None."""
        async with self.sessionmaker() as session:
            last = await server_marks.get(session)
        if last is None or self.clock() - last <= DOWN_AFTER_SECONDS:
            return None
        return last

    async def restore_deadlines(self, game_ids: list[str], down_from: float | None = None) -> None:
        """Register again the deadlines of the games that may have one (after a restart or a lost hub), without
        loading them: each falls due at once unless the hub still holds its deadline, and the deadline loop
        opens it, settles what is due and sets its real deadline. Rooms are loaded as they are needed.

        With ``down_from`` (the servers were down since then) each room restarts its clocks when it is opened,
        before anything else happens to it: what was due before ``down_from`` is settled, the time after it is
        charged to nobody.
        """
        now = self.clock()
        if down_from is not None:
            self._down_from, self._up_at = down_from, now
        for game_id in game_ids:
            try:
                if down_from is not None or await self.hub.get_deadline(deadline_key(game_id)) is None:
                    await self.hub.set_deadline(deadline_key(game_id), now)
            except Exception:
                log.exception("restoring the deadline of game %s failed", game_id)
