"""Simultaneous: the host plays every present guest in one round; and the codes a round-based pairing refuses
with."""

from __future__ import annotations

import pytest

from app.tournaments.model import PairingError, RoundInput, TournamentRules
from app.tournaments.pairing import pair_round

from .helpers import field


def test_the_host_plays_every_present_guest_as_white() -> None:
    entrants = field(6)
    rules = TournamentRules("simultaneous", 1, tiebreaks=(), host="p000")
    rp = pair_round(RoundInput(rules, entrants, 1, absent=("p003",)))
    assert [(p.board, p.black, p.white) for p in rp.pairings] == [
        (1, "p001", "p000"),
        (2, "p002", "p000"),
        (3, "p004", "p000"),
        (4, "p005", "p000"),
    ]
    assert [(b.player, b.kind) for b in rp.byes] == [("p003", "absent")]


@pytest.mark.parametrize(
    ("rules", "rnd", "absent", "code"),
    [
        (TournamentRules("simultaneous", 1, tiebreaks=()), 1, (), "host_missing"),
        (TournamentRules("simultaneous", 1, tiebreaks=(), host="p000"), 1, ("p000",), "host_absent"),
        (TournamentRules("arena", 0, arena_minutes=60), 1, (), "round_out_of_range"),
        (TournamentRules("arena", 1, arena_minutes=60), 1, (), "format_not_paired_here"),
        (TournamentRules("swiss", 3), 4, (), "round_out_of_range"),
        (TournamentRules("round_robin", 9), 9, (), "rounds_exhausted"),
    ],
)
def test_refusals(rules: TournamentRules, rnd: int, absent: tuple[str, ...], code: str) -> None:
    entrants = field(6)
    with pytest.raises(PairingError) as err:
        pair_round(RoundInput(rules, entrants, rnd, absent=absent))
    assert err.value.code == code
