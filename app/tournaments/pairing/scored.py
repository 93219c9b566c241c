"""Pairing by score (McMahon by MMS, Swiss by points): the players present, minus a bye when they are odd, paired
so that, in this order of priority, nobody meets an earlier opponent again (when that can be avoided), the two
have equal scores (else the smallest gap), the top half of a score group meets its bottom half (seeding), and
colours balance."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..byes import bye_for, bye_order, byes_had
from ..colours import colours
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
    present = [e for e in inp.entrants if e.player_id not in gone]
    byes = [Bye(inp.round, p, "absent", Why("absent", ("not_checked_in",))) for p in sorted(set(inp.absent))]
    had = byes_had(inp.byes)
    if len(present) % 2:
        chosen = bye_order(present, scores, had, inp.rules.seed, inp.round)[0]
        byes.append(bye_for(chosen, scores, had, inp.round))
        present = [e for e in present if e.player_id != chosen.player_id]
    met = opponents(inp.results)
    pairs = match(ordered(present, scores), scores, met)
    balance = colour_balance(inp.results)
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


def match(players: list[Entrant], scores: Mapping[str, float], met: Mapping[str, set[str]]) -> list[Pair]:
    """First working version: depth-first in score order, each player with the nearest-scored, fold-seeded
    opponent not met yet; repeats only when no repeat-free pairing is found within the search's budget."""
    ids = [e.player_id for e in players]
    group_pos: dict[str, tuple[int, int]] = {}
    by_score: dict[float, list[str]] = {}
    for p in ids:
        by_score.setdefault(scores.get(p, 0.0), []).append(p)
    for group in by_score.values():
        for i, p in enumerate(group):
            group_pos[p] = (i, len(group))

    def cost(a: str, b: str) -> tuple[float, int]:
        ia, size = group_pos[a]
        ib, _ = group_pos[b]
        gap = abs(scores.get(a, 0.0) - scores.get(b, 0.0))
        return gap, abs(abs(ia - ib) - size // 2) if gap == 0 else ib

    budget = [20000]

    def search(left: list[str], allow_repeat: bool) -> list[Pair] | None:
        if not left:
            return []
        first, rest = left[0], left[1:]
        for other in sorted(rest, key=lambda o: cost(first, o)):
            repeat = other in met.get(first, set())
            if repeat and not allow_repeat:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                return None
            found = search([p for p in rest if p != other], allow_repeat)
            if found is not None:
                return [Pair(first, other, repeat), *found]
        return None

    return search(ids, False) or search(ids, True) or []
