"""Standings and tie-breaks, by the EGF's definitions, with each player's figures so the page can show them
beside the table (with ``TIEBREAK_DEFINITIONS``).

The score is the McMahon score (MMS) in a McMahon, points (a win 1, a jigo 1/2, a bye 1) otherwise. A round in
which a player had no opponent (a bye, an absence, a game decided without play, or a round before they joined)
counts, in SOS and SOS-1, as an opponent whose score is the player's own starting MMS in a McMahon and 0 in a
Swiss (EGF Tournament System Rules, "The Effect of Unplayed Games"); such a round adds nothing to SOSOS or
SODOS. Elimination events are ranked by ``pairing.elimination.placings`` instead."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .mcmahon_score import mcmahon_scores, starting_mms
from .model import Bye, Entrant, Result, TieBreak, TournamentRules
from .scores import game_points, points

TIEBREAK_DEFINITIONS: dict[TieBreak, str] = {
    "sos": "Sum of Opponents' Scores: the final scores of everyone the player met; a round without an opponent "
    "counts the player's own starting McMahon score (0 in a Swiss).",
    "sos_minus_1": "SOS without the lowest of those scores.",
    "sosos": "Sum of the opponents' SOS (a round without an opponent adds nothing).",
    "sodos": "Sum of the scores of the opponents the player beat, half of those they drew with.",
    "cuss": "Cumulative sum of the player's own score after each round (an early lead counts more).",
    "direct": "Among players still equal on everything before it: what they scored against each other, "
    "used only when each of them met every other.",
}


@dataclass(frozen=True)
class StandingRow:
    place: int  # shared by players equal on the score and every tie-break
    player_id: str
    name: str
    score: float
    wins: float  # games won (a jigo 1/2), byes not included
    figures: tuple[tuple[str, float], ...]  # (tie-break, value) in the rules' order


def final_scores(
    rules: TournamentRules,
    everyone: Sequence[Entrant],
    results: Iterable[Result],
    byes: Iterable[Bye],
    before_round: int | None = None,
) -> dict[str, float]:
    if rules.format == "mcmahon":
        return mcmahon_scores(rules, everyone, results, byes, before_round)
    won = points(results, byes, before_round)
    return {e.player_id: won.get(e.player_id, 0.0) for e in everyone}


def standings(
    rules: TournamentRules,
    everyone: Sequence[Entrant],
    results: Sequence[Result],
    byes: Sequence[Bye],
    after_round: int | None = None,
) -> list[StandingRow]:
    """The table after ``after_round`` (every round recorded if None), best first."""
    last = after_round
    if last is None:
        last = max([r.round for r in results] + [b.round for b in byes], default=0)
    res = [r for r in results if r.round <= last]
    bys = [b for b in byes if b.round <= last]
    score = final_scores(rules, everyone, res, bys)
    start = {e.player_id: float(starting_mms(e.rank, rules)) for e in everyone}
    opponents: dict[str, list[str | None]] = {e.player_id: [] for e in everyone}
    beaten: dict[str, list[tuple[str, float]]] = {e.player_id: [] for e in everyone}
    wins: dict[str, float] = {e.player_id: 0.0 for e in everyone}
    played: dict[tuple[int, str], Result] = {}
    for r in res:
        if r.outcome != "unplayed" and not r.by_forfeit:
            played[(r.round, r.black)] = r
            played[(r.round, r.white)] = r
    for e in everyone:
        p = e.player_id
        for rnd in range(1, last + 1):
            game = played.get((rnd, p))
            if game is None:
                opponents[p].append(None)
                continue
            o = game.white if game.black == p else game.black
            opponents[p].append(o)
            got = game_points(game, p)
            wins[p] += got
            if got:
                beaten[p].append((o, got))
    for r in res:  # games decided without play still count as wins in the score, not in SOS
        if r.by_forfeit and r.outcome in ("B", "W"):
            wins[r.black if r.outcome == "B" else r.white] += 1.0

    def sos_terms(p: str) -> list[float]:
        virtual = start[p] if rules.format == "mcmahon" else 0.0
        return [score.get(o, 0.0) if o is not None else virtual for o in opponents[p]]

    sos = {p: sum(sos_terms(p)) for p in opponents}
    cuss: dict[str, float] = {p: 0.0 for p in opponents}
    for rnd in range(1, last + 1):
        after = final_scores(rules, everyone, res, bys, rnd + 1)
        for p in cuss:
            cuss[p] += after.get(p, 0.0)
    figures: dict[str, dict[str, float]] = {}
    for p in opponents:
        terms = sos_terms(p)
        figures[p] = {
            "sos": sos[p],
            "sos_minus_1": sos[p] - min(terms) if terms else 0.0,
            "sosos": sum(sos.get(o, 0.0) for o in opponents[p] if o is not None),
            "sodos": sum(score.get(o, 0.0) * got for o, got in beaten[p]),
            "cuss": cuss[p],
            "direct": 0.0,
        }
    order = [tb for tb in rules.tiebreaks]

    def key(p: str, upto: int) -> tuple[float, ...]:
        return (score.get(p, 0.0), *[figures[p][tb] for tb in order[:upto]])

    ids = [e.player_id for e in everyone]
    if "direct" in order:
        k = order.index("direct")
        groups: dict[tuple[float, ...], list[str]] = {}
        for p in ids:
            groups.setdefault(key(p, k), []).append(p)
        for tied in groups.values():
            if len(tied) < 2:
                continue
            among = [r for r in res if r.black in tied and r.white in tied and r.outcome != "unplayed"]
            met = {frozenset((r.black, r.white)) for r in among}
            if len(met) < len(tied) * (len(tied) - 1) // 2:
                continue
            for p in tied:
                figures[p]["direct"] = sum(game_points(r, p) for r in among)
    names = {e.player_id: e.name for e in everyone}
    full = len(order)
    ranked = sorted(ids, key=lambda p: (tuple(-x for x in key(p, full)), p))
    rows: list[StandingRow] = []
    for i, p in enumerate(ranked):
        place = i + 1
        if rows and key(p, full) == key(ranked[i - 1], full):
            place = rows[-1].place
        rows.append(StandingRow(place, p, names[p], score.get(p, 0.0), wins[p], tuple((tb, figures[p][tb]) for tb in order)))
    return rows
