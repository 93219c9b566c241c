"""Request bodies of the moderation API."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.field_limits import AtMost

REASON_CHARS = 500  # a report's reason, an action's reason, a report's resolution (the columns' size too)
# 1 to 500 characters: an empty one is malformed (invalid_request), a longer one past the limit (reason_too_long).
Reason = Annotated[
    str, Field(min_length=1), AtMost(REASON_CHARS, "reason_too_long", f"a reason holds at most {REASON_CHARS} characters")
]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BlockCreate(_Body):
    name: str = Field(min_length=1, max_length=40)


class ReportCreate(_Body):
    """A report of a user (``user``), a game (``game_id``) or one chat line (``game_id`` and ``chat_v``)."""

    kind: Literal["user", "game", "chat"]
    user: str | None = Field(default=None, max_length=40)
    game_id: str | None = Field(default=None, max_length=16)
    chat_v: int | None = Field(default=None, ge=1)
    reason: Reason

    @model_validator(mode="after")
    def _target(self) -> "ReportCreate":
        if self.kind == "user" and not self.user:
            raise ValueError("a report of a user names the user")
        if self.kind in ("game", "chat") and not self.game_id:
            raise ValueError("a report of a game or a chat line names the game")
        if self.kind == "chat" and self.chat_v is None:
            raise ValueError("a report of a chat line gives its version (chat_v)")
        return self


class Action(_Body):
    reason: Reason
    report_id: int | None = Field(default=None, ge=1)


class Mute(Action):
    minutes: int = Field(ge=1, le=60 * 24 * 30)


class Suspend(Action):
    """Until a moment, or for a number of hours."""

    until: datetime | None = None
    hours: float | None = Field(default=None, gt=0, le=24 * 365)

    @model_validator(mode="after")
    def _when(self) -> "Suspend":
        if (self.until is None) == (self.hours is None):
            raise ValueError("give either 'until' or 'hours'")
        if self.until is not None and self.until.tzinfo is None:
            raise ValueError("'until' needs a time zone (e.g. 2026-12-31T12:00:00Z)")
        return self


class RemoveChat(Action):
    lines: list[int] = Field(min_length=1, max_length=100)


class CloseReport(_Body):
    resolution: Reason
