"""The pairing rules, pure: who may play whom, who is paired first, and the terms of the game they get.

Strength is a rating (Glicko-2 points, 1500 for a newcomer), compared as rank numbers (``app.ratings.ranks``:
one rank per whole number). The gap a seeker accepts starts at ``INITIAL_GAP`` ranks and widens by one rank
every ``WIDEN_EVERY`` seconds of waiting, up to ``MAX_GAP``. Two seekers are compatible when the gap between
them is within what both accept, they share a board size and a speed, their rules agree (or one says "any"),
both want a rated game or neither does, they are two different people, and neither avoids the other
(blocking). Among all compatible pairs the closest in
strength are paired first (the longer wait breaks ties). See docs/lobby.md.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from app.automatch.preferences import ANY_RULES, SPEED_TIME_CONTROLS, SeekPreferences
from app.lobby import rules_presets
from app.ratings.handicap import suggest
from app.ratings.ranks import rank_number

INITIAL_GAP = 1.0  # ranks
WIDEN_EVERY = 10.0  # seconds of waiting per extra rank
MAX_GAP = 9.0  # ranks
DEFAULT_RULES = "chinese"
# Compatible partners looked at per seeker and sweep, the closest first (they are scanned in rating order). A
# crowd of alike seekers costs ``n * CANDIDATES`` checks, not ``n**2``; a seeker whose candidates were all
# taken meets the next ones at the next sweep, so no compatible pair is left waiting for long.
CANDIDATES = 8


@dataclass(frozen=True)
class Seeker:
    """One waiting seek. ``since`` is when it was placed (epoch seconds); ``avoid`` holds users it never meets."""

    seek_id: str
    user_id: int
    rating: float
    prefs: SeekPreferences
    since: float
    name: str = ""
    avoid: frozenset[int] = field(default_factory=frozenset)
    instance: str = ""  # the instance whose lobby sockets placed it

    def to_json(self) -> dict[str, Any]:
        return {
            "seek_id": self.seek_id,
            "user_id": self.user_id,
            "rating": self.rating,
            "prefs": self.prefs.model_dump(),
            "since": self.since,
            "name": self.name,
            "avoid": sorted(self.avoid),
            "instance": self.instance,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Seeker":
        return cls(
            seek_id=str(data["seek_id"]),
            user_id=int(data["user_id"]),
            rating=float(data["rating"]),
            prefs=SeekPreferences.model_validate(data["prefs"]),
            since=float(data["since"]),
            name=str(data.get("name", "")),
            avoid=frozenset(int(u) for u in data.get("avoid", ())),
            instance=str(data.get("instance", "")),
        )


@dataclass(frozen=True)
class PairTerms:
    """The game two paired seekers get."""

    board_size: int
    speed: str
    time_control: dict[str, Any]
    rules: str
    komi: float
    handicap: int
    rated: bool
    black: Seeker
    white: Seeker
    nigiri: bool


def accepted_gap(seeker: Seeker, now: float) -> float:
    """The rank gap ``seeker`` accepts after waiting until ``now``."""
    waited = max(0.0, now - seeker.since)
    return min(MAX_GAP, INITIAL_GAP + waited / WIDEN_EVERY)


def rank_gap(a: Seeker, b: Seeker) -> float:
    return abs(rank_number(a.rating) - rank_number(b.rating))


def _rules_agree(a: str, b: str) -> bool:
    return a == b or ANY_RULES in (a, b)


def compatible(a: Seeker, b: Seeker, now: float) -> bool:
    if a.user_id == b.user_id or a.user_id in b.avoid or b.user_id in a.avoid:
        return False
    pa, pb = a.prefs, b.prefs
    if pa.rated != pb.rated or not _rules_agree(pa.rules, pb.rules):
        return False
    if not set(pa.sizes) & set(pb.sizes) or not set(pa.speeds) & set(pb.speeds):
        return False
    return rank_gap(a, b) <= min(accepted_gap(a, now), accepted_gap(b, now)) + 1e-9


def choose_pairs(
    seekers: Iterable[Seeker], now: float, eligible: Callable[[Seeker], bool] = lambda _s: True
) -> list[tuple[Seeker, Seeker]]:
    """Disjoint compatible pairs, closest in strength first (then the longest wait), with at least one
    ``eligible`` seeker in each (an instance pairs the seekers it holds with anyone's). Each seeker offers its
    ``CANDIDATES`` closest compatible partners above it in rating."""
    ordered = sorted(seekers, key=lambda s: s.rating)
    ranks = [rank_number(s.rating) for s in ordered]
    candidates: list[tuple[float, float, int, int]] = []
    for i, a in enumerate(ordered):
        found = 0
        for j in range(i + 1, len(ordered)):
            b = ordered[j]
            if ranks[j] - ranks[i] > MAX_GAP or found == CANDIDATES:
                break
            if (eligible(a) or eligible(b)) and compatible(a, b, now):
                candidates.append((rank_gap(a, b), min(a.since, b.since), i, j))
                found += 1
    candidates.sort()
    taken: set[int] = set()
    pairs = []
    for _gap, _since, i, j in candidates:
        if i in taken or j in taken:
            continue
        taken.update((i, j))
        pairs.append((ordered[i], ordered[j]))
    return pairs


def best_partner(seeker: Seeker, others: Iterable[Seeker], now: float) -> Seeker | None:
    """The compatible seeker closest in strength to ``seeker`` (the longest waiting among equals)."""
    best: Seeker | None = None
    for other in others:
        if compatible(seeker, other, now) and (
            best is None or (rank_gap(seeker, other), other.since) < (rank_gap(seeker, best), best.since)
        ):
            best = other
    return best


def _first_shared(first: list[Any], second: list[Any]) -> Any:
    return next(value for value in first if value in second)


def terms(a: Seeker, b: Seeker, coin: Callable[[], bool] = lambda: secrets.randbelow(2) == 0) -> PairTerms:
    """The game for a compatible pair: sizes and speeds in the order of whoever waited longer; the weaker
    takes Black (nigiri when they are less than half a rank apart); when both accept one, the handicap and
    komi the ratings suggest for their gap on that board (``app.ratings.handicap.suggest``)."""
    elder, younger = (a, b) if a.since <= b.since else (b, a)
    size = _first_shared(elder.prefs.sizes, younger.prefs.sizes)
    speed = _first_shared(elder.prefs.speeds, younger.prefs.speeds)
    named = [r for r in (elder.prefs.rules, younger.prefs.rules) if r != ANY_RULES]
    rules = named[0] if named else DEFAULT_RULES
    weaker, stronger = (a, b) if a.rating <= b.rating else (b, a)
    ranks = rank_gap(a, b)
    nigiri = ranks < 0.5
    handicap, komi = 0, rules_presets.default_komi(rules)
    if a.prefs.handicap and b.prefs.handicap and not nigiri:
        suggestion = suggest(ranks, size)
        handicap = suggestion.handicap
        komi = suggestion.komi if suggestion.komi is not None else komi
    if nigiri and coin():
        weaker, stronger = stronger, weaker
    return PairTerms(
        board_size=size,
        speed=speed,
        time_control=dict(SPEED_TIME_CONTROLS[speed]),
        rules=rules,
        komi=komi,
        handicap=handicap,
        rated=a.prefs.rated,
        black=weaker,
        white=stronger,
        nigiri=nigiri,
    )
