"""The one error type of the game layer: a refused action, with a stable code and a human message."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """An action was refused. The authority (or clock) changed nothing before raising it.

    ``code`` is a stable snake_case string for clients; ``reason`` optionally refines it (for
    ``illegal_move`` it is the rules engine's reason: ``ko``, ``suicide``, ...).
    """

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason

    def to_dict(self) -> dict[str, Any]:
        out = {"code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        return out

    def __repr__(self) -> str:
        return f"GameError({self.code!r}, {self.message!r})"


class ProposalNeeded(Exception):
    """The action starts the scoring phase and the caller asked to compute the dead-stone proposal itself.

    Raised with nothing changed; ``game`` is a copy of the rules engine's game as the proposal must see it.
    Apply the same action again with the fact ``dead`` (a list of points), and ``uncertain`` and ``judge`` when
    the engine gave them.
    """

    def __init__(self, game: object, second_opinion: bool = False) -> None:
        super().__init__("the dead-stone proposal is needed")
        self.game = game
        self.second_opinion = second_opinion  # a player asked the engine (``ask_engine``): KataGo's alone
