"""Time control settings, validated with pydantic; ``normalise`` gives the dict stored with a game.

Kinds (all times in seconds):
  {"kind": "none"}
  {"kind": "absolute", "main": 1200}
  {"kind": "fischer", "main": 300, "increment": 5, "cap": 600}        cap optional
  {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30}
  {"kind": "canadian", "main": 600, "stones": 25, "period_time": 300}
  {"kind": "chinese_countdown", "main": 1800, "periods": 3}           preset: byoyomi with 60-second periods
The string "chinese_countdown" alone means that preset with its defaults.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

DAY = 24 * 3600


class _Kind(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoTime(_Kind):
    kind: Literal["none"]


class Absolute(_Kind):
    kind: Literal["absolute"]
    main: int = Field(ge=1, le=7 * DAY)


class Fischer(_Kind):
    kind: Literal["fischer"]
    main: int = Field(ge=1, le=7 * DAY)
    increment: int = Field(ge=0, le=DAY)
    cap: int | None = Field(default=None, ge=1, le=7 * DAY)

    @model_validator(mode="after")
    def _cap_not_below_main(self) -> "Fischer":
        if self.cap is not None and self.cap < self.main:
            raise ValueError("cap must be at least the main time")
        return self


class Byoyomi(_Kind):
    kind: Literal["byoyomi"]
    main: int = Field(ge=0, le=7 * DAY)
    periods: int = Field(ge=1, le=30)
    period_time: int = Field(ge=1, le=DAY)


class Canadian(_Kind):
    kind: Literal["canadian"]
    main: int = Field(ge=0, le=7 * DAY)
    stones: int = Field(ge=1, le=100)
    period_time: int = Field(ge=1, le=DAY)


class ChineseCountdown(_Kind):
    kind: Literal["chinese_countdown"]
    main: int = Field(default=1800, ge=0, le=7 * DAY)
    periods: int = Field(default=3, ge=1, le=30)


TimeControl = Annotated[
    NoTime | Absolute | Fischer | Byoyomi | Canadian | ChineseCountdown, Field(discriminator="kind")
]


def coerce_preset(value: Any) -> Any:
    """Let a bare preset name stand for the preset with its defaults."""
    if value == "chinese_countdown":
        return {"kind": "chinese_countdown"}
    return value


def normalise(tc: NoTime | Absolute | Fischer | Byoyomi | Canadian | ChineseCountdown) -> dict[str, Any]:
    """The stored form: presets become their underlying kind, with ``preset`` naming them."""
    if isinstance(tc, ChineseCountdown):
        return {
            "kind": "byoyomi",
            "main": tc.main,
            "periods": tc.periods,
            "period_time": 60,
            "preset": "chinese_countdown",
        }
    return tc.model_dump(exclude_none=True)


DEFAULT = {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30}
