"""Properties every round-based pairing keeps: every present player is paired exactly once (or has the one
bye), no repeat while one can be avoided, byes spread fairly, the same input gives the same pairing."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from app.tournaments.model import Format, RoundInput, TournamentRules
from app.tournaments.pairing import pair_round

from .helpers import field, play


@pytest.mark.parametrize("fmt", ["swiss", "mcmahon"])
@pytest.mark.parametrize("n", [2, 7, 12, 25])
def test_every_present_player_is_paired_exactly_once_and_never_twice_against_one_opponent(fmt: Format, n: int) -> None:
    rules = TournamentRules(fmt, rounds=5, top_bar=32, bottom_bar=20)
    entrants = field(n)
    rounds = min(5, n - 1)
    done, results, _ = play(rules, entrants, rounds)
    for rp in done:
        seen = Counter([p.black for p in rp.pairings] + [p.white for p in rp.pairings] + [b.player for b in rp.byes])
        assert set(seen) == {e.player_id for e in entrants}
        assert set(seen.values()) == {1}
        assert len(rp.byes) == n % 2
    games = Counter(frozenset((r.black, r.white)) for r in results)
    assert max(games.values()) == 1


def test_byes_are_fair_over_eleven_rounds_with_an_odd_field() -> None:
    rules = TournamentRules("swiss", rounds=11)
    done, _, byes = play(rules, field(13), 11)
    counts = Counter(b.player for b in byes if b.kind == "bye")
    assert len(counts) == 11 and set(counts.values()) == {1}


def test_round_robin_meets_everyone_once() -> None:
    entrants = field(7)
    rules = TournamentRules("round_robin", rounds=7)
    _, results, byes = play(rules, entrants, 7)
    met = Counter(frozenset((r.black, r.white)) for r in results)
    assert set(met) == {frozenset(p) for p in combinations([e.player_id for e in entrants], 2)}
    assert set(met.values()) == {1}
    assert Counter(b.player for b in byes) == Counter({e.player_id: 1 for e in entrants})


def test_the_same_input_gives_the_same_pairing() -> None:
    rules = TournamentRules("mcmahon", rounds=4, top_bar=32, bottom_bar=22, seed=7)
    _, results, byes = play(rules, field(21), 3)
    inp = RoundInput(rules, field(21), 4, results=tuple(results), byes=tuple(byes))
    assert pair_round(inp) == pair_round(inp)
