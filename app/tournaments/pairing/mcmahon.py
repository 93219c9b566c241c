"""McMahon: pairing within McMahon score groups (app/tournaments/mcmahon_score.py), with a handicap from the MMS
difference when the rules ask for one (app/tournaments/handicap.py)."""

from __future__ import annotations

from ..model import Bye, Pairing, RoundInput
from ..mcmahon_score import mcmahon_scores
from .scored import pair_by_score


def pair_mcmahon(inp: RoundInput) -> tuple[list[Pairing], list[Bye]]:
    scores = mcmahon_scores(inp.rules, inp.everyone or inp.entrants, inp.results, inp.byes, inp.round)
    return pair_by_score(inp, scores)
