"""The review's figures in the SGF export: a comment on each move (the score lead and Black's win rate after it,
and KataGo's preferred move where it differs from the one played, with its lead) and Sabaki's ``SBKV`` (Black's
win rate after the move, in percent), so that other tools read them (docs/review.md, "In the SGF export")."""

from __future__ import annotations

from typing import Any

from app.records.sgf import GameRecord
from app.rules.coords import to_gtp


def _lead(score_lead: float) -> str:
    if abs(score_lead) < 0.05:
        return "even"
    return f"{'B' if score_lead > 0 else 'W'}+{abs(score_lead):.1f}"


def comment(size: int, before: dict[str, Any] | None, after: dict[str, Any], played: list[int] | None) -> str:
    """The comment on a move: the figures after it, and the better move KataGo saw before it, if any."""
    figures = f"score {_lead(after['score_lead'])}, Black's win rate {after['winrate'] * 100:.1f}%"
    lines = [f"KataGo ({after['depth']}, {after['visits']} visits): {figures}"]
    if before is not None and before["best"]:
        best = before["best"][0]
        if best["point"] != played:
            where = "pass" if best["point"] is None else to_gtp((best["point"][0], best["point"][1]), size)
            lines.append(f"Best: {where} (score {_lead(best['score_lead'])})")
    return "\n".join(lines)


def annotate(record: GameRecord, positions: list[dict[str, Any] | None]) -> None:
    """Set each move's comment and win rate from the review's figures (position ``i`` is after move ``i``)."""
    for n, move in enumerate(record.moves, start=1):
        after = positions[n] if n < len(positions) else None
        if after is None:
            continue
        played = None if move.point is None else [move.point[0], move.point[1]]
        move.comment = comment(record.size, positions[n - 1], after, played)
        move.winrate = after["winrate"]
