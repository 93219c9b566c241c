"""Pairing a round: ``pair_round(RoundInput) -> RoundPairing`` for the round-based formats (McMahon, Swiss, round
robin, elimination, simultaneous); the arena pairs whoever is free with ``pair_arena``. The same input, seed
included, gives the same pairing; each pairing and bye carries its ``why``."""

from __future__ import annotations

from ..digest import inputs_digest
from ..model import Bye, Pairing, PairingError, RoundInput, RoundPairing
from .elimination import pair_elimination
from .mcmahon import pair_mcmahon
from .round_robin import pair_round_robin
from .simultaneous import pair_simultaneous
from .swiss import pair_swiss


def pair_round(inp: RoundInput) -> RoundPairing:
    """The pairing of round ``inp.round`` (PairingError with a code when it cannot be paired)."""
    if inp.round < 1 or inp.round > inp.rules.rounds:
        raise PairingError("round_out_of_range", f"rounds run from 1 to {inp.rules.rounds}")
    pairings: list[Pairing]
    byes: list[Bye]
    if inp.rules.format == "round_robin":
        pairings, byes = pair_round_robin(inp)
    elif inp.rules.format == "mcmahon":
        pairings, byes = pair_mcmahon(inp)
    elif inp.rules.format == "swiss":
        pairings, byes = pair_swiss(inp)
    elif inp.rules.format in ("single_elimination", "double_elimination"):
        pairings, byes = pair_elimination(inp)
    elif inp.rules.format == "simultaneous":
        pairings, byes = pair_simultaneous(inp)
    else:
        raise PairingError("format_not_paired_here", f"{inp.rules.format} is paired by pair_arena, not by rounds")
    return RoundPairing(inp.round, tuple(pairings), tuple(byes), inputs_digest(inp))


__all__ = ["PairingError", "pair_round"]
