"""Who gets the bye when an odd number of players is to be paired: the lowest eligible score, never a second bye
to one player while another present player has had none (fewest byes first), then the lowest rating, then an
order drawn from the event's seed (the same input gives the same bye)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence

from .model import Bye, Entrant, Why


def seeded_order(seed: int, round_number: int, player_id: str) -> str:
    """A stable pseudo-random key for the last tie-break of an order: the same seed, round and player give it."""
    return hashlib.sha256(f"{seed}:{round_number}:{player_id}".encode()).hexdigest()


def byes_had(byes: Sequence[Bye]) -> Counter[str]:
    """How many byes (not absences) each player has had."""
    return Counter(b.player for b in byes if b.kind == "bye")


def bye_order(
    players: Sequence[Entrant], scores: Mapping[str, float], had: Mapping[str, int], seed: int, round_number: int
) -> list[Entrant]:
    """``players`` in the order they are given a bye: fewest byes, lowest score, lowest rating, seeded draw."""
    return sorted(
        players,
        key=lambda e: (
            had.get(e.player_id, 0),
            scores.get(e.player_id, 0.0),
            e.rating,
            seeded_order(seed, round_number, e.player_id),
        ),
    )


def bye_for(player: Entrant, scores: Mapping[str, float], had: Mapping[str, int], round_number: int) -> Bye:
    figures = (("score", scores.get(player.player_id, 0.0)), ("byes_before", float(had.get(player.player_id, 0))))
    return Bye(round_number, player.player_id, "bye", Why("bye", ("lowest_eligible_score", "fewest_byes"), figures))
