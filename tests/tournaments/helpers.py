"""Building events for the pairing tests: a field of entrants and playing rounds out."""

from __future__ import annotations

from app.tournaments.model import Bye, Entrant, Outcome, Result, RoundInput, RoundPairing, TournamentRules
from app.tournaments.pairing import pair_round


def field(n: int, top_rank: int = 34) -> tuple[Entrant, ...]:
    return tuple(Entrant(f"p{i:03d}", f"Player {i}", 2400.0 - 7 * i, max(0, top_rank - i // 3)) for i in range(n))


def play(
    rules: TournamentRules, entrants: tuple[Entrant, ...], rounds: int, absent: dict[int, tuple[str, ...]] | None = None
) -> tuple[list[RoundPairing], list[Result], list[Bye]]:
    """Pair and play ``rounds`` rounds: the higher-rated player wins, every seventh board is a jigo."""
    results: list[Result] = []
    byes: list[Bye] = []
    done: list[RoundPairing] = []
    rating = {e.player_id: e.rating for e in entrants}
    for rnd in range(1, rounds + 1):
        away = (absent or {}).get(rnd, ())
        inp = RoundInput(
            rules,
            tuple(e for e in entrants if e.player_id not in away),
            rnd,
            absent=away,
            results=tuple(results),
            byes=tuple(byes),
            everyone=entrants,
        )
        rp = pair_round(inp)
        done.append(rp)
        for p in rp.pairings:
            outcome: Outcome
            if p.board % 7 == 0:
                outcome = "jigo"
            else:
                outcome = "B" if rating[p.black] > rating[p.white] else "W"
            results.append(Result(rnd, p.black, p.white, outcome))
        byes.extend(rp.byes)
    return done, results, byes
