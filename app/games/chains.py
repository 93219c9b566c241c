"""The dead-stone proposal as whole chains (the rules engine finds the chains)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.rules import Game

Point = tuple[int, int]


def expand_to_chains(game: "Game", points: Iterable[Point]) -> set[Point]:
    """``points`` widened to the whole chains of ``game`` they stand on (empty points are dropped)."""
    out: set[Point] = set()
    for p in points:
        if p not in out:
            out |= game.chain(p)
    return out


def propose_dead_chains(game: "Game") -> set[Point]:
    """The engine's dead-stone proposal for ``game`` (``Game.propose_dead``), widened to whole chains.

    Slow on a large board (tenths of a second on 19x19): a live room runs it away from its event loop.
    """
    return expand_to_chains(game, game.propose_dead())


def proposal_points(game: "Game") -> list[list[int]]:
    """:func:`propose_dead_chains` as a sorted JSON-safe list (what a worker process sends back)."""
    return sorted([x, y] for x, y in propose_dead_chains(game))
