"""Request bodies of the lobby API, validated with pydantic; the game settings by the game's own rules."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator
from pydantic_core import PydanticCustomError

from app.field_limits import AtMost
from app.games.config import GameConfig
from app.lobby.game_settings import DEFAULT_TIME_CONTROL, InvalidGameSettings, build_config
from app.ratings import ranks

DECLINE_REASON_CHARS = 200  # why a challenge was declined (docs/bots.md; the column's size too)
DECLINE_REASON_REFUSAL = f"a decline reason holds at most {DECLINE_REASON_CHARS} characters"


class ChallengeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    board_size: int = Field(default=19, ge=2, le=25)
    rules: str = "chinese"
    komi: float | None = Field(default=None, ge=-150, le=150)  # None: the preset's default
    handicap: int = Field(default=0, ge=0, le=9)
    color: Literal["black", "white", "nigiri"] = "nigiri"
    # An object of app/games/timecontrol.py (or a preset name such as "chinese_countdown"), checked by the game.
    time_control: dict[str, Any] | str = Field(default_factory=lambda: dict(DEFAULT_TIME_CONTROL))
    rated: bool = False
    private: bool = False
    # The name of the one player (e.g. a bot) this challenge is for: only they may accept or decline it.
    opponent: str | None = Field(default=None, min_length=1, max_length=64)
    _config: GameConfig | None = PrivateAttr(default=None)
    min_rank: str | None = Field(default=None, max_length=4)  # the weakest rank that may accept, e.g. "15k"
    max_rank: str | None = Field(default=None, max_length=4)  # the strongest, e.g. "1d"
    auto_handicap: bool = False  # handicap, komi and colours from the two ranks when accepted

    @field_validator("min_rank", "max_rank")
    @classmethod
    def _rank(cls, value: str | None) -> str | None:
        return None if value is None else ranks.label_for_number(ranks.parse_rank(value))

    @model_validator(mode="after")
    def _range_in_order(self) -> "ChallengeCreate":
        if self.min_rank and self.max_rank and ranks.parse_rank(self.min_rank) > ranks.parse_rank(self.max_rank):
            raise ValueError("min_rank must be the weaker rank, e.g. 15k to 1d")
        return self

    @model_validator(mode="after")
    def _game_can_play_it(self) -> "ChallengeCreate":
        try:
            self._config = build_config(
                board_size=self.board_size,
                rules=self.rules,
                komi=self.komi,
                handicap=self.handicap,
                time_control=self.time_control,
            )
        except InvalidGameSettings as exc:
            raise PydanticCustomError("invalid_game_settings", "{message}", {"message": exc.message}) from None
        return self

    @property
    def config(self) -> GameConfig:
        """The game these settings make, as the game's rules read them (komi and time control resolved)."""
        assert self._config is not None
        return self._config


class ChallengeAccept(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str | None = Field(default=None, max_length=128)


class ChallengeDecline(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: Annotated[str, AtMost(DECLINE_REASON_CHARS, "reason_too_long", DECLINE_REASON_REFUSAL)] | None = None
