"""McMahon: pairing within McMahon score groups (app/tournaments/mcmahon_score.py), with a handicap from the MMS
difference when the rules ask for one (app/tournaments/handicap.py)."""

from __future__ import annotations

from collections.abc import Mapping

from ..handicap import handicap_for
from ..mcmahon_score import mcmahon_scores
from ..model import Bye, Pairing, RoundInput
from .scored import pair_by_score


def pair_mcmahon(inp: RoundInput) -> tuple[list[Pairing], list[Bye]]:
    scores = mcmahon_scores(inp.rules, inp.everyone or inp.entrants, inp.results, inp.byes, inp.round)

    def handicapper(black: str, white: str, mms: Mapping[str, float]) -> tuple[int, str]:
        return handicap_for(inp.rules, mms.get(black, 0.0), mms.get(white, 0.0))

    return pair_by_score(inp, scores, handicapper)
