"""Handicap in a McMahon event, by the EGF's rule: the difference of the two McMahon scores (rounded down), less
the rules' correction, capped at the rules' ceiling. 0 is an even game with normal komi; 1 is "no komi" (black
moves first, komi 0.5); 2 or more are that many stones, komi 0.5. The weaker (lower MMS) player takes black."""

from __future__ import annotations

import math

from .model import TournamentRules


def handicap_stones(rules: TournamentRules, mms_a: float, mms_b: float) -> int:
    """Stones for a game between players of McMahon scores ``mms_a`` and ``mms_b`` (0 without handicaps)."""
    if rules.format != "mcmahon" or not rules.handicap:
        return 0
    diff = math.floor(abs(mms_a - mms_b)) - rules.handicap_correction
    return max(0, min(diff, rules.handicap_ceiling))


def komi_note(stones: int) -> str:
    """The Pairing's ``komi_note`` for that many stones."""
    if stones == 0:
        return "even"
    return "no_komi" if stones == 1 else "handicap"


def handicap_for(rules: TournamentRules, black_mms: float, white_mms: float) -> tuple[int, str]:
    stones = handicap_stones(rules, black_mms, white_mms)
    return stones, komi_note(stones)
