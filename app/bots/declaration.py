"""What a bot accepts, and the reason a challenge does not fit.

A bot declares board sizes, time control kinds (and the least time per move it needs), rules presets,
rated and/or unrated games, the largest handicap and how many games it plays at once. The server refuses a
challenge to a bot outside that declaration with the reason; the bridge checks the same function before it
accepts, so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.rules import PRESETS

TIME_KINDS = ("none", "absolute", "fischer", "byoyomi", "canadian")


def _known(value: list[str], known: Iterable[str], what: str) -> list[str]:
    """``value`` once each, in the order of ``known``; a name ``known`` lacks is refused, the known ones listed."""
    names = list(known)
    unknown = set(value) - set(names)
    if unknown:
        raise ValueError(f"unknown {what} {sorted(unknown)}; use {', '.join(names)}")
    return [name for name in names if name in value]


class BotAccepts(BaseModel):
    model_config = ConfigDict(extra="forbid")

    board_sizes: list[int] = Field(default_factory=lambda: [9, 13, 19], min_length=1, max_length=24)
    time_controls: list[str] = Field(default_factory=lambda: list(TIME_KINDS), min_length=1)
    # The least thinking time per move the bot needs: byo-yomi periods, Canadian period/stones and the Fischer
    # increment below it are refused (an absolute or Fischer game also needs this much per move of a full board).
    min_move_seconds: float = Field(default=1.0, ge=0, le=3600)
    rules: list[str] = Field(default_factory=lambda: list(PRESETS), min_length=1)
    rated: bool = True
    unrated: bool = True
    max_handicap: int = Field(default=9, ge=0, le=9)
    max_games: int = Field(default=10, ge=1, le=500)

    @field_validator("board_sizes")
    @classmethod
    def _sizes(cls, value: list[int]) -> list[int]:
        if any(not 2 <= size <= 25 for size in value):
            raise ValueError("board sizes are 2 to 25")
        return sorted(set(value))

    @field_validator("time_controls")
    @classmethod
    def _kinds(cls, value: list[str]) -> list[str]:
        return _known(value, TIME_KINDS, "time control kinds")

    @field_validator("rules")
    @classmethod
    def _presets(cls, value: list[str]) -> list[str]:
        return _known(value, PRESETS, "rules presets")


def accepts_of(stored: dict[str, Any] | None) -> BotAccepts:
    return BotAccepts.model_validate(stored or {})


def clock_system(tc: dict[str, Any]) -> str:
    """The kind a bot declares for a time control: the Chinese countdown is byo-yomi with 60-second periods."""
    kind = str(tc.get("kind"))
    return "byoyomi" if kind == "chinese_countdown" else kind


def _seconds_per_move(tc: dict[str, Any], size: int) -> float | None:
    """The thinking time a move can count on in the worst case (None: untimed)."""
    kind = clock_system(tc)
    if kind == "byoyomi":
        return float(tc["period_time"])
    if kind == "canadian":
        return float(tc["period_time"]) / float(tc["stones"])
    moves = max(1, size * size // 2)  # the bot's share of a long game
    if kind == "fischer":
        return float(tc["increment"]) + float(tc["main"]) / moves
    if kind == "absolute":
        return float(tc["main"]) / moves
    return None


def refusal(
    accepts: BotAccepts,
    *,
    board_size: int,
    time_control: dict[str, Any],
    rules: str,
    rated: bool,
    handicap: int,
    active_games: int,
) -> str | None:
    """Why the bot refuses such a game, in words for people; None when it fits."""
    if board_size not in accepts.board_sizes:
        return f"plays only on {', '.join(f'{s}x{s}' for s in accepts.board_sizes)} boards"
    kind = clock_system(time_control)
    if kind not in accepts.time_controls:
        return f"accepts only these time controls: {', '.join(accepts.time_controls)}"
    per_move = _seconds_per_move(time_control, board_size)
    if per_move is not None and per_move < accepts.min_move_seconds:
        return f"needs at least {accepts.min_move_seconds:g} seconds per move"
    if rules not in accepts.rules:
        return f"plays only under these rules: {', '.join(accepts.rules)}"
    if rated and not accepts.rated:
        return "plays only unrated games"
    if not rated and not accepts.unrated:
        return "plays only rated games"
    if handicap > accepts.max_handicap:
        return f"accepts a handicap of at most {accepts.max_handicap}"
    if active_games >= accepts.max_games:
        return f"is already playing {active_games} games, its limit"
    return None
