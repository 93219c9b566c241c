"""One socket's one-way lag, estimated from the server's ping round trips (a domain may give some of it back to
the socket's user, as a clock does)."""

from __future__ import annotations

import math


class LagEstimator:
    """One connection's one-way lag estimate from ping round trips (kept by the room, not stored).

    Each measured round trip ``rtt`` (the room times its own ping until the matching pong) updates an
    exponentially decaying average (weight ``alpha`` for the newest sample, samples clamped to
    ``max_rtt``); the one-way estimate is half of that average.
    """

    __slots__ = ("alpha", "max_rtt", "_avg", "samples")

    def __init__(self, alpha: float = 0.3, max_rtt: float = 10.0) -> None:
        self.alpha = alpha
        self.max_rtt = max_rtt
        self._avg: float | None = None
        self.samples = 0

    def record(self, rtt: float) -> None:
        if not isinstance(rtt, (int, float)) or not math.isfinite(rtt) or rtt < 0:
            return
        rtt = min(float(rtt), self.max_rtt)
        self._avg = rtt if self._avg is None else self._avg + self.alpha * (rtt - self._avg)
        self.samples += 1

    def estimate(self) -> float:
        return 0.0 if self._avg is None else self._avg / 2
