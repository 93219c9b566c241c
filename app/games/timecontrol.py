"""Time controls: parsing and validating the settings a game is created with.

Accepted input (a JSON object, ``kind`` decides the other keys):

- ``{"kind": "none"}``
- ``{"kind": "absolute", "main": 1200}``
- ``{"kind": "fischer", "main": 300, "increment": 5, "cap": 600}``   (``cap`` optional)
- ``{"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30}``
- ``{"kind": "canadian", "main": 600, "stones": 25, "period_time": 300}``
- ``{"kind": "simple", "per_move": 30}``   — a fixed time for every move; nothing carries over.
- ``{"kind": "chinese_countdown", "main": 3600, "periods": 3}``  — the countdown of the Chinese rules
  (Article 3): after the main time, each move made within a minute costs nothing, every full minute used
  takes one of the reserved minutes, and running out of the last one loses. It is byo-yomi with
  60-second periods; ``main`` is the time before the countdown starts. ``main`` and ``periods`` default
  to 1800 and 3, and the bare string ``"chinese_countdown"`` means those defaults.

Correspondence: ``"correspondence": true`` on ``simple`` (days per move) or ``fischer`` (main time in days with
an increment, optionally a cap) makes a correspondence game: times may then be up to
``MAX_CORRESPONDENCE_SECONDS`` and the per-move or main time must be at least a day; the clock may skip the
weekends of a player who pauses them, vacation pauses it, and a player who runs out of time before their
first move cancels the game instead of losing it (docs/clocks.md, "Correspondence").

Times are seconds (int or float). Bad input raises :class:`TimeControlError` (code
``invalid_time_control``) naming the field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from app.games.errors import GameError

KINDS = ("none", "absolute", "fischer", "byoyomi", "canadian", "chinese_countdown", "simple")
CORRESPONDENCE_KINDS = ("simple", "fischer")
COUNTDOWN_PERIOD = 60.0
DAY = 24 * 3600.0
MAX_SECONDS = 7 * DAY  # a week: anything longer is a typo
MAX_CORRESPONDENCE_SECONDS = 90 * DAY  # a correspondence game's longest time (per move, main, increment, cap)
MIN_CORRESPONDENCE_SECONDS = DAY  # a correspondence game gives at least a day per move (or of main time)
MAX_COUNT = 1000

_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    "none": {"required": (), "optional": ()},
    "absolute": {"required": ("main",), "optional": ()},
    "fischer": {"required": ("main", "increment"), "optional": ("cap", "correspondence")},
    "simple": {"required": ("per_move",), "optional": ("correspondence",)},
    "byoyomi": {"required": ("main", "periods", "period_time"), "optional": ()},
    "canadian": {"required": ("main", "stones", "period_time"), "optional": ()},
    "chinese_countdown": {"required": (), "optional": ("main", "periods", "period_time")},
}
# Names that stand for a whole time control (a bare string in place of the object).
PRESETS = {"chinese_countdown": {"kind": "chinese_countdown", "main": 1800, "periods": 3}}


class TimeControlError(GameError):
    def __init__(self, message: str) -> None:
        super().__init__("invalid_time_control", message)


@dataclass(frozen=True)
class TimeControl:
    kind: str = "none"
    main: float = 0.0
    increment: float = 0.0
    cap: float | None = None
    periods: int = 0
    period_time: float = 0.0
    stones: int = 0
    correspondence: bool = False  # days per move or main time in days: see the module docstring

    @property
    def system(self) -> str:
        """The accounting used: ``chinese_countdown`` is counted as byo-yomi."""
        return "byoyomi" if self.kind == "chinese_countdown" else self.kind

    @property
    def timed(self) -> bool:
        return self.kind != "none"

    def to_dict(self) -> dict[str, Any]:
        """The stored and shown form; whole seconds are written as whole numbers (``600``, not ``600.0``)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "none":
            return out
        if self.kind == "simple":
            out["per_move"] = _whole(self.main)
        else:
            out["main"] = _whole(self.main)
        if self.correspondence:
            out["correspondence"] = True
        if self.kind == "fischer":
            out["increment"] = _whole(self.increment)
            if self.cap is not None:
                out["cap"] = _whole(self.cap)
        elif self.kind in ("byoyomi", "chinese_countdown"):
            out["periods"] = self.periods
            out["period_time"] = _whole(self.period_time)
        elif self.kind == "canadian":
            out["stones"] = self.stones
            out["period_time"] = _whole(self.period_time)
        return out

    @classmethod
    def from_dict(cls, data: object) -> "TimeControl":
        return parse_time_control(data)


def _whole(seconds: float) -> float | int:
    return int(seconds) if float(seconds).is_integer() else seconds


def _seconds(data: dict[str, Any], key: str, *, positive: bool, longest: float = MAX_SECONDS) -> float:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TimeControlError(f"'{key}' must be a number of seconds")
    if value < 0 or (positive and value == 0):
        raise TimeControlError(f"'{key}' must be {'greater than 0' if positive else 'at least 0'}")
    if value > longest:
        raise TimeControlError(f"'{key}' must be at most {int(longest)} seconds")
    return float(value)


def _correspondence(data: dict[str, Any]) -> bool:
    value = data.get("correspondence", False)
    if not isinstance(value, bool):
        raise TimeControlError("'correspondence' must be true or false")
    return value


def _count(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise TimeControlError(f"'{key}' must be a whole number")
    if not 1 <= value <= MAX_COUNT:
        raise TimeControlError(f"'{key}' must be between 1 and {MAX_COUNT}")
    return value


def _long_enough(seconds: float, key: str, correspondence: bool) -> None:
    if correspondence and seconds < MIN_CORRESPONDENCE_SECONDS:
        raise TimeControlError(
            f"a correspondence game needs '{key}' of at least {int(MIN_CORRESPONDENCE_SECONDS)} seconds (a day)"
        )


def parse_time_control(data: object) -> TimeControl:
    """Validate a time-control object (see the module docstring); ``None`` means no clock."""
    if data is None:
        return TimeControl()
    if isinstance(data, TimeControl):
        return data
    if isinstance(data, str) and data in PRESETS:
        data = PRESETS[data]
    if not isinstance(data, dict):
        names = ", ".join(repr(name) for name in PRESETS)
        raise TimeControlError(f"time control must be an object with a 'kind' (or one of the names {names})")
    kind = data.get("kind")
    if kind not in _FIELDS:
        raise TimeControlError(f"unknown time control kind {kind!r}; expected one of {', '.join(KINDS)}")
    spec = _FIELDS[kind]
    missing = [k for k in spec["required"] if k not in data]
    if missing:
        raise TimeControlError(f"{kind} time control needs {', '.join(repr(k) for k in missing)}")
    allowed = {"kind", *spec["required"], *spec["optional"]}
    extra = sorted(k for k in data if k not in allowed)
    if extra:
        raise TimeControlError(f"{kind} time control does not take {', '.join(repr(k) for k in extra)}")

    if kind == "none":
        return TimeControl()
    if kind == "absolute":
        return TimeControl(kind=kind, main=_seconds(data, "main", positive=True))
    correspondence = _correspondence(data)
    longest = MAX_CORRESPONDENCE_SECONDS if correspondence else MAX_SECONDS
    if kind == "simple":
        per_move = _seconds(data, "per_move", positive=True, longest=longest)
        _long_enough(per_move, "per_move", correspondence)
        return TimeControl(kind=kind, main=per_move, correspondence=correspondence)
    if kind == "fischer":
        main = _seconds(data, "main", positive=True, longest=longest)
        _long_enough(main, "main", correspondence)
        increment = _seconds(data, "increment", positive=False, longest=longest)
        cap = None
        if data.get("cap") is not None:
            cap = _seconds(data, "cap", positive=True, longest=longest)
            if cap < main:
                raise TimeControlError("'cap' must be at least 'main'")
        return TimeControl(kind=kind, main=main, increment=increment, cap=cap, correspondence=correspondence)
    if kind == "byoyomi":
        return TimeControl(
            kind=kind,
            main=_seconds(data, "main", positive=False),
            periods=_count(data, "periods"),
            period_time=_seconds(data, "period_time", positive=True),
        )
    if kind == "canadian":
        return TimeControl(
            kind=kind,
            main=_seconds(data, "main", positive=False),
            stones=_count(data, "stones"),
            period_time=_seconds(data, "period_time", positive=True),
        )
    # chinese_countdown
    data = {**PRESETS["chinese_countdown"], **data}
    if "period_time" in data and data["period_time"] != COUNTDOWN_PERIOD:
        raise TimeControlError("the Chinese countdown counts whole minutes: 'period_time' is always 60")
    return TimeControl(
        kind=kind,
        main=_seconds(data, "main", positive=False),
        periods=_count(data, "periods"),
        period_time=COUNTDOWN_PERIOD,
    )
