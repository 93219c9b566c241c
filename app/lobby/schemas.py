"""Request bodies of the lobby API, validated with pydantic."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.lobby import rules_presets
from app.lobby.time_controls import DEFAULT as DEFAULT_TIME_CONTROL
from app.lobby.time_controls import Byoyomi, TimeControl, coerce_preset


class ChallengeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    board_size: int = Field(default=19, ge=2, le=25)
    rules: str = "chinese"
    komi: float | None = Field(default=None, ge=-150, le=150)  # None: the preset's default
    handicap: int = Field(default=0, ge=0, le=9)
    color: Literal["black", "white", "nigiri"] = "nigiri"
    time_control: TimeControl = Field(default_factory=lambda: Byoyomi.model_validate(DEFAULT_TIME_CONTROL))
    rated: bool = False
    private: bool = False
    # The name of the one player (e.g. a bot) this challenge is for: only they may accept or decline it.
    opponent: str | None = Field(default=None, min_length=1, max_length=64)

    @field_validator("rules")
    @classmethod
    def _known_preset(cls, value: str) -> str:
        if not rules_presets.is_preset(value):
            raise ValueError(f"unknown rules preset; choose one of {', '.join(rules_presets.preset_names())}")
        return value

    @field_validator("komi")
    @classmethod
    def _half_points(cls, value: float | None) -> float | None:
        if value is not None and (value * 2) != int(value * 2):
            raise ValueError("komi must be a whole or half number")
        return value

    @field_validator("time_control", mode="before")
    @classmethod
    def _preset_name(cls, value: Any) -> Any:
        return coerce_preset(value)

    @model_validator(mode="after")
    def _handicap_fits(self) -> "ChallengeCreate":
        if self.handicap > 0 and self.board_size < 7:
            raise ValueError("handicap needs a board of at least 7x7")
        return self


class ChallengeAccept(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str | None = Field(default=None, max_length=128)


class ChallengeDecline(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str | None = Field(default=None, max_length=200)
