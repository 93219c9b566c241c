"""Pairing a round: ``pair_round(RoundInput) -> RoundPairing`` for the round-based formats (McMahon, Swiss, round
robin, elimination, simultaneous); the arena pairs whoever is free with ``pair_arena``. The same input, seed
included, gives the same pairing; each pairing and bye carries its ``why``."""

from __future__ import annotations

from ..digest import inputs_digest
from ..model import Bye, Pairing, PairingError, RoundInput, RoundPairing
from .mcmahon import pair_mcmahon
from .round_robin import pair_round_robin
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
    else:
        raise PairingError("format_not_paired_here", f"{inp.rules.format} is not paired by pair_round yet")
    return RoundPairing(inp.round, tuple(pairings), tuple(byes), inputs_digest(inp))


__all__ = ["PairingError", "pair_round"]
