"""Reaching a position in a real game: the rules tests' shared set-up."""

from __future__ import annotations

from collections.abc import Iterable

from app.rules import Game, RuleSet, rules_for
from app.rules.board import Board


def place_stones(game: Game, black: Iterable[tuple[int, int]] = (), white: Iterable[tuple[int, int]] = ()) -> None:
    """Alternate real moves, black first, in the given orders (with passes as filler) to reach a position."""
    black, white = list(black), list(white)
    while black or white:
        if black:
            game.play("B", black.pop(0))
        else:
            game.pass_turn("B")
        if white:
            game.play("W", white.pop(0))
        elif black:
            game.pass_turn("W")


def play_all(game: Game, moves: Iterable[tuple[str, tuple[int, int] | None]]) -> None:
    """Play ``moves``, each (colour, point), a point of None being a pass."""
    for colour, point in moves:
        if point is None:
            game.pass_turn(colour)
        else:
            game.play(colour, point)


def stones_hash(board: Board) -> int:
    """The Zobrist hash of ``board`` recomputed from its stones (what the incremental hash must equal)."""
    h = 0
    for p in board.points:
        c = board.color[p]
        if c:
            h ^= board.keys[c][p]
    return h


# A seki on 9x9 (the point 2,0 shared by both), with territory for both.
SEKI_ROWS = [
    ".X.O.OX..",
    "XXXOOOX..",
    "OOOXXXX..",
    "..OX.....",
    "..OX.....",
    "..OX.....",
    "..OX.....",
    "..OX.....",
    "..OX.....",
]


def game_from_rows(rows: list[str], rules: RuleSet | None = None, to_move: str = "B") -> Game:
    """A game under ``rules`` (Chinese by default) that reached the position ``rows`` (``X`` Black, ``O`` White,
    top row first) by real moves, ``to_move`` to play."""
    g = Game(len(rows), rules or rules_for("chinese"))
    place_stones(
        g,
        black=[(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "X"],
        white=[(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "O"],
    )
    assert g.board_rows() == rows
    if g.to_move != to_move:
        g.pass_turn(g.to_move)
    return g
