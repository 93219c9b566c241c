"""The ``ai_review`` message on a game's socket: KataGo's figures as they arrive (docs/protocol.md, "AI review").

The figures are raw, as stored (docs/review.md, "Raw figures"); the derived ones (points lost, mistakes, the
summary) come from ``GET /api/games/{id}/review`` once the state is ``done``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from app.transport.messages import ServerMessage

Depth = Literal["quick", "deep"]
State = Literal["none", "queued", "running", "done", "failed"]
XY = tuple[int, int]


class _Figure(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Candidate(_Figure):
    """One of KataGo's top candidates (at most 3), best first; ``ownership`` only for the first."""

    point: XY | None  # None: a pass
    winrate: float  # Black's, 0..1
    score_lead: float  # Black's, points
    visits: int
    pv: list[XY | None]
    ownership: list[list[float]] | None


class RawFigure(_Figure):
    """KataGo's figure for position ``i`` (the position after ``i`` moves)."""

    i: int
    depth: Depth
    visits: int
    winrate: float  # Black's, 0..1
    score_lead: float  # Black's, points
    ownership: list[list[float]]  # rows from the top, -1 White .. +1 Black, 2 decimals
    best: list[Candidate]


class Progress(_Figure):
    done: int  # positions as deep as the depth asked for
    total: int  # the moves and the start


class AiReviewNews(ServerMessage):
    """A batch of figures stored, or the review's state changed (``positions`` then empty)."""

    t: Literal["ai_review"] = "ai_review"
    game_id: str
    state: State
    depth: Depth | None
    progress: Progress
    positions: dict[str, RawFigure]  # by position index, as a string (JSON's keys)
