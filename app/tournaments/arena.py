"""The arena: for ``rules.arena_minutes``, whoever is free is paired at once with someone of a similar score,
never with the opponent of their last game (no immediate rematch). Scores: a win 2, a jigo 1, a loss 0.

``pair_arena`` is called whenever a player becomes free (or joins); it pairs every free player it can and leaves
the rest waiting for the next call. Who waits when the free players are odd: the one who became free last (the
others have waited longer). Pairing is in score order (then rating), each with the nearest free player who is not
their last opponent, so the work is one sort and a walk (a 1,000-player arena pairs in milliseconds)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .byes import seeded_order
from .model import Result, Why

ARENA_WIN = 2.0
ARENA_JIGO = 1.0


@dataclass(frozen=True)
class ArenaPlayer:
    player_id: str
    score: float  # arena points so far (arena_points)
    rating: float
    free_since: float  # when they became free (any clock, seconds); the latest waits when the free are odd
    last_opponent: str | None = None
    colour_balance: int = 0  # blacks minus whites so far


@dataclass(frozen=True)
class ArenaPair:
    black: str
    white: str
    why: Why


def arena_points(results: Iterable[Result]) -> dict[str, float]:
    """Arena scores: a win 2, a jigo 1, a loss (or both losing, or unplayed) 0."""
    total: dict[str, float] = {}
    for r in results:
        for p in (r.black, r.white):
            total.setdefault(p, 0.0)
        if r.outcome == "B":
            total[r.black] += ARENA_WIN
        elif r.outcome == "W":
            total[r.white] += ARENA_WIN
        elif r.outcome == "jigo":
            total[r.black] += ARENA_JIGO
            total[r.white] += ARENA_JIGO
    return total


def pair_arena(free: Sequence[ArenaPlayer], seed: int = 0) -> list[ArenaPair]:
    """Pairs among ``free`` (each player once at most); the same input gives the same pairs."""
    players = sorted(free, key=lambda p: (-p.score, -p.rating, p.player_id))
    waiting: set[str] = set()
    if len(players) % 2:
        latest = max(players, key=lambda p: (p.free_since, seeded_order(seed, 0, p.player_id)))
        waiting.add(latest.player_id)
    pool = [p for p in players if p.player_id not in waiting]
    taken = [False] * len(pool)
    pairs: list[ArenaPair] = []
    for i, p in enumerate(pool):
        if taken[i]:
            continue
        for j in range(i + 1, len(pool)):
            q = pool[j]
            if taken[j] or q.player_id == p.last_opponent or p.player_id == q.last_opponent:
                continue
            taken[i] = taken[j] = True
            pairs.append(_pair(p, q, seed))
            break
    return pairs


def _pair(p: ArenaPlayer, q: ArenaPlayer, seed: int) -> ArenaPair:
    if p.colour_balance != q.colour_balance:
        black, white = (p, q) if p.colour_balance < q.colour_balance else (q, p)
        note = "colour_balance"
    elif p.rating != q.rating:
        black, white = (p, q) if p.rating < q.rating else (q, p)
        note = "weaker_takes_black"
    else:
        first = seeded_order(seed, 0, p.player_id + "\x00" + q.player_id) < seeded_order(
            seed, 0, q.player_id + "\x00" + p.player_id
        )
        black, white = (p, q) if first else (q, p)
        note = "colour_drawn"
    notes = ("nearest_free_score", "no_immediate_rematch", note)
    figures = (("black_score", black.score), ("white_score", white.score))
    return ArenaPair(black.player_id, white.player_id, Why("arena", notes, figures))
