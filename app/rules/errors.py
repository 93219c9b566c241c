"""The typed error for a move the rules forbid."""

from __future__ import annotations

REASONS = {
    "off_board": "that point is not on the board",
    "occupied": "that point is already occupied",
    "suicide": "that move would be suicide",
    "ko": "that move retakes a ko immediately",
    "superko": "that move repeats an earlier whole-board position",
    "not_your_turn": "it is not your turn",
    "game_over": "the game is over",
}


class IllegalMove(Exception):
    """A move the rules forbid. ``reason`` is one of :data:`REASONS`; the game is left unchanged."""

    def __init__(self, reason: str, message: str | None = None):
        if reason not in REASONS:
            raise ValueError(f"unknown illegal-move reason {reason!r}")
        self.reason = reason
        self.code = reason
        self.message = message or REASONS[reason]
        super().__init__(self.message)
