"""Named limits ("10 per 600 s") and the check every caller makes: ``await limiter.allow(rule, key)``."""

from __future__ import annotations

from dataclasses import dataclass

from app.limits.counters import Counters


@dataclass(frozen=True)
class Rule:
    name: str  # part of the counter's key: two rules never share a count
    limit: int  # how many in one window; 0 or less: no limit
    window: float  # seconds


class Limiter:
    def __init__(self, counters: Counters) -> None:
        self.counters = counters

    async def allow(self, rule: Rule, key: str | int, cost: int = 1) -> bool:
        """Count one use of ``rule`` by ``key``; False when that goes over the limit (the use still counts)."""
        if rule.limit <= 0:
            return True
        return await self.counters.hit(f"{rule.name}:{key}", rule.window, cost) <= rule.limit

    async def repeated(self, name: str, key: str | int, value: str, ttl: float) -> bool:
        """Whether ``value`` is what ``key`` last gave under ``name`` (within ``ttl`` seconds); remembers it."""
        return await self.counters.swap(f"{name}:{key}", value, ttl) == value
