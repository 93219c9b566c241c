"""Pairing speed of the tournament core (issue 35), pure Python on one core, no I/O:

- a 500-player McMahon round and Swiss round: rounds 1..R of one event played out by the rule "the higher rating
  wins, every seventh board a jigo", each round's ``pair_round`` timed (the later rounds, with history and
  repeats to avoid, are the hard ones);
- the baseline, in the same run: the last McMahon round paired again by the textbook matcher (every dual
  starting equal, the complete graph); the last line is its time over the fast path's, and the run fails if
  the two totals differ;
- a 1,000-player arena: everyone free at the start (one call pairs them all), then an hour of games lasting 3 to
  15 minutes (simulated clock), ``pair_arena`` called with the free pool each time a game ends. Printed: the
  first call's seconds; the p99 of each call's seconds; the p99 of a player's wait from becoming free to being
  paired (simulated seconds: the wait for a partner who is not the last opponent, plus the call itself).

Goal: each pairing within 1 s.

    PYTHONPATH=$PWD python bench/tournament_pairing.py [--players 500] [--rounds 5] [--arena 1000]
        [--arena-minutes 60]
"""

from __future__ import annotations

import argparse
import heapq
import random
import time
from collections.abc import Callable, Sequence

from app.tournaments.arena import ARENA_WIN, ArenaPlayer, pair_arena
from app.tournaments.model import Bye, Entrant, Format, Outcome, Result, RoundInput, TournamentRules
from app.tournaments.pairing import pair_round


def field(n: int) -> tuple[Entrant, ...]:
    return tuple(Entrant(f"p{i:04d}", f"Player {i}", 2700.0 - 4 * i, max(0, 38 - i // 12)) for i in range(n))


def event(fmt: Format, entrants: tuple[Entrant, ...], rounds: int) -> list[float]:
    rules = TournamentRules(
        fmt, rounds=rounds, top_bar=34 if fmt == "mcmahon" else None, bottom_bar=24 if fmt == "mcmahon" else None, seed=1
    )
    results: list[Result] = []
    byes: list[Bye] = []
    rating = {e.player_id: e.rating for e in entrants}
    times = []
    for rnd in range(1, rounds + 1):
        inp = RoundInput(rules, entrants, rnd, results=tuple(results), byes=tuple(byes))
        t0 = time.perf_counter()
        rp = pair_round(inp)
        times.append(time.perf_counter() - t0)
        for p in rp.pairings:
            outcome: Outcome = "jigo" if p.board % 7 == 0 else ("B" if rating[p.black] > rating[p.white] else "W")
            results.append(Result(rnd, p.black, p.white, outcome))
        byes.extend(rp.byes)
    return times


def baseline_ratio(entrants: tuple[Entrant, ...], rounds: int) -> tuple[float, float, int, int]:
    """The last McMahon round paired twice from the same input: as the server does (warm start, sparse first
    pass, every pair checked), and by the textbook start on the complete graph; (fast s, textbook s, the total
    weight of each) -- the two must be equally good."""
    from app.tournaments import matching
    from app.tournaments.pairing import scored

    timed: dict[str, tuple[float, int]] = {}

    def fast(n: int, weight: Callable[[int, int], int], candidates: Sequence[Sequence[int]]) -> list[int]:
        t0 = time.perf_counter()
        mate = matching.max_weight_matching_dense(n, weight, candidates)
        timed["fast"] = (time.perf_counter() - t0, sum(weight(i, j) for i, j in enumerate(mate) if i < j))
        return mate

    def textbook(n: int, weight: Callable[[int, int], int], candidates: Sequence[Sequence[int]]) -> list[int]:
        edges = [(i, j, weight(i, j)) for i in range(n) for j in range(i + 1, n)]
        t0 = time.perf_counter()
        mate = matching.max_weight_matching_textbook(n, edges)
        timed["textbook"] = (time.perf_counter() - t0, sum(weight(i, j) for i, j in enumerate(mate) if i < j))
        return mate

    rules = TournamentRules("mcmahon", rounds=rounds, top_bar=34, bottom_bar=24, seed=1)
    results: list[Result] = []
    byes: list[Bye] = []
    rating = {e.player_id: e.rating for e in entrants}
    for rnd in range(1, rounds):
        rp = pair_round(RoundInput(rules, entrants, rnd, results=tuple(results), byes=tuple(byes)))
        for p in rp.pairings:
            outcome: Outcome = "jigo" if p.board % 7 == 0 else ("B" if rating[p.black] > rating[p.white] else "W")
            results.append(Result(rnd, p.black, p.white, outcome))
        byes.extend(rp.byes)
    inp = RoundInput(rules, entrants, rounds, results=tuple(results), byes=tuple(byes))
    original = scored.max_weight_matching_dense
    try:
        scored.max_weight_matching_dense = fast
        pair_round(inp)
        scored.max_weight_matching_dense = textbook
        pair_round(inp)
    finally:
        scored.max_weight_matching_dense = original
    return timed["fast"][0], timed["textbook"][0], timed["fast"][1], timed["textbook"][1]


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def arena(players: int, seconds: float, seed: int = 1) -> tuple[float, float, float, int]:
    rng = random.Random(seed)
    rating = {f"a{i:04d}": 2400.0 - i for i in range(players)}
    score = dict.fromkeys(rating, 0.0)
    last: dict[str, str | None] = dict.fromkeys(rating)
    free = {p: 0.0 for p in rating}  # player -> free since (simulated seconds)
    ends: list[tuple[float, str, str]] = []
    calls: list[float] = []
    waits: list[float] = []
    now = 0.0
    first = 0.0
    while now <= seconds:
        pool = [ArenaPlayer(p, score[p], rating[p], since, last[p]) for p, since in free.items()]
        t0 = time.perf_counter()
        pairs = pair_arena(pool, seed)
        took = time.perf_counter() - t0
        if not calls:
            first = took
        calls.append(took)
        for pair in pairs:
            for p in (pair.black, pair.white):
                waits.append(now - free.pop(p) + took)
            last[pair.black], last[pair.white] = pair.white, pair.black
            heapq.heappush(ends, (now + rng.uniform(180, 900), pair.black, pair.white))
        if not ends:
            break
        now, b, w = heapq.heappop(ends)
        winner = b if rating[b] + rng.uniform(-300, 300) > rating[w] else w
        score[winner] += ARENA_WIN
        free[b] = free[w] = now
    return first, p99(calls), p99(waits), len(calls)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--arena", type=int, default=1000)
    ap.add_argument("--arena-minutes", type=int, default=60)
    args = ap.parse_args()
    entrants = field(args.players)
    formats: tuple[Format, ...] = ("mcmahon", "swiss")
    for fmt in formats:
        times = event(fmt, entrants, args.rounds)
        print(
            f"{fmt} {args.players} players: "
            + " ".join(f"r{i + 1} {t:.3f}s" for i, t in enumerate(times))
            + f"  max {max(times):.3f}s"
        )
    first, call99, wait99, calls = arena(args.arena, args.arena_minutes * 60.0)
    print(
        f"arena {args.arena} players, {args.arena_minutes} min: first pairing {first:.4f}s, {calls} calls, "
        f"call p99 {call99 * 1e6:.0f} us, free-to-paired p99 {wait99:.2f} s (simulated clock)"
    )
    fast, slow, wf, ws = baseline_ratio(entrants, args.rounds)
    print(f"baseline, McMahon round {args.rounds}: fast {fast:.3f}s, textbook on the complete graph {slow:.3f}s")
    if wf != ws:
        raise SystemExit(f"the fast matching's total weight {wf} differs from the textbook's {ws}")
    print(f"textbook_ratio={slow / fast:.1f}")


if __name__ == "__main__":
    main()
