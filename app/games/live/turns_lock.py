"""A room's lock, with a queue in front and one behind: chat waits behind every action of the game.

A chat line is committed as a game event, under the room's lock and in the game's order, like a move. With
an ``asyncio.Lock`` (first come, first served) a player's move that arrives while chat lines are waiting
for the lock waits for each of their commits; a chat flood would make every move wait for it. Here a waiter
``behind`` (chat) is let in only when no waiter in front (moves, every other action, catching up, sockets
attaching) is left: a move waits at most for the one commit that holds the lock when it arrives. Chat still
gets the lock as soon as the game's own actions leave it free, so it is delayed, never starved, by play at
human speed. Within each queue, first come first served. The lock is handed from holder to waiter directly,
so nobody arriving meanwhile can take it first.
"""

from __future__ import annotations

import asyncio
from collections import deque
from types import TracebackType


class TurnsLock:
    __slots__ = ("_locked", "_front", "_behind")

    def __init__(self) -> None:
        self._locked = False
        self._front: deque[asyncio.Future[None]] = deque()
        self._behind: deque[asyncio.Future[None]] = deque()

    def locked(self) -> bool:
        return self._locked

    async def acquire(self, behind: bool = False) -> None:
        if not self._locked:
            self._locked = True  # free: nobody waits for a free lock (release hands it to a waiter)
            return
        queue = self._behind if behind else self._front
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release()  # handed the lock just as it was cancelled: hand it on
            else:
                queue.remove(turn)
            raise

    def release(self) -> None:
        """Hand the lock to the first waiter in front, else the first behind; unlocked when none waits."""
        for queue in (self._front, self._behind):
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)  # the lock stays locked: it is that waiter's now
                    return
        self._locked = False

    def behind(self) -> _Behind:
        """``async with lock.behind():`` holds the lock once no waiter in front is left."""
        return _Behind(self)

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.release()


class _Behind:
    __slots__ = ("_lock",)

    def __init__(self, lock: TurnsLock) -> None:
        self._lock = lock

    async def __aenter__(self) -> None:
        await self._lock.acquire(behind=True)

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self._lock.release()
