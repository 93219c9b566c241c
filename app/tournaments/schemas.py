"""Request bodies of the tournament API (docs/tournaments.md). Numeric limits that an operator sets (rounds,
players, events per director) are checked by the service, each refused with its own code."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.field_limits import AtMost
from app.tournaments.model import Format, Outcome, TieBreak

NAME_CHARS = 80  # the column's size
REASON_CHARS = 500  # the audit log's column
Name = Annotated[str, Field(min_length=1), AtMost(NAME_CHARS, "name_too_long", f"a name holds at most {NAME_CHARS} characters")]
Reason = Annotated[
    str, Field(min_length=1), AtMost(REASON_CHARS, "reason_too_long", f"a reason holds at most {REASON_CHARS} characters")
]
DEFAULT_TIEBREAKS: tuple[TieBreak, ...] = ("sos", "sosos")
RankText = Annotated[str, Field(min_length=2, max_length=3)]  # "30k" ... "9d"


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameSettings(_Body):
    """The settings of every game of the event, as a challenge takes them (app/lobby/game_settings.py)."""

    board_size: int = 19
    rules: str = "japanese"
    komi: float | None = None
    time_control: dict[str, Any] | str
    rated: bool = True


class Schedule(_Body):
    """Round ``n`` starts at ``first_round_at + (n - 1) * round_seconds``; it is paired ``pairing_lead_seconds``
    before; check-in opens ``checkin_seconds`` before the pairing (0: no check-in); its unfinished games go to the
    director ``deadline_seconds`` after the start."""

    first_round_at: datetime
    round_seconds: float = Field(gt=0)
    pairing_lead_seconds: float = Field(default=60.0, ge=0)
    checkin_seconds: float = Field(default=0.0, ge=0)
    deadline_seconds: float = Field(gt=0)


class CreateTournament(_Body):
    name: Name
    format: Format
    rounds: int = Field(ge=1)
    top_bar: RankText | None = None
    bottom_bar: RankText | None = None
    handicap: bool = False
    handicap_correction: int = Field(default=0, ge=0, le=9)
    handicap_ceiling: int = Field(default=9, ge=0, le=9)
    tiebreaks: list[TieBreak] = Field(default_factory=lambda: list(DEFAULT_TIEBREAKS), max_length=6)
    max_players: int = Field(ge=2)
    min_rank: RankText | None = None
    max_rank: RankText | None = None
    late_until_round: int = Field(default=1, ge=1)
    game: GameSettings
    schedule: Schedule


class Withdraw(_Body):
    """``finish``: the ids of the player's unfinished games in the event they will play out; every other one is
    resigned for them."""

    finish: list[Annotated[str, Field(max_length=16)]] = Field(default_factory=list, max_length=64)


class Repair(_Body):
    reason: Reason
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1)  # None: the round's own seed


class SetResult(_Body):
    outcome: Outcome
    by_forfeit: bool = True
    reason: Reason


class DirectorReason(_Body):
    reason: Reason


class AddCoDirector(_Body):
    name: str = Field(min_length=1, max_length=40)


DirectorAction = Literal["pause", "resume", "repair", "set_result", "disqualify", "add_co_director", "create"]
