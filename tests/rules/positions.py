"""Reaching a position in a real game: the rules tests' shared set-up."""

from __future__ import annotations

from collections.abc import Iterable

from app.rules import Game
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


def stones_hash(board: Board) -> int:
    """The Zobrist hash of ``board`` recomputed from its stones (what the incremental hash must equal)."""
    h = 0
    for p in board.points:
        c = board.color[p]
        if c:
            h ^= board.keys[c][p]
    return h
