"""Lag compensation: a per-player quota of seconds that may be given back for network lag.

The room measures each player's lag from ping round trips on the socket (``app.transport.lag.LagEstimator``) and passes
the current estimate with every move. The clock then charges the move as follows (see ``docs/clocks.md``):

    elapsed  = server receive time of the move - start of the player's turn (pauses excluded)
    estimate = clamp(lag estimate, 0, policy.max_estimate)
    credit   = min(estimate, quota, elapsed)
    charged  = elapsed - credit
    quota    = min(policy.cap, quota - credit + min(policy.refill_max, policy.refill_fraction * estimate))

The quota starts at ``policy.initial``. A player on a slow link is refunded close to their measured lag
on every move; a client that fakes lag (delays its pongs) gains at most ``refill_max`` per move and never
more than ``cap`` on a single move, so faking buys almost nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LagPolicy:
    initial: float = 0.5
    cap: float = 2.0
    refill_fraction: float = 0.8
    refill_max: float = 0.3
    max_estimate: float = 5.0

    def clamp_estimate(self, estimate: float | None) -> float:
        if estimate is None or not isinstance(estimate, (int, float)) or isinstance(estimate, bool):
            return 0.0
        if not math.isfinite(estimate) or estimate <= 0:
            return 0.0
        return min(float(estimate), self.max_estimate)

    def credit(self, quota: float, elapsed: float, estimate: float | None) -> tuple[float, float]:
        """Return ``(credit, new_quota)`` for one move taking ``elapsed`` seconds."""
        lag = self.clamp_estimate(estimate)
        credit = max(0.0, min(lag, quota, elapsed))
        refill = min(self.refill_max, self.refill_fraction * lag)
        return credit, min(self.cap, quota - credit + refill)

    def to_dict(self) -> dict[str, Any]:
        return {
            "initial": self.initial,
            "cap": self.cap,
            "refill_fraction": self.refill_fraction,
            "refill_max": self.refill_max,
            "max_estimate": self.max_estimate,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "LagPolicy":
        return cls(**data) if data else cls()
