"""The one error type of the game layer: a refused action, with a stable code and a human message."""

from __future__ import annotations


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

    def to_dict(self) -> dict:
        out = {"code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        return out

    def __repr__(self) -> str:
        return f"GameError({self.code!r}, {self.message!r})"
