"""The settings a game authority is created with, as one JSON-safe object (stored with the game)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from app.games.errors import GameError
from app.games.lag import LagPolicy
from app.games.timecontrol import TimeControl, parse_time_control
from app.games.weekends import UnknownTimeZone, zone
from app.rules import RuleSet, fixed_handicap_points, max_fixed_handicap, rules_for

DEFAULT_SCORING_TIMEOUT = 300.0  # seconds a scoring phase may stay unanswered before automatic acceptance
DEFAULT_ABANDON_GRACE = 60.0  # seconds a player may be gone before the opponent can claim the game


@dataclass(frozen=True)
class GameConfig:
    size: int = 19
    rules: RuleSet = field(default_factory=lambda: rules_for("chinese"))
    handicap: int = 0
    handicap_points: tuple[tuple[int, int], ...] = ()
    time_control: TimeControl = field(default_factory=TimeControl)
    lag: LagPolicy = field(default_factory=LagPolicy)
    scoring_timeout: float = DEFAULT_SCORING_TIMEOUT
    abandon_grace: float = DEFAULT_ABANDON_GRACE
    # Correspondence only: (colour, time zone) of each player whose clock skips their weekends, as they chose
    # when the game started, and the colours of players on vacation then.
    weekends: tuple[tuple[str, str], ...] = ()
    away: tuple[str, ...] = ()

    def weekend_zones(self) -> dict[str, str | None]:
        zones = dict(self.weekends)
        return {c: zones.get(c) for c in ("B", "W")}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "size": self.size,
            "rules": self.rules.to_dict(),
            "handicap": self.handicap,
            "handicap_points": [list(p) for p in self.handicap_points],
            "time_control": self.time_control.to_dict(),
            "lag": self.lag.to_dict(),
            "scoring_timeout": self.scoring_timeout,
            "abandon_grace": self.abandon_grace,
        }
        if self.weekends:
            out["weekends"] = {c: tz for c, tz in self.weekends}
        if self.away:
            out["away"] = list(self.away)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "GameConfig":
        return parse_config(data)


def _bad(message: str) -> GameError:
    return GameError("invalid_config", message)


def _positive_seconds(data: dict[str, Any], key: str, default: float) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise _bad(f"'{key}' must be a positive number of seconds")
    return float(value)


def _rules(value: Any) -> RuleSet:
    if value is None:
        return rules_for("chinese")
    if isinstance(value, RuleSet):
        return value
    try:
        if isinstance(value, str):
            return rules_for(value)
        if isinstance(value, dict):
            if "preset" in value:  # {"preset": "japanese", "komi": 0.5}
                overrides = {k: v for k, v in value.items() if k != "preset"}
                return rules_for(value["preset"], **overrides)
            return RuleSet.from_dict(value)
    except (ValueError, TypeError) as exc:
        raise _bad(f"rules: {exc}") from None
    raise _bad("rules must be a preset name or an object of parameters")


def parse_config(data: dict[str, Any] | None) -> GameConfig:
    """Validate a game configuration; raises ``GameError('invalid_config' | 'invalid_time_control')``."""
    data = dict(data or {})
    known = {
        "size",
        "rules",
        "handicap",
        "handicap_points",
        "time_control",
        "lag",
        "scoring_timeout",
        "abandon_grace",
        "weekends",
        "away",
    }
    extra = sorted(set(data) - known)
    if extra:
        raise _bad(f"unknown game setting(s): {', '.join(extra)}")
    size = data.get("size", 19)
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 25:
        raise _bad("'size' must be a whole number from 2 to 25")
    rules = _rules(data.get("rules"))
    handicap = data.get("handicap", 0)
    if isinstance(handicap, bool) or not isinstance(handicap, int) or handicap < 0 or handicap == 1:
        raise _bad("'handicap' must be 0 or a whole number of stones from 2")
    points = data.get("handicap_points")
    if handicap and not points and handicap > max_fixed_handicap(size):
        top = max_fixed_handicap(size)
        if top == 0:
            raise _bad(f"a {size}x{size} board takes no handicap stones (handicap needs a board of 7x7 or more)")
        raise _bad(f"a {size}x{size} board takes at most {top} handicap stones, not {handicap}")
    try:
        if points:
            pts = tuple((int(p[0]), int(p[1])) for p in points)
        elif handicap:
            pts = tuple((x, y) for x, y in fixed_handicap_points(size, handicap))
        else:
            pts = ()
    except (ValueError, TypeError, IndexError) as exc:
        raise _bad(f"handicap: {exc}") from None
    if handicap and len(pts) != handicap:
        raise _bad(f"handicap {handicap} does not match {len(pts)} handicap points")
    lag = data.get("lag")
    try:
        lag_policy = LagPolicy.from_dict(lag) if not isinstance(lag, LagPolicy) else lag
    except TypeError as exc:
        raise _bad(f"lag: {exc}") from None
    time_control = parse_time_control(data.get("time_control"))
    weekends, away = _correspondence_players(data, time_control)
    return GameConfig(
        size=size,
        rules=rules,
        handicap=len(pts),
        handicap_points=pts,
        time_control=time_control,
        lag=lag_policy,
        scoring_timeout=_positive_seconds(data, "scoring_timeout", DEFAULT_SCORING_TIMEOUT),
        abandon_grace=_positive_seconds(data, "abandon_grace", DEFAULT_ABANDON_GRACE),
        weekends=weekends,
        away=away,
    )


Weekends = tuple[tuple[str, str], ...]


def _correspondence_players(data: dict[str, Any], time_control: TimeControl) -> tuple[Weekends, tuple[str, ...]]:
    """``weekends`` ({colour: time zone}) and ``away`` ([colour]): only a correspondence game takes them."""
    raw_weekends = data.get("weekends") or {}
    raw_away = data.get("away") or []
    if (raw_weekends or raw_away) and not time_control.correspondence:
        raise _bad("weekend pauses and vacation are for correspondence games only")
    if not isinstance(raw_weekends, dict) or not set(raw_weekends) <= {"B", "W"}:
        raise _bad("'weekends' maps a colour (B or W) to a time zone")
    weekends = []
    for color in ("B", "W"):
        tz = raw_weekends.get(color)
        if tz is None:
            continue
        try:
            zone(tz)
        except UnknownTimeZone as exc:
            raise _bad(str(exc)) from None
        weekends.append((color, tz))
    if not isinstance(raw_away, (list, tuple)) or not set(raw_away) <= {"B", "W"}:
        raise _bad("'away' lists colours (B or W)")
    return tuple(weekends), tuple(c for c in ("B", "W") if c in raw_away)
