"""The vacation balance of a registered player: how it accrues, is spent and runs out. Pure: time is passed in.

- A registered player accrues ``VACATION_ACCRUAL_RATE`` (one day for every seven) while not on vacation, up to
  ``VACATION_CAP_DAYS``; an account starts with ``VACATION_START_DAYS`` at registration. Guests have none.
- On vacation the balance is spent second by second and nothing accrues; at zero the vacation ends by itself.
"""

from __future__ import annotations

from dataclasses import dataclass

DAY = 86400.0
VACATION_ACCRUAL_RATE = 1 / 7  # vacation seconds earned per second not on vacation
VACATION_CAP_DAYS = 30.0
VACATION_START_DAYS = 7.0
CAP = VACATION_CAP_DAYS * DAY


@dataclass(frozen=True)
class Vacation:
    banked: float  # seconds of balance at ``banked_at``
    banked_at: float
    since: float | None = None  # when the running vacation began

    @classmethod
    def starting(cls, registered_at: float) -> "Vacation":
        return cls(banked=VACATION_START_DAYS * DAY, banked_at=registered_at)

    @property
    def on(self) -> bool:
        return self.since is not None

    def balance(self, now: float) -> float:
        """Seconds of vacation left at ``now``."""
        if self.since is not None:
            return max(0.0, self.banked - max(0.0, now - self.since))
        return min(CAP, self.banked + max(0.0, now - self.banked_at) * VACATION_ACCRUAL_RATE)

    def ends_at(self) -> float | None:
        """When the running vacation runs out (None when not on vacation)."""
        return None if self.since is None else self.since + self.banked

    def start(self, now: float) -> "Vacation":
        balance = self.balance(now)
        return Vacation(banked=balance, banked_at=now, since=now)

    def stop(self, now: float) -> "Vacation":
        """Ends the vacation at ``now``, or at the moment it ran out if that came first."""
        if self.since is None:
            return self
        end = min(now, self.ends_at() or now)
        return Vacation(banked=self.balance(end), banked_at=end, since=None)

    def view(self, now: float) -> dict:
        return {
            "on": self.on,
            "seconds_left": round(self.balance(now), 3),
            "ends_at": self.ends_at(),
            "accrual_rate": VACATION_ACCRUAL_RATE,
            "cap_seconds": CAP,
        }
