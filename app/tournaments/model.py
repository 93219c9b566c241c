"""The values the tournament core works on: entrants, rules, results, byes, a round's input and its pairing.

Pure dataclasses, standard library only. Ranks are whole numbers on the scale of ``app/ratings/ranks.py``'s rank
number (its floor): 30k = 0, 29k = 1, ... 1k = 29, 1d = 30, ... 9d = 38 (``DAN_START``); one rank apart is one
apart. Player ids are strings (the runtime passes its user ids as text).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

Format = Literal["mcmahon", "swiss", "round_robin", "single_elimination", "double_elimination", "arena", "simultaneous"]
FORMATS: tuple[Format, ...] = get_args(Format)

Outcome = Literal["B", "W", "jigo", "both_lose", "unplayed"]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)

ByeKind = Literal["bye", "absent"]

TieBreak = Literal["sos", "sos_minus_1", "sosos", "sodos", "cuss", "direct"]
TIEBREAKS: tuple[TieBreak, ...] = get_args(TieBreak)

DAN_START = 30  # the rank number of 1 dan, as in app/ratings/ranks.py
TOP_RANK = 38  # 9 dan
LOWEST_RANK = 0  # 30 kyu


def rank_label(rank: int) -> str:
    """``30k`` ... ``1k``, ``1d`` ... ``9d`` for a rank on this scale."""
    if rank >= DAN_START:
        return f"{min(rank, TOP_RANK) - DAN_START + 1}d"
    return f"{DAN_START - max(rank, LOWEST_RANK)}k"


@dataclass(frozen=True)
class Entrant:
    player_id: str
    name: str
    rating: float
    rank: int
    registered_round: int = 1  # the first round the player may be paired in (late registration)


@dataclass(frozen=True)
class TournamentRules:
    format: Format
    rounds: int
    top_bar: int | None = None  # McMahon only: a rank; everyone at or above it starts equal
    bottom_bar: int | None = None  # McMahon only: a rank; everyone at or below it starts equal
    handicap: bool = False  # McMahon: handicap from the MMS difference
    handicap_correction: int = 0  # stones taken off the MMS difference (EGF: usually 1 or 2)
    handicap_ceiling: int = 9  # the most stones given
    tiebreaks: tuple[TieBreak, ...] = ("sos", "sosos")
    seed: int = 0
    host: str | None = None  # simultaneous only: the player who plays everyone else
    arena_minutes: int = 0  # arena only: how long the arena runs


@dataclass(frozen=True)
class Result:
    round: int
    black: str
    white: str
    outcome: Outcome  # "jigo" is a jigo: half a point each, never recorded as B+0
    by_forfeit: bool = False  # decided without play (a no-show opponent, the director); not rated


@dataclass(frozen=True)
class Why:
    """Why a pairing or a bye came out as it did, for the page: ``rule`` names the rule applied, ``notes`` are
    keys the page translates (``same_score_group``, ``floated_down``, ``repeat_unavoidable``, ...), ``figures``
    the numbers behind them (name, value), e.g. ``("black_score", 3.0)``."""

    rule: str
    notes: tuple[str, ...] = ()
    figures: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Bye:
    round: int
    player: str
    kind: ByeKind = "bye"  # "bye": no opponent left for them (scores as a win); "absent": not there
    why: Why | None = None  # set on the byes a pairing gives; history may leave it out


@dataclass(frozen=True)
class RoundInput:
    rules: TournamentRules
    entrants: tuple[Entrant, ...]  # present and eligible this round
    round: int
    absent: tuple[str, ...] = ()  # registered, not checked in this round (given an "absent" bye)
    withdrawn: tuple[str, ...] = ()  # left the event: never paired again
    results: tuple[Result, ...] = ()  # every earlier round's games
    byes: tuple[Bye, ...] = ()  # every earlier round's byes and absences
    everyone: tuple[Entrant, ...] = field(default=())  # all entrants ever registered (for scores); defaults to entrants


@dataclass(frozen=True)
class Pairing:
    board: int  # 1 is the top board
    black: str
    white: str
    handicap: int  # 0: even game
    komi_note: str  # "even" (normal komi), "no_komi" (handicap 1: black moves first, komi 0.5), "handicap"
    why: Why
    bracket: str = ""  # elimination: "winners", "losers", "grand_final", "grand_final_reset"; else ""
    match: int = 0  # elimination: the match's number within its bracket round (1 from the top); else 0


@dataclass(frozen=True)
class RoundPairing:
    round: int
    pairings: tuple[Pairing, ...]
    byes: tuple[Bye, ...]
    inputs_digest: str  # sha256 of the RoundInput's canonical JSON: the same input gives the same pairing


class PairingError(Exception):
    """A round that cannot be paired as asked: a snake_case ``code`` and a human ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
