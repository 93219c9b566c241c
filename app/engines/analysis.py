"""A position to analyse, and KataGo's answer, typed: the one place that speaks KataGo's analysis JSON.

A question names the position (board size, stones set up, the moves that led to it, komi and KataGo's rules), the
visits to spend and what to report (ownership, its standard deviation). The answer is checked before anyone
sees it: a line that is not KataGo's answer to that question (wrong fields, an ownership of the wrong length, a
move off the board) is a ``BadAnswer``, never half-read.

Points are Tengen's ``(x, y)`` from the top left (``None``: a pass); ownership is a list of rows from the top,
each from the left, from -1 (White's) to 1 (Black's), as KataGo reports it with ``reportAnalysisWinratesAs =
BLACK``; win rates are Black's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from app.rules.coords import from_gtp, to_gtp

Point = tuple[int, int]
Colour = Literal["B", "W"]


class BadAnswer(Exception):
    """KataGo answered something that is not an answer to the question."""


@dataclass(frozen=True)
class Position:
    size: int
    moves: tuple[tuple[Colour, Point | None], ...] = ()  # in the order played
    stones: tuple[tuple[Colour, Point], ...] = ()  # set up before the first move (handicap stones, a problem)
    to_move: Colour | None = None  # the side to play first when ``moves`` is empty (KataGo's initialPlayer)
    komi: float = 7.5
    rules: str | dict[str, Any] = "chinese"  # KataGo's rules: a name, or its object of ko, scoring, tax, suicide...


@dataclass(frozen=True)
class Question:
    position: Position
    visits: int
    ownership: bool = False
    ownership_stdev: bool = False
    moves_ownership: bool = False  # each candidate's ownership after it (KataGo's includeMovesOwnership)
    pv_length: int = 10  # moves of each candidate's principal variation after the candidate itself
    policy: bool = False  # the network's raw policy (the house bots choose among its likely moves)

    def to_katago(self, query_id: str, priority: int) -> dict[str, Any]:
        """KataGo's query (``priority``: KataGo's, higher first)."""
        size = self.position.size
        query: dict[str, Any] = {
            "id": query_id,
            "boardXSize": size,
            "boardYSize": size,
            "rules": self.position.rules,
            "komi": self.position.komi,
            "initialStones": [[colour, to_gtp(point, size)] for colour, point in self.position.stones],
            "moves": [[colour, "pass" if point is None else to_gtp(point, size)] for colour, point in self.position.moves],
            "maxVisits": self.visits,
            "includeOwnership": self.ownership,
            "includeOwnershipStdev": self.ownership_stdev,
            "includeMovesOwnership": self.moves_ownership,
            "analysisPVLen": self.pv_length,
            "includePolicy": self.policy,
            "priority": priority,
        }
        if self.position.to_move is not None:
            query["initialPlayer"] = self.position.to_move
        return query


@dataclass(frozen=True)
class Candidate:
    point: Point | None
    visits: int
    winrate: float
    score_lead: float
    pv: list[Point | None]
    ownership: list[list[float]] | None = None  # after this move (asked with ``moves_ownership``)


@dataclass(frozen=True)
class Analysis:
    to_move: Colour
    visits: int
    winrate: float  # Black's chance to win
    score_lead: float  # Black's lead in points (negative: White leads)
    candidates: list[Candidate] = field(default_factory=list)  # best first
    ownership: list[list[float]] | None = None
    ownership_stdev: list[list[float]] | None = None
    # The raw policy, row by row from the top then the pass last (size * size + 1 values; -1: illegal).
    policy: list[float] | None = None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class _Root(_Strict):
    currentPlayer: Colour
    visits: int
    winrate: float
    scoreLead: float


class _Move(_Strict):
    move: str
    order: int
    visits: int
    winrate: float
    scoreLead: float
    pv: list[str] = []
    ownership: list[float] | None = None


class _Answer(_Strict):
    id: str
    isDuringSearch: bool = False
    noResults: bool = False
    rootInfo: _Root | None = None
    moveInfos: list[_Move] = []
    ownership: list[float] | None = None
    ownershipStdev: list[float] | None = None
    policy: list[float] | None = None


def finished(line: dict[str, Any]) -> bool:
    """Whether this is a query's last answer (KataGo sends exactly one with ``isDuringSearch`` false)."""
    return line.get("isDuringSearch") is not True


def answered_nothing(line: dict[str, Any]) -> bool:
    """A query terminated before it analysed anything: KataGo answers ``noResults``."""
    return line.get("noResults") is True


def read_answer(line: dict[str, Any], question: Question) -> Analysis:
    """KataGo's final answer to ``question``, checked; ``BadAnswer`` when it is not one."""
    try:
        answer = _Answer.model_validate(line)
    except ValidationError as exc:
        raise BadAnswer(f"not an analysis: {exc.errors()[0]['msg']} at {exc.errors()[0]['loc']}") from None
    if answer.rootInfo is None:
        raise BadAnswer("no rootInfo")
    size = question.position.size
    try:
        candidates = [
            Candidate(
                _point(info.move, size),
                info.visits,
                info.winrate,
                info.scoreLead,
                [_point(m, size) for m in info.pv],
                _grid(info.ownership, size, "moveInfos ownership") if question.moves_ownership else None,
            )
            for info in sorted(answer.moveInfos, key=lambda info: info.order)
        ]
    except ValueError as exc:
        raise BadAnswer(str(exc)) from None
    return Analysis(
        to_move=answer.rootInfo.currentPlayer,
        visits=answer.rootInfo.visits,
        winrate=answer.rootInfo.winrate,
        score_lead=answer.rootInfo.scoreLead,
        candidates=candidates,
        ownership=_grid(answer.ownership, size, "ownership") if question.ownership else None,
        ownership_stdev=_grid(answer.ownershipStdev, size, "ownershipStdev") if question.ownership_stdev else None,
        policy=_policy(answer.policy, size) if question.policy else None,
    )


def _point(label: str, size: int) -> Point | None:
    return None if label.lower() == "pass" else from_gtp(label, size)


def _policy(values: list[float] | None, size: int) -> list[float]:
    if values is None or len(values) != size * size + 1:
        raise BadAnswer(f"policy: {size * size + 1} values expected, not {'none' if values is None else len(values)}")
    return values


def _grid(values: list[float] | None, size: int, name: str) -> list[list[float]]:
    if values is None or len(values) != size * size:
        raise BadAnswer(f"{name}: {size * size} values expected, not {'none' if values is None else len(values)}")
    return [values[row * size : (row + 1) * size] for row in range(size)]
