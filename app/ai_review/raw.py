"""From a stored game to KataGo's questions, and from KataGo's answers to the raw figures stored (pure).

Position ``i`` is the position after ``i`` moves (``i = 0``: the start, handicap stones set up); its figure is
KataGo's view of it with the player to move there: Black's win rate and score lead, the ownership, and the top
candidates, the first with the ownership after it (for the changed-hands words, docs/review.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from app.engines.analysis import Analysis, Colour, Point, Position, Question
from app.engines.rules import position_of
from app.games.config import GameConfig
from app.rules import Game, IllegalMove

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


class BadMove(ValueError):
    """Move ``number`` (from 1) is one the rules refuse; ``reason``: the rules engine's word (``occupied``, ``ko``,
    ``suicide``...) or ``illegal_move``."""

    def __init__(self, number: int, reason: str, message: str) -> None:
        super().__init__(f"move {number}: {message}")
        self.number = number
        self.reason = reason


def replayed(config: dict[str, Any], moves: list[tuple[str, int | None, int | None]]) -> Game:
    """A stored game (``config``: GameConfig.to_dict(), as the games and the uploaded records store it) replayed
    on the rules engine from its moves ``(colour, x, y)`` (x None: a pass); ``BadMove`` for a move the rules
    refuse (a stored game's moves were each accepted when played, an upload's when it was read)."""
    config_ = GameConfig.from_dict(config)
    game = Game(config_.size, config_.rules, handicap=config_.handicap, handicap_points=list(config_.handicap_points) or None)
    for number, (colour, x, y) in enumerate(moves, start=1):
        try:
            if colour != game.to_move:  # a record may have one colour play twice
                game.set_to_move(colour)
            if x is None or y is None:
                game.pass_turn(colour)
            else:
                game.play(colour, (x, y))
        except IllegalMove as exc:
            raise BadMove(number, exc.reason, str(exc)) from None
        except ValueError as exc:
            raise BadMove(number, "illegal_move", str(exc)) from None
    return game


def reviewed(game: Game) -> Reviewed:
    """What the review asks of ``game``: its start and its moves, as ``position_of`` puts any game to KataGo;
    ``RulesNotMapped`` for a komi KataGo does not take."""
    position = position_of(game)
    return Reviewed(replace(position, moves=()), position.moves)


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
