"""Single and double elimination, replayed from the record so the bracket is never stored apart from the games.

Seeding: by rating (then id), into a bracket of the next power of two, in the standard order (1 meets the lowest
seed, and 1 and 2 can only meet in the final); the empty places ("phantoms") go to the top seeds, who pass round
one without a game. A match with a phantom or an absent player is a walkover: the other goes on without a game
(a ``Bye`` of kind "bye", note ``walkover``), the absent one is out (``Bye`` "absent").

Double elimination, on a fixed schedule of tournament rounds for a bracket of 2**k places:
- winners' bracket round i at tournament round i (1..k);
- losers' bracket round j at tournament round j + 1 (1..2k-2): odd rounds pair the losers' bracket among itself
  (round 1: the losers of winners' round 1), even round 2i meets the survivors with the losers of winners' round
  i + 1, in reverse order on every other such round so that two players who just met are kept apart;
- the grand final at round 2k: the winners' bracket winner against the losers' bracket winner; if the latter wins
  (the first loss of the former), the grand final is replayed at round 2k + 1 ("grand_final_reset").

A match whose game is a jigo, both lost or unplayed has no winner yet: the next round cannot be paired
(``PairingError("match_undecided")``) until the director sets a result."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..colours import colours
from ..model import Bye, Entrant, Pairing, PairingError, Result, RoundInput, Why
from ..scores import colour_balance

PHANTOM = ""  # an empty place in the bracket


@dataclass
class Match:
    round: int  # the tournament round it is played in
    bracket: str  # winners, losers, grand_final, grand_final_reset
    number: int  # 1.. within its bracket round
    a: str
    b: str
    winner: str | None = None
    loser: str | None = None
    played: bool = False  # decided by a game (not a walkover)


@dataclass
class Bracket:
    size: int  # places: a power of two
    seeds: list[str]  # the players in seed order
    matches: list[Match] = field(default_factory=list)
    out: dict[str, int] = field(default_factory=dict)  # player -> the tournament round they were eliminated in
    champion: str | None = None
    finished_after: int = 0  # the last round of the event (0: not finished)


def seed_positions(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order: 1, size, ... so that seeds 1 and 2 meet only in the final."""
    order = [1]
    while len(order) < size:
        m = 2 * len(order)
        order = [s for x in order for s in (x, m + 1 - x)]
    return order


def seeded(entrants: tuple[Entrant, ...]) -> list[str]:
    return [e.player_id for e in sorted(entrants, key=lambda e: (-e.rating, e.player_id))]


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


def elimination_rounds(format: str, players: int) -> int:
    """The most tournament rounds the event can take (double elimination: counting the grand final's replay)."""
    if players < 2:
        return 0
    k = bracket_size(players).bit_length() - 1
    return k if format == "single_elimination" else 2 * k + 1


class _Replay:
    """Walks the bracket round by round, deciding each match from the record of that round."""

    def __init__(self, inp: RoundInput) -> None:
        self.inp = inp
        self.double = inp.rules.format == "double_elimination"
        everyone = inp.everyone or inp.entrants
        order = seeded(everyone)
        self.size = bracket_size(len(order))
        self.k = self.size.bit_length() - 1
        places = [order[s - 1] if s <= len(order) else PHANTOM for s in seed_positions(self.size)]
        self.bracket = Bracket(self.size, order)
        self.games: dict[tuple[int, frozenset[str]], Result] = {}
        for r in inp.results:
            self.games[(r.round, frozenset((r.black, r.white)))] = r
        self.byes = {(b.round, b.player): b for b in inp.byes}
        self.winners = places  # the players alive in the winners' bracket, in bracket order
        self.losers: list[str] = []  # alive in the losers' bracket
        self.dropped: dict[int, list[str]] = {}  # winners' round -> its losers, in match order
        self.final: tuple[str, str] | None = None

    def matches_of(self, t: int) -> list[Match]:
        """The matches of tournament round ``t`` (players may be phantoms), from the state after round t - 1."""
        out: list[Match] = []
        if t <= self.k and len(self.winners) > 1:
            w = self.winners
            out += [Match(t, "winners", i // 2 + 1, w[i], w[i + 1]) for i in range(0, len(w), 2)]
        if self.double:
            j = t - 1
            if 1 <= j <= 2 * self.k - 2:
                if j == 1:
                    pool = self.dropped.get(1, [])
                    out += [Match(t, "losers", i // 2 + 1, pool[i], pool[i + 1]) for i in range(0, len(pool), 2)]
                elif j % 2 == 1:
                    pool = self.losers
                    out += [Match(t, "losers", i // 2 + 1, pool[i], pool[i + 1]) for i in range(0, len(pool), 2)]
                else:
                    i_w = j // 2 + 1
                    coming = self.dropped.get(i_w, [])
                    if (j // 2) % 2 == 1:
                        coming = list(reversed(coming))
                    out += [Match(t, "losers", m + 1, self.losers[m], coming[m]) for m in range(len(self.losers))]
            elif t == 2 * self.k and self.k >= 1:
                out.append(Match(t, "grand_final", 1, self.winners[0], self.losers[0] if self.losers else PHANTOM))
            elif t == 2 * self.k + 1 and self.final is not None:
                out.append(Match(t, "grand_final_reset", 1, self.final[0], self.final[1]))
        return out

    def decide(self, m: Match) -> None:
        """Set the match's winner from the record (raises match_undecided / result_missing when it has none)."""
        a, b = m.a, m.b
        if a == PHANTOM or b == PHANTOM:
            m.winner = b if a == PHANTOM else a
            m.loser = PHANTOM
            return
        game = self.games.get((m.round, frozenset((a, b))))
        if game is not None:
            if game.outcome == "B":
                m.winner, m.loser = game.black, game.white
            elif game.outcome == "W":
                m.winner, m.loser = game.white, game.black
            else:
                raise PairingError(
                    "match_undecided", f"round {m.round}: {a} against {b} ended {game.outcome}; the director decides"
                )
            m.played = True
            return
        ba, bb = self.byes.get((m.round, a)), self.byes.get((m.round, b))
        if ba is not None and ba.kind == "bye" and (bb is None or bb.kind == "absent"):
            m.winner, m.loser = a, b
        elif bb is not None and bb.kind == "bye" and (ba is None or ba.kind == "absent"):
            m.winner, m.loser = b, a
        elif ba is not None and bb is not None:  # both absent: the higher place goes on without a game
            m.winner, m.loser = a, b
        else:
            raise PairingError("result_missing", f"round {m.round}: no result for {a} against {b}")

    def apply(self, t: int, matches: list[Match]) -> None:
        winners = [m for m in matches if m.bracket == "winners"]
        losers = [m for m in matches if m.bracket == "losers"]
        if winners:
            self.winners = [m.winner or PHANTOM for m in winners]
            self.dropped[t] = [m.loser or PHANTOM for m in winners]
            if not self.double:
                for m in winners:
                    if m.loser:
                        self.bracket.out[m.loser] = t
        if losers:
            self.losers = [m.winner or PHANTOM for m in losers]
            for m in losers:
                if m.loser:
                    self.bracket.out[m.loser] = t
        for m in matches:
            if m.bracket == "grand_final":
                if m.winner == m.a or m.b == PHANTOM:
                    self.bracket.champion = m.a
                    if m.b:
                        self.bracket.out[m.b] = t
                    self.bracket.finished_after = t
                else:
                    self.final = (m.a, m.b)
            elif m.bracket == "grand_final_reset":
                self.bracket.champion = m.winner
                if m.loser:
                    self.bracket.out[m.loser] = t
                self.bracket.finished_after = t
        if not self.double and t == self.k:
            self.bracket.champion = self.winners[0] if self.winners else None
            self.bracket.finished_after = t
        if self.double and t == 1 and self.k == 1:
            self.losers = list(self.dropped.get(1, []))

    def run(self, upto: int, lenient: bool = False) -> list[Match]:
        """Decide every round before ``upto``; return round ``upto``'s matches (undecided). ``lenient``: stop
        quietly at the first round the record does not decide yet (for placings while the event runs)."""
        for t in range(1, upto):
            matches = self.matches_of(t)
            try:
                for m in matches:
                    self.decide(m)
            except PairingError:
                if lenient:
                    return []
                raise
            self.bracket.matches.extend(matches)
            self.apply(t, matches)
            if self.bracket.finished_after:
                return []
        return self.matches_of(upto)


def replay(inp: RoundInput, upto: int, lenient: bool = False) -> tuple[Bracket, list[Match]]:
    """The bracket as the record of rounds before ``upto`` decides it, and round ``upto``'s matches."""
    r = _Replay(inp)
    pending = r.run(upto, lenient)
    return r.bracket, pending


def pair_elimination(inp: RoundInput) -> tuple[list[Pairing], list[Bye]]:
    bracket, matches = replay(inp, inp.round)
    if bracket.finished_after or not matches:
        raise PairingError("bracket_finished", "the bracket has its champion; no round is left")
    gone = set(inp.absent) | set(inp.withdrawn)
    here = {e.player_id for e in inp.entrants} - gone
    balance = colour_balance(inp.results)
    last_black: dict[str, bool] = {}
    for r in sorted(inp.results, key=lambda r: r.round):
        if r.outcome != "unplayed":
            last_black[r.black], last_black[r.white] = True, False
    pairings: list[Pairing] = []
    byes: list[Bye] = []
    for m in matches:
        figures = (("match", float(m.number)),)
        live = [p for p in (m.a, m.b) if p != PHANTOM]
        present = [p for p in live if p in here]
        if len(present) == 2:
            black, white, note = colours(m.a, m.b, balance, last_black, inp.rules.seed, inp.round)
            stage = f"{m.bracket}_bracket" if m.bracket in ("winners", "losers") else m.bracket
            why = Why("elimination", (stage, note), figures)
            pairings.append(Pairing(len(pairings) + 1, black, white, 0, "even", why, m.bracket, m.number))
            continue
        for p in live:
            if p in present:
                note = "walkover_empty_place" if len(live) == 1 else "walkover_opponent_absent"
                byes.append(Bye(inp.round, p, "bye", Why("elimination", (note,), figures)))
            else:
                byes.append(Bye(inp.round, p, "absent", Why("absent", ("not_checked_in",), figures)))
    return pairings, byes


def placings(inp: RoundInput) -> list[tuple[int, str]]:
    """(place, player) for everyone once the bracket is decided as far as the record goes: the champion first,
    then by the round they went out in, later is better; players out in the same round share the place."""
    bracket, _ = replay(inp, elimination_rounds(inp.rules.format, len(inp.everyone or inp.entrants)) + 1, True)
    players = list(bracket.seeds)
    key: dict[str, int] = {}
    for p in players:
        if p == bracket.champion:
            key[p] = 1_000_000
        elif p in bracket.out:
            key[p] = bracket.out[p]
        else:
            key[p] = 999_999  # still in: ahead of everyone already out
    ordered = sorted(players, key=lambda p: -key[p])
    out: list[tuple[int, str]] = []
    for p in ordered:
        place = 1 + sum(1 for q in players if key[q] > key[p])
        out.append((place, p))
    return out
