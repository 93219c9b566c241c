"""Swiss: pairing by points (wins, a jigo 1/2, a bye 1); no bars, no handicap."""

from __future__ import annotations

from ..model import Bye, Pairing, RoundInput
from ..scores import points
from .scored import pair_by_score


def pair_swiss(inp: RoundInput) -> tuple[list[Pairing], list[Bye]]:
    everyone = inp.everyone or inp.entrants
    won = points(inp.results, inp.byes, inp.round)
    scores = {e.player_id: won.get(e.player_id, 0.0) for e in everyone}
    return pair_by_score(inp, scores)
