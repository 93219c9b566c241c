"""How a game ended, with its result text in the style of SGF's RE property.

=============  ==========  =====================================================
reason         winner      text
=============  ==========  =====================================================
resignation    opponent    ``B+R`` / ``W+R``
timeout        opponent    ``B+T`` / ``W+T``
abandonment    claimant    ``B+F`` / ``W+F`` (forfeit)
score          by count    ``B+3.5`` / ``W+0.5``, ``Draw`` for an exact tie
draw           none        ``Draw`` (agreed)
abort          none        ``Void`` (no game)
no_result      none        ``Void`` (e.g. a triple ko under Japanese rules)
cancelled      none        ``Void`` (a correspondence player ran out of time before their first move)
=============  ==========  =====================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from app.rules import Score

Reason = Literal["resignation", "timeout", "abandonment", "score", "draw", "abort", "no_result", "cancelled"]
REASONS: tuple[str, ...] = get_args(Reason)
_LETTER = {"resignation": "R", "timeout": "T", "abandonment": "F"}


@dataclass(frozen=True)
class Result:
    winner: str | None
    reason: str
    text: str
    margin: float | None = None
    score: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "margin": self.margin, "text": self.text, "score": self.score}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Result":
        return cls(winner=d["winner"], reason=d["reason"], text=d["text"], margin=d.get("margin"), score=d.get("score"))


def win(winner: str, reason: str) -> Result:
    """A win without a count: resignation, timeout or abandonment."""
    return Result(winner=winner, reason=reason, text=f"{winner}+{_LETTER[reason]}")


def by_score(score: Score) -> Result:
    """From the rules engine's :class:`Score`."""
    return Result(winner=score.winner, reason="score", text=score.result_text(), margin=score.margin, score=score.to_dict())


def drawn() -> Result:
    return Result(winner=None, reason="draw", text="Draw")


def void(reason: str) -> Result:
    assert reason in ("abort", "no_result", "cancelled")
    return Result(winner=None, reason=reason, text="Void")
