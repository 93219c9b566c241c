"""Local delivery: the subscribers of this process, each with its own queue and worker task.

Both hubs use it for the last step of fan-out, so a slow subscriber only ever delays itself.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections import defaultdict
from typing import cast

from app.transport.hub import MessageCallback, ResetCallback

log = logging.getLogger(__name__)

DEFAULT_MAX_PENDING = 10_000

_RESET = object()  # queue marker: the subscriber may have missed messages


class Subscriber:
    """One local subscription: a queue of pending payloads and the task that feeds the callback."""

    def __init__(self, channel: str, callback: MessageCallback, on_reset: ResetCallback | None) -> None:
        self.channel = channel
        self.callback = callback
        self.on_reset = on_reset
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.stopped = False
        self.task = asyncio.create_task(self._run(), name=f"hub-subscriber:{channel}")

    async def _run(self) -> None:
        while not self.stopped:
            item = await self.queue.get()
            try:
                if item is _RESET:
                    result = self.on_reset() if self.on_reset is not None else None
                else:
                    result = self.callback(cast(bytes, item))  # the queue holds messages and the _RESET marker
                if inspect.isawaitable(result):
                    await result
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("hub subscriber of %s failed", self.channel)

    def put(self, item: object, max_pending: int) -> None:
        if self.queue.qsize() >= max_pending:
            log.warning("hub subscriber of %s fell %d messages behind; resetting it", self.channel, max_pending)
            while not self.queue.empty():
                self.queue.get_nowait()
            item = _RESET
        self.queue.put_nowait(item)

    async def stop(self) -> None:
        self.stopped = True
        if asyncio.current_task() is self.task:  # a callback unsubscribing itself: finish that call first
            return
        self.task.cancel()
        try:
            await self.task
        except asyncio.CancelledError:
            pass


class LocalFanout:
    """The subscribers of this process, by channel."""

    def __init__(self, max_pending: int = DEFAULT_MAX_PENDING) -> None:
        self.max_pending = max_pending
        self._subscribers: dict[str, list[Subscriber]] = defaultdict(list)

    def add(self, channel: str, callback: MessageCallback, on_reset: ResetCallback | None) -> Subscriber:
        subscriber = Subscriber(channel, callback, on_reset)
        self._subscribers[channel].append(subscriber)
        return subscriber

    async def remove(self, subscriber: Subscriber) -> bool:
        """Stop ``subscriber``; True when its channel has no local subscriber left."""
        subscribers = self._subscribers.get(subscriber.channel)
        if subscribers is not None and subscriber in subscribers:
            subscribers.remove(subscriber)
            if not subscribers:
                del self._subscribers[subscriber.channel]
        await subscriber.stop()
        return subscriber.channel not in self._subscribers

    def has(self, channel: str) -> bool:
        return channel in self._subscribers

    def channels(self) -> list[str]:
        return list(self._subscribers)

    def deliver(self, channel: str, data: bytes) -> None:
        for subscriber in self._subscribers.get(channel, ()):
            subscriber.put(data, self.max_pending)

    def reset(self, channel: str) -> None:
        for subscriber in self._subscribers.get(channel, ()):
            subscriber.put(_RESET, self.max_pending)

    async def close(self) -> None:
        subscribers = [s for group in self._subscribers.values() for s in group]
        self._subscribers.clear()
        for subscriber in subscribers:
            await subscriber.stop()
