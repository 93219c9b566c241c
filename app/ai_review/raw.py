"""From a stored game to KataGo's questions, and from KataGo's answers to the raw figures stored (pure).

Position ``i`` is the position after ``i`` moves (``i = 0``: the start, handicap stones set up); its figure is
KataGo's view of it with the player to move there: Black's win rate and score lead, the ownership, and the top
candidates, the first with the ownership after it (for the changed-hands words, docs/review.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from app.engines.analysis import Analysis, Colour, Point, Position, Question
from app.engines.rules import katago_komi, katago_rules
from app.games.config import GameConfig

CANDIDATES = 3  # KataGo's top candidates kept per position
PV_LENGTH = 10  # moves of each candidate's line after the candidate itself


@dataclass(frozen=True)
class Reviewed:
    """A finished game as the review asks about it: every move, the start set up."""

    start: Position  # no moves
    moves: tuple[tuple[Colour, Point | None], ...]

    @property
    def total(self) -> int:
        return len(self.moves) + 1

    def question(self, i: int, visits: int) -> Question:
        position = replace(self.start, moves=self.moves[:i])
        return Question(position, visits=visits, ownership=True, moves_ownership=True, pv_length=PV_LENGTH)


def reviewed(config: dict[str, Any], moves: list[tuple[str, int | None, int | None]]) -> Reviewed:
    """The game of a stored ``config`` (GameConfig.to_dict()) and its moves as ``(colour, x, y)`` (x None: a pass);
    ``RulesNotMapped`` for a komi KataGo does not take."""
    game = GameConfig.from_dict(config)
    stones: tuple[tuple[Colour, Point], ...] = tuple(("B", (p[0], p[1])) for p in game.handicap_points)
    played: tuple[tuple[Colour, Point | None], ...] = tuple(
        ("B" if colour == "B" else "W", None if x is None or y is None else (x, y)) for colour, x, y in moves
    )
    start = Position(
        size=game.size,
        stones=stones,
        to_move="W" if stones else "B",
        komi=katago_komi(game.rules),
        rules=katago_rules(game.rules),
    )
    return Reviewed(start, played)


def _grid(rows: list[list[float]]) -> list[list[float]]:
    return [[round(value, 2) for value in row] for row in rows]


def _xy(point: Point | None) -> list[int] | None:
    return None if point is None else [point[0], point[1]]


def raw_figure(i: int, depth: str, analysis: Analysis) -> dict[str, Any]:
    """The stored figure of position ``i`` from KataGo's answer (docs/review.md, "Raw figures")."""
    assert analysis.ownership is not None, "asked with ownership"
    best = []
    for n, candidate in enumerate(analysis.candidates[:CANDIDATES]):
        best.append(
            {
                "point": _xy(candidate.point),
                "winrate": candidate.winrate,
                "score_lead": candidate.score_lead,
                "visits": candidate.visits,
                "pv": [_xy(point) for point in candidate.pv],
                "ownership": _grid(candidate.ownership) if n == 0 and candidate.ownership is not None else None,
            }
        )
    return {
        "i": i,
        "depth": depth,
        "visits": analysis.visits,
        "winrate": analysis.winrate,
        "score_lead": analysis.score_lead,
        "ownership": _grid(analysis.ownership),
        "best": best,
    }
