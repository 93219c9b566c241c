"""Chains of stones read from board rows (the rules engine's ``board_rows()``), and the dead-stone proposal
as whole chains."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.rules import Game

Point = tuple[int, int]


def chain_at(rows: list[str], point: Point) -> set[Point]:
    """Every stone connected to the stone at ``point`` (empty if the point is empty)."""
    x, y = point
    size = len(rows)
    colour = rows[y][x]
    if colour == ".":
        return set()
    seen = {point}
    stack = [point]
    while stack:
        cx, cy = stack.pop()
        for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if 0 <= nx < size and 0 <= ny < size and (nx, ny) not in seen and rows[ny][nx] == colour:
                seen.add((nx, ny))
                stack.append((nx, ny))
    return seen


def expand_to_chains(rows: list[str], points) -> set[Point]:
    out: set[Point] = set()
    for p in points:
        if p not in out:
            out |= chain_at(rows, p)
    return out


def propose_dead_chains(game: "Game") -> set[Point]:
    """The engine's dead-stone proposal for ``game`` (``Game.propose_dead``), widened to whole chains.

    Slow on a large board (tenths of a second on 19x19): a live room runs it away from its event loop.
    """
    return expand_to_chains(game.board_rows(), game.propose_dead())


def proposal_points(game: "Game") -> list[list[int]]:
    """:func:`propose_dead_chains` as a sorted JSON-safe list (what a worker process sends back)."""
    return sorted([x, y] for x, y in propose_dead_chains(game))
