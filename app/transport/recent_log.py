"""The bounded, contiguous log of a channel's recent versioned events (in process).

``RedisHub`` keeps the same structure in Redis with Lua scripts (``redis_scripts.py``); the rules are the
ones documented on ``Hub.publish`` and ``Hub.replay``.
"""

from __future__ import annotations

from collections import deque


class RecentLog:
    """Events ``(head - len + 1) .. head``, at most ``size`` of them, with no holes."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("the log must keep at least one event")
        self._events: deque[bytes] = deque(maxlen=size)
        self.head: int | None = None  # the newest logged version

    def append(self, v: int, data: bytes) -> bool:
        """Log event ``v``; False (nothing logged) when ``v`` is not newer than the head."""
        if self.head is not None and v <= self.head:
            return False
        if self.head is None or v != self.head + 1:
            self._events.clear()
        self._events.append(data)
        self.head = v
        return True

    def replay(self, after_v: int, latest: int | None = None) -> list[bytes] | None:
        if self.head is None or not self._events:
            return None
        if after_v > self.head or (latest is not None and self.head < latest):
            return None
        first = self.head - len(self._events) + 1
        if after_v + 1 < first:
            return None
        return list(self._events)[after_v + 1 - first :]
