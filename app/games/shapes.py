"""The objects a game's messages carry inside them, typed: GAME's moves and scoring, CLOCKS, SCORE, RESULT and
the offers (docs/protocol.md §4.3), each exactly as the game layer builds it.

They are ``TypedDict``s rather than models: the authority builds these objects as plain data once, and the
same data goes into every message, so a type that describes them without wrapping them is enough. The schema
in docs/protocol.schema.json declares their fields from these, so the frontend's tests can check what the
client reads inside them (tests/frontend/test_fixtures_schema.py).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from app.games.results import Reason

Color = Literal["B", "W"]
_EXACT = ConfigDict(extra="forbid")  # a field the type does not declare is an error, as in the protocol's models
WirePoint = Annotated[list[int], Field(min_length=2, max_length=2)]  # [x, y], as the server sends a point


@with_config(_EXACT)
class GameMove(TypedDict):
    """One of GAME's ``moves``: ``p`` null for a pass; ``captured``, the stones the move removed (the mover's
    own for a multi-stone suicide), as the engine recorded them when the move was played."""

    color: Color
    p: WirePoint | None
    captured: list[WirePoint]


@with_config(_EXACT)
class ClockSide(TypedDict):
    """One player's side of CLOCKS at the message's ``server_time`` (docs/clocks.md; ``GameClock.view``)."""

    main: float  # main time left, seconds
    periods: int | None  # byo-yomi periods left, counting the current one (byo-yomi only)
    period_time: float | None  # byo-yomi and canadian
    period_left: float | None  # seconds left in the current period (byo-yomi and canadian)
    stones: int | None  # canadian: stones left to play in the period
    running: bool


@with_config(_EXACT)
class ClocksView(TypedDict):
    """CLOCKS: both players' clocks (null instead for an untimed game)."""

    B: ClockSide
    W: ClockSide


@with_config(_EXACT)
class ColorScore(TypedDict):
    """One colour's part of SCORE (``ColorScore.to_dict`` in app/rules/scoring.py)."""

    stones: int
    territory: int
    prisoners: int
    komi: float
    compensation: float
    total: float


@with_config(_EXACT)
class ScoreView(TypedDict):
    """SCORE: a count of the board (``Score.to_dict`` in app/rules/scoring.py)."""

    rules: str
    scoring: str  # "area" | "territory"
    B: ColorScore
    W: ColorScore
    winner: Color | None
    margin: float
    result: str  # "B+2.5", "Draw"
    ownership: list[str]  # rows like the board's: whose each point is
    marks: list[str]
    dead: list[WirePoint]
    seki: list[WirePoint]
    dame: int
    chinese_count: dict[str, float] | None


@with_config(_EXACT)
class ResultView(TypedDict):
    """RESULT: how a game ended (``Result.to_dict`` in app/games/results.py)."""

    winner: Color | None
    reason: Reason
    margin: float | None
    text: str  # in the style of SGF's RE: "B+R", "W+3.5", "Draw", "Void"
    score: ScoreView | None


@with_config(_EXACT)
class OffersView(TypedDict):
    """The pending offers: who made each (null: none pending)."""

    undo: Color | None
    draw: Color | None
    adjourn: Color | None
    resume: Color | None
    rematch: Color | None


@with_config(_EXACT)
class ScoringView(TypedDict):
    """GAME's ``scoring`` while the game is in its scoring phase (``scoring_phase.score_fields``)."""

    dead: list[WirePoint]
    uncertain: list[WirePoint]  # the stones of the chains KataGo's proposal is unsure of (marked "?" on the board)
    judge: Literal["katago", "rules"]  # whose proposal the marks start from
    accepted: dict[str, bool]
    score: ScoreView
    deadline: float | None
