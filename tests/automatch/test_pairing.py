"""The pairing rules, pure: compatibility, the widening gap, closest first, and the terms of a game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.automatch import pairing
from app.automatch.pairing import (
    INITIAL_GAP,
    MAX_GAP,
    WIDEN_EVERY,
    Seeker,
    accepted_gap,
    best_partner,
    choose_pairs,
    compatible,
    terms,
)
from app.automatch.preferences import SeekPreferences
from app.ratings.ranks import rank_number, rating_for_rank_number

NOW = 1_000_000.0
SIX_KYU = rank_number(1500.0)


def ranks_up(n: float) -> float:
    """The rating ``n`` ranks above 1500."""
    return rating_for_rank_number(SIX_KYU + n)


def seeker(user_id: int, rating: float = 1500.0, since: float = NOW, avoid: frozenset[int] = frozenset(), **prefs: Any) -> Seeker:
    return Seeker(seek_id=f"s{user_id}", user_id=user_id, rating=rating, prefs=SeekPreferences(**prefs), since=since, avoid=avoid)


def test_the_gap_starts_at_one_rank_and_widens_with_the_wait_up_to_its_cap() -> None:
    fresh = seeker(1)
    assert accepted_gap(fresh, NOW) == INITIAL_GAP
    assert accepted_gap(fresh, NOW + WIDEN_EVERY) == INITIAL_GAP + 1
    assert accepted_gap(fresh, NOW + 10_000) == MAX_GAP
    far = seeker(2, rating=ranks_up(3))
    assert not compatible(fresh, far, NOW)
    # Both must accept the gap: one long wait is not enough.
    old, far_fresh = seeker(1, since=NOW - 100), seeker(2, rating=ranks_up(3), since=NOW)
    assert not compatible(old, far_fresh, NOW)
    assert compatible(seeker(1, since=NOW - 20), seeker(2, rating=ranks_up(3), since=NOW - 20), NOW)


def test_never_self_never_avoided_and_preferences_must_overlap() -> None:
    assert not compatible(seeker(1), seeker(1), NOW)
    assert not compatible(seeker(1, avoid=frozenset({2})), seeker(2), NOW)
    assert not compatible(seeker(1), seeker(2, avoid=frozenset({1})), NOW)
    assert not compatible(seeker(1, sizes=[9]), seeker(2, sizes=[13, 19]), NOW)
    assert not compatible(seeker(1, speeds=["blitz"]), seeker(2, speeds=["rapid"]), NOW)
    assert not compatible(seeker(1, rated=True), seeker(2, rated=False), NOW)
    assert not compatible(seeker(1, rules="japanese"), seeker(2, rules="chinese"), NOW)
    assert compatible(seeker(1, rules="japanese"), seeker(2, rules="any"), NOW)
    assert compatible(seeker(1, sizes=[9, 13]), seeker(2, sizes=[13, 19]), NOW)


def test_the_closest_in_strength_are_paired_first() -> None:
    old = NOW - 200  # everyone accepts any gap by now
    people = [seeker(1, 1500, old), seeker(2, ranks_up(4), old), seeker(3, ranks_up(0.4), old), seeker(4, ranks_up(4.5), old)]
    pairs = {frozenset((a.user_id, b.user_id)) for a, b in choose_pairs(people, NOW)}
    assert pairs == {frozenset((1, 3)), frozenset((2, 4))}
    partner = best_partner(people[0], people[1:], NOW)
    assert partner is not None and partner.user_id == 3


def test_pairs_are_disjoint_compatible_and_leave_nobody_pairable_behind() -> None:
    rng = random.Random(7)
    people = []
    for n in range(200):
        people.append(
            seeker(
                n + 1,
                rating=rng.uniform(1000, 2200),
                since=NOW - rng.uniform(0, 120),
                sizes=rng.sample([9, 13, 19], rng.randint(1, 3)),
                speeds=rng.sample(["blitz", "rapid", "classical"], rng.randint(1, 3)),
                rules=rng.choice(["any", "chinese", "japanese"]),
                rated=rng.random() < 0.3,
            )
        )

    def only_odd(s: Seeker) -> bool:
        return s.user_id % 2 == 1

    waiting, pairs = list(people), []
    while True:  # sweep after sweep, as an instance does, until a sweep pairs nobody
        made = choose_pairs(waiting, NOW, eligible=only_odd)
        if not made:
            break
        pairs.extend(made)
        gone = {s.user_id for pair in made for s in pair}
        waiting = [s for s in waiting if s.user_id not in gone]
    seen = [s.user_id for pair in pairs for s in pair]
    assert len(seen) == len(set(seen))
    assert all(compatible(a, b, NOW) and (only_odd(a) or only_odd(b)) for a, b in pairs)
    assert not any(
        compatible(a, b, NOW) and (only_odd(a) or only_odd(b)) for i, a in enumerate(waiting) for b in waiting[i + 1 :]
    )


def test_terms_follow_the_longer_waiter_and_give_black_to_the_weaker() -> None:
    elder = seeker(1, ranks_up(2), NOW - 60, sizes=[13, 19], speeds=["blitz", "rapid"], rules="any")
    younger = seeker(2, 1500, NOW, sizes=[19, 13], speeds=["rapid", "blitz"], rules="japanese")
    agreed = terms(younger, elder)
    assert (agreed.board_size, agreed.speed, agreed.rules) == (13, "blitz", "japanese")
    assert agreed.time_control == {"kind": "byoyomi", "main": 180, "periods": 3, "period_time": 10}
    assert agreed.black.user_id == 2 and agreed.white.user_id == 1 and not agreed.nigiri
    assert agreed.handicap == 0 and agreed.komi == 6.5  # no handicap unless both ask for one


def test_equal_ranks_take_nigiri_and_any_rules_means_chinese() -> None:
    colours = set()
    for coin in (lambda: True, lambda: False):
        agreed = terms(seeker(1), seeker(2), coin=coin)
        assert agreed.nigiri and agreed.rules == "chinese" and agreed.komi == 7.5
        colours.add(agreed.black.user_id)
    assert colours == {1, 2}


def test_handicap_from_the_rank_difference_when_both_ask_for_it() -> None:
    weak, strong = seeker(1, 1500, handicap=True), seeker(2, ranks_up(3), handicap=True)
    agreed = terms(weak, strong)
    assert agreed.handicap == 3 and agreed.komi == 0.5 and agreed.black.user_id == 1
    one_rank = terms(seeker(1, 1500, handicap=True), seeker(2, ranks_up(1), handicap=True))
    assert one_rank.handicap == 0 and one_rank.komi == 0.5 and one_rank.black.user_id == 1  # no komi
    # On 9x9 a setting is worth 361/81 times as much: two ranks get an even game, three a game without komi.
    small = terms(seeker(1, 1500, handicap=True, sizes=[9]), seeker(2, ranks_up(2), handicap=True, sizes=[9]))
    assert small.handicap == 0 and small.komi == 7.5
    small = terms(seeker(1, 1500, handicap=True, sizes=[9]), seeker(2, ranks_up(3), handicap=True, sizes=[9]))
    assert small.handicap == 0 and small.komi == 0.5
    one_side = terms(seeker(1, 1500, handicap=True), seeker(2, ranks_up(3)))
    assert one_side.handicap == 0 and one_side.komi == 7.5 and one_side.black.user_id == 1


def test_a_crowd_of_alike_seekers_is_paired_in_one_sweep_with_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    checks = []

    def counted(a: Seeker, b: Seeker, now: float) -> bool:
        checks.append(1)
        return compatible(a, b, now)

    monkeypatch.setattr(pairing, "compatible", counted)
    crowd = [seeker(n, since=NOW - n * 0.001) for n in range(1, 2001)]
    pairs = choose_pairs(crowd, NOW)
    assert len({s.user_id for pair in pairs for s in pair}) == 2000  # everybody, in one sweep
    assert len(checks) <= 2000 * pairing.CANDIDATES  # not 2000 * 1999 / 2
