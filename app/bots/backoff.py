"""How long a bot's bridge or game player waits before each attempt to reach the server again."""

from __future__ import annotations

RECONNECT_DELAYS = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)  # seconds, then the last one for as long as it takes


class Backoff:
    """The delay before the next attempt: ``RECONNECT_DELAYS`` in turn, then the last; ``reset`` once through."""

    def __init__(self, delays: tuple[float, ...] = RECONNECT_DELAYS) -> None:
        self.delays = delays
        self.attempt = 0

    def reset(self) -> None:
        self.attempt = 0

    def next(self) -> float:
        delay = self.delays[min(self.attempt, len(self.delays) - 1)]
        self.attempt += 1
        return delay
