"""Who takes black in an even game: the one who has had fewer blacks (blacks minus whites), then the one who was
white in their last game, then a draw from the event's seed."""

from __future__ import annotations

from collections.abc import Mapping

from .byes import seeded_order


def colours(
    a: str, b: str, balance: Mapping[str, int], last_black: Mapping[str, bool], seed: int, round_number: int
) -> tuple[str, str, str]:
    """``(black, white, note)`` for ``a`` and ``b``; the note says which rule decided."""
    ba, bb = balance.get(a, 0), balance.get(b, 0)
    if ba != bb:
        return (a, b, "colour_balance") if ba < bb else (b, a, "colour_balance")
    la, lb = last_black.get(a), last_black.get(b)
    if la is not None and lb is not None and la != lb:
        return (b, a, "colour_alternation") if la else (a, b, "colour_alternation")
    if seeded_order(seed, round_number, a + "\x00" + b) < seeded_order(seed, round_number, b + "\x00" + a):
        return a, b, "colour_drawn"
    return b, a, "colour_drawn"
