"""What a player asks for when pressing "Play now", and the time control each speed stands for."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.lobby import rules_presets

BoardSize = Literal[9, 13, 19]
Speed = Literal["blitz", "rapid", "classical", "correspondence"]
ANY_RULES = "any"

# The time control each speed maps to (the same presets the challenge form offers under these names).
SPEED_TIME_CONTROLS: dict[str, dict[str, Any]] = {
    "blitz": {"kind": "byoyomi", "main": 180, "periods": 3, "period_time": 10},
    "rapid": {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30},
    "classical": {"kind": "byoyomi", "main": 2400, "periods": 5, "period_time": 60},
    "correspondence": {"kind": "simple", "per_move": 3 * 86400, "correspondence": True},  # 3 days a move
}


class SeekPreferences(BaseModel):
    """Sizes and speeds are sets (any of them will do); ``rules`` is a preset name or ``"any"``.

    ``rated`` must match exactly. ``handicap``: accept a handicap from the rank difference (both seekers must
    accept it for a handicap game; otherwise the game is even).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    sizes: list[BoardSize] = Field(default=[19], min_length=1, max_length=3)
    speeds: list[Speed] = Field(default=["rapid"], min_length=1, max_length=4)
    rules: str = ANY_RULES
    rated: bool = False
    handicap: bool = False

    @field_validator("sizes", "speeds")
    @classmethod
    def _distinct(cls, value: list[Any]) -> list[Any]:
        return sorted(set(value), key=value.index)

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, value: str) -> str:
        if value != ANY_RULES and not rules_presets.is_preset(value):
            raise ValueError(f"unknown rules preset; choose one of any, {', '.join(rules_presets.preset_names())}")
        return value
