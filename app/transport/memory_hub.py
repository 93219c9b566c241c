"""The in-process hub: the embedded default, for a single server instance."""

from __future__ import annotations

from app.transport.fanout import DEFAULT_MAX_PENDING, LocalFanout
from app.transport.hub import (
    DEFAULT_LEASE,
    DEFAULT_LOG_SIZE,
    Hub,
    LostCallback,
    MessageCallback,
    ResetCallback,
    Unsubscribe,
    check_role,
)
from app.transport.recent_log import RecentLog


class MemoryHub(Hub):
    """Everything in this process's memory. Each operation runs without awaiting, so it is atomic."""

    inline = True

    def __init__(self, log_size: int = DEFAULT_LOG_SIZE, max_pending: int = DEFAULT_MAX_PENDING) -> None:
        self.log_size = log_size
        self._fanout = LocalFanout(max_pending)
        self._logs: dict[str, RecentLog] = {}
        self._presence: dict[str, dict[str, tuple[str, int | str | None]]] = {}
        self._deadlines: dict[str, float] = {}
        self._deadline_versions: dict[str, int] = {}  # the row version each deadline was computed at

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        await self._fanout.close()
        self._presence.clear()

    async def publish(self, channel: str, data: bytes, v: int | None = None) -> bool:
        if v is not None:
            log = self._logs.get(channel)
            if log is None:
                log = self._logs[channel] = RecentLog(self.log_size)
            if not log.append(v, data):
                return False
        self._fanout.deliver(channel, data)
        return True

    async def replay(self, channel: str, after_v: int, latest: int | None = None) -> list[bytes] | None:
        log = self._logs.get(channel)
        return None if log is None else log.replay(after_v, latest)

    async def newest(self, channel: str) -> int | None:
        log = self._logs.get(channel)
        return None if log is None else log.head

    async def subscribe(self, channel: str, callback: MessageCallback, on_reset: ResetCallback | None = None) -> Unsubscribe:
        subscriber = self._fanout.add(channel, callback, on_reset)

        async def unsubscribe() -> None:
            if await self._fanout.remove(subscriber):
                # Nobody in this process (the only instance) holds the channel any more: its recent-event log
                # goes too, so memory does not grow with every channel ever used. A later ``?v=``
                # reconnect finds no log and gets a resync snapshot (docs/protocol.md §2).
                self._logs.pop(channel, None)

        return unsubscribe

    async def join(self, channel: str, conn_id: str, role: str, user_id: int | str | None) -> None:
        check_role(role)
        self._presence.setdefault(channel, {})[conn_id] = (role, user_id)

    async def leave(self, channel: str, conn_id: str) -> None:
        entries = self._presence.get(channel)
        if entries is not None:
            entries.pop(conn_id, None)
            if not entries:
                del self._presence[channel]

    async def members(self, channel: str) -> list[tuple[str, int | str | None]]:
        return list(self._presence.get(channel, {}).values())

    async def set_deadline(self, key: str, at: float, v: int | None = None) -> None:
        if self._newer(str(key), v):
            self._deadlines[str(key)] = float(at)

    async def clear_deadline(self, key: str, v: int | None = None) -> None:
        if self._newer(str(key), v):
            self._deadlines.pop(str(key), None)
            self._deadline_versions.pop(str(key), None)

    def _newer(self, key: str, v: int | None) -> bool:
        """Whether a deadline of version ``v`` may replace the one set (and record ``v`` if so)."""
        if v is None:
            return True
        known = self._deadline_versions.get(key)
        if known is not None and v < known:
            return False
        self._deadline_versions[key] = v
        return True

    async def get_deadline(self, key: str) -> float | None:
        return self._deadlines.get(str(key))

    async def claim_due(self, now: float, limit: int = 100, lease: float = DEFAULT_LEASE) -> list[str]:
        due = sorted((at, key) for key, at in self._deadlines.items() if at <= now)[: max(limit, 0)]
        for _, key in due:
            self._deadlines[key] = now + lease
        return [key for _, key in due]

    def on_state_lost(self, callback: LostCallback) -> None:
        pass  # nothing in process memory is ever lost while the process lives
