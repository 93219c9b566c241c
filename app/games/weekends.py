"""Weekends in a player's time zone: the hours a correspondence clock does not count for a player who pauses them.

A weekend is Saturday 00:00 to Monday 00:00 local time in the player's IANA time zone (``Europe/Paris``).
Pure: two functions of timestamps (float seconds since the epoch), standard library only (``zoneinfo``).
A day that daylight saving time shortens or lengthens is as long as it really is.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

SATURDAY = 5


class UnknownTimeZone(ValueError):
    pass


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    """The time zone named ``name``; raises :class:`UnknownTimeZone` for a name the system does not know."""
    if not isinstance(name, str) or not 0 < len(name) <= 64 or name.startswith(("/", ".")) or ".." in name:
        raise UnknownTimeZone(f"unknown time zone {name!r}")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UnknownTimeZone(f"unknown time zone {name!r}") from None


def _weekend_around(tz: ZoneInfo, t: float) -> tuple[float, float]:
    """The weekend that contains ``t`` or, if none does, the next one: (start, end) as timestamps."""
    local = datetime.fromtimestamp(t, tz)
    midnight = datetime(local.year, local.month, local.day, tzinfo=tz)
    saturday = midnight - timedelta(days=(local.weekday() - SATURDAY) % 7)
    start = saturday.timestamp()
    end = datetime.combine(saturday.date() + timedelta(days=2), datetime.min.time(), tz).timestamp()
    if t >= end:  # t is after that weekend: the next one
        saturday_next = saturday.date() + timedelta(days=7)
        start = datetime.combine(saturday_next, datetime.min.time(), tz).timestamp()
        end = datetime.combine(saturday_next + timedelta(days=2), datetime.min.time(), tz).timestamp()
    return start, end


def in_weekend(tz_name: str, t: float) -> bool:
    start, end = _weekend_around(zone(tz_name), t)
    return start <= t < end


def weekend_seconds(tz_name: str, a: float, b: float) -> float:
    """Seconds of weekend between the instants ``a`` and ``b`` (0 when ``b <= a``)."""
    tz = zone(tz_name)
    total, t = 0.0, a
    while t < b:
        start, end = _weekend_around(tz, t)
        if start >= b:
            break
        total += min(end, b) - max(start, t)
        t = end
    return total


def counted_until(tz_name: str, a: float, seconds: float) -> float:
    """The instant at which ``seconds`` of time outside weekends have passed since ``a``."""
    tz = zone(tz_name)
    t, left = a, seconds
    while True:
        start, end = _weekend_around(tz, t)
        if start <= t:  # inside a weekend: nothing counts until it ends
            t = end
            continue
        if t + left <= start:
            return t + left
        left -= start - t
        t = end
