"""The arena pairs whoever is free at once, by nearest score, never with their last opponent; when the free are
odd, the one who became free last waits."""

from __future__ import annotations

import random

from app.tournaments.arena import ArenaPlayer, arena_points, pair_arena
from app.tournaments.model import Result


def test_everyone_free_is_paired_by_nearest_score_and_the_latest_waits() -> None:
    free = [ArenaPlayer(f"p{i}", float(10 - i), 2000.0 - i, free_since=float(i)) for i in range(7)]
    pairs = pair_arena(free)
    assert [{p.black, p.white} for p in pairs] == [{"p0", "p1"}, {"p2", "p3"}, {"p4", "p5"}]  # p6 freed last


def test_no_immediate_rematch() -> None:
    free = [
        ArenaPlayer("a", 4.0, 2000, 0.0, last_opponent="b"),
        ArenaPlayer("b", 4.0, 1990, 0.0, last_opponent="a"),
        ArenaPlayer("c", 2.0, 1980, 0.0),
        ArenaPlayer("d", 0.0, 1970, 0.0),
    ]
    pairs = pair_arena(free)
    assert [{p.black, p.white} for p in pairs] == [{"a", "c"}, {"b", "d"}]
    # two free players who just met wait for someone else
    assert pair_arena(free[:2]) == []


def test_random_arena_pairs_each_free_player_at_most_once_never_with_the_last_opponent() -> None:
    rng = random.Random(3)
    for _ in range(50):
        n = rng.randint(0, 40)
        ids = [f"p{i}" for i in range(n)]
        free = [
            ArenaPlayer(p, float(rng.randint(0, 10)), 1500.0 + rng.randint(0, 500), rng.random(), rng.choice([None, *ids]))
            for p in ids
        ]
        pairs = pair_arena(free, seed=1)
        seen = [x for p in pairs for x in (p.black, p.white)]
        assert len(seen) == len(set(seen))
        last = {f.player_id: f.last_opponent for f in free}
        assert all(last[p.black] != p.white and last[p.white] != p.black for p in pairs)
        assert pair_arena(free, seed=1) == pairs
        # only a rematch (or being the odd one out) leaves a player waiting
        waiting = [f for f in free if f.player_id not in seen]
        for a in waiting:
            for b in waiting:
                if a is not b:
                    assert a.last_opponent == b.player_id or b.last_opponent == a.player_id or len(free) % 2


def test_arena_points_count_a_jigo_as_half_a_win() -> None:
    results = [Result(1, "a", "b", "B"), Result(1, "c", "d", "jigo"), Result(2, "a", "c", "W")]
    assert arena_points(results) == {"a": 2.0, "b": 0.0, "c": 3.0, "d": 1.0}
