"""Pairing by score (McMahon by MMS, Swiss by points): the players present, minus a bye when they are odd, paired
so that, in this order of priority, nobody meets an earlier opponent again (when that can be avoided), the two
have equal scores (else the smallest gap), the top half of a score group meets its bottom half (seeding), and
colours balance."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..byes import bye_for, bye_order, byes_had
from ..colours import colours
from ..matching import max_weight_matching_dense
from ..model import Bye, Entrant, Pairing, RoundInput, Why
from ..scores import colour_balance, opponents

# (black, white, scores) -> (handicap, komi note): even games unless the format gives handicaps
Handicapper = Callable[[str, str, Mapping[str, float]], tuple[int, str]]


def even(black: str, white: str, scores: Mapping[str, float]) -> tuple[int, str]:
    return 0, "even"


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    repeat: bool


def ordered(players: Sequence[Entrant], scores: Mapping[str, float]) -> list[Entrant]:
    """Score groups from the top, each seeded by rating (then id)."""
    return sorted(players, key=lambda e: (-scores.get(e.player_id, 0.0), -e.rating, e.player_id))


def pair_by_score(
    inp: RoundInput, scores: Mapping[str, float], handicapper: Handicapper = even
) -> tuple[list[Pairing], list[Bye]]:
    gone = set(inp.absent) | set(inp.withdrawn)
    present = [e for e in inp.entrants if e.player_id not in gone and e.registered_round <= inp.round]
    byes = [Bye(inp.round, p, "absent", Why("absent", ("not_checked_in",))) for p in sorted(set(inp.absent))]
    had = byes_had(inp.byes)
    if len(present) % 2:
        chosen = bye_order(present, scores, had, inp.rules.seed, inp.round)[0]
        byes.append(bye_for(chosen, scores, had, inp.round))
        present = [e for e in present if e.player_id != chosen.player_id]
    met = opponents(inp.results)
    balance = colour_balance(inp.results)
    pairs = match(ordered(present, scores), scores, met, balance)
    last_black = {}
    for r in sorted(inp.results, key=lambda r: r.round):
        if r.outcome != "unplayed":
            last_black[r.black], last_black[r.white] = True, False
    pairings = []
    for pair in pairs:
        black, white, note = colours(pair.a, pair.b, balance, last_black, inp.rules.seed, inp.round)
        handicap, komi = handicapper(black, white, scores)
        if handicap:
            if scores.get(black, 0.0) > scores.get(white, 0.0):
                black, white = white, black
            note = "handicap_weaker_takes_black"
        sa, sb = scores.get(black, 0.0), scores.get(white, 0.0)
        notes = ["same_score_group" if sa == sb else "different_score_groups", note]
        if pair.repeat:
            notes.append("repeat_unavoidable")
        why = Why("score_group", tuple(notes), (("black_score", sa), ("white_score", sb)))
        pairings.append(Pairing(0, black, white, handicap, komi, why))
    pairings.sort(key=lambda p: (-max(scores.get(p.black, 0.0), scores.get(p.white, 0.0)), p.black))
    return [Pairing(i + 1, p.black, p.white, p.handicap, p.komi_note, p.why) for i, p in enumerate(pairings)], byes


def match(
    players: list[Entrant], scores: Mapping[str, float], met: Mapping[str, set[str]], balance: Mapping[str, int]
) -> list[Pair]:
    """A maximum-weight matching over the whole field (app/tournaments/matching.py) whose weights rank, strictly
    in this order: no repeat, then the smallest score gaps (squared, so two small floats beat one large one),
    then seeding (within a score group the top half meets the bottom half: a fold; across groups the nearest in
    the ranking), then colour balance (two players owed the same colour cost one). Each criterion's unit is
    larger than the sum of every lower one over the whole round, so no amount of a lower one buys a higher."""
    ids = [e.player_id for e in players]
    n = len(ids)
    if n == 0:
        return []
    groups: dict[float, list[int]] = {}
    for idx, p in enumerate(ids):
        groups.setdefault(scores.get(p, 0.0), []).append(idx)
    in_group = [0] * n
    size = [0] * n
    for members in groups.values():
        for i, idx in enumerate(members):
            in_group[idx], size[idx] = i, len(members)
    half_points = [round(2 * scores.get(p, 0.0)) for p in ids]
    owes = [balance.get(p, 0) for p in ids]
    met_idx = [{j for j, q in enumerate(ids) if q in met.get(p, ())} if met.get(p) else set() for p in ids]
    max_gap = max(half_points) - min(half_points)
    colour_unit = 1
    seed_unit = colour_unit * (n // 2 + 1)
    gap_unit = seed_unit * (n * n // 2 + 1)
    repeat_unit = gap_unit * (n // 2 * max_gap * max_gap + 1)
    top = 2 * repeat_unit

    def cost(i: int, j: int) -> int:
        gap = half_points[i] - half_points[j]
        if gap == 0:
            seed = abs(abs(in_group[i] - in_group[j]) - size[i] // 2)
        else:
            seed = abs(i - j) - 1
        colour = 1 if owes[i] * owes[j] > 0 else 0
        repeat = 1 if j in met_idx[i] else 0
        return repeat * repeat_unit + gap * gap * gap_unit + seed * seed_unit + colour * colour_unit

    def weight(i: int, j: int) -> int:
        return top - cost(i, j)

    window = 4
    candidates: list[list[int]] = []
    for i in range(n):
        near = set(range(max(0, i - window), min(n, i + window + 1)))
        fold = i - in_group[i] + (in_group[i] + size[i] // 2) % max(size[i], 1)
        near.update(range(max(0, fold - window), min(n, fold + window + 1)))
        near.discard(i)
        candidates.append(sorted(near))
    mate = max_weight_matching_dense(n, weight, candidates)
    pairs = []
    for i, j in enumerate(mate):
        if i < j:
            pairs.append(Pair(ids[i], ids[j], j in met_idx[i]))
    return pairs
