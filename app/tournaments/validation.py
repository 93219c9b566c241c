"""Checking a ``TournamentRules`` before an event is created or changed: every contradiction and every limit is
its own error code (snake_case; the page translates ``tournament_error_<code>``), so the director sees all that
is wrong at once. And how many rounds a format needs for a field."""

from __future__ import annotations

import math

from .model import FORMATS, LOWEST_RANK, TOP_RANK, TournamentRules
from .pairing.elimination import elimination_rounds

MAX_ROUNDS = 20  # a Swiss or McMahon: more is a ladder, not an event
MAX_PLAYERS = 2000  # the pairing is measured for 500 (bench/tournament_pairing.py); 2,000 stays within seconds
MAX_ROUND_ROBIN_PLAYERS = 30  # 29 rounds already
MAX_HANDICAP = 9
MAX_ARENA_MINUTES = 24 * 60
MAX_SIMULTANEOUS_GUESTS = 50

ROUND_FORMATS = ("mcmahon", "swiss")
ELIMINATION = ("single_elimination", "double_elimination")


def rounds_needed(format: str, players: int) -> int:
    """Rounds for ``players``: a Swiss or McMahon, enough for a single unbeaten winner (ceil(log2 n)); a round
    robin, one against each (one more with an odd field, for the byes); an elimination, its bracket's rounds
    (double: counting the grand final's replay); a simultaneous, one; an arena is timed, not in rounds (0)."""
    if players < 2:
        return 0
    if format in ROUND_FORMATS:
        return max(1, math.ceil(math.log2(players)))
    if format == "round_robin":
        return players - 1 if players % 2 == 0 else players
    if format in ELIMINATION:
        return elimination_rounds(format, players)
    if format == "simultaneous":
        return 1
    return 0


def validate_rules(rules: TournamentRules, players: int | None = None) -> list[str]:
    """Every problem with ``rules`` (and, when given, with a field of ``players``), as error codes; [] if none."""
    errors: list[str] = []
    fmt = rules.format
    if fmt not in FORMATS:
        return ["format_unknown"]
    if fmt == "arena":
        if rules.rounds != 0:
            errors.append("arena_has_no_rounds")
        if rules.arena_minutes < 1:
            errors.append("arena_minutes_missing")
        elif rules.arena_minutes > MAX_ARENA_MINUTES:
            errors.append("arena_too_long")
    else:
        if rules.arena_minutes:
            errors.append("arena_minutes_only_in_arena")
        if rules.rounds < 1:
            errors.append("rounds_too_few")
        elif rules.rounds > MAX_ROUNDS:
            errors.append("rounds_too_many")
    if fmt != "mcmahon":
        if rules.top_bar is not None or rules.bottom_bar is not None:
            errors.append("bars_only_in_mcmahon")
        if rules.handicap:
            errors.append("handicap_only_in_mcmahon")
    else:
        for bar in (rules.top_bar, rules.bottom_bar):
            if bar is not None and not LOWEST_RANK <= bar <= TOP_RANK:
                errors.append("bar_out_of_range")
                break
        if rules.top_bar is not None and rules.bottom_bar is not None and rules.top_bar < rules.bottom_bar:
            errors.append("bars_crossed")
    if not 0 <= rules.handicap_correction <= MAX_HANDICAP:
        errors.append("handicap_correction_out_of_range")
    if not 0 <= rules.handicap_ceiling <= MAX_HANDICAP:
        errors.append("handicap_ceiling_out_of_range")
    if len(set(rules.tiebreaks)) != len(rules.tiebreaks):
        errors.append("tiebreak_repeated")
    if fmt == "simultaneous":
        if not rules.host:
            errors.append("host_missing")
        if rules.rounds != 1:
            errors.append("simultaneous_one_round")
    elif rules.host is not None:
        errors.append("host_only_in_simultaneous")
    if players is not None:
        if players < 2:
            errors.append("too_few_players")
        elif players > MAX_PLAYERS:
            errors.append("too_many_players")
        elif fmt == "round_robin" and players > MAX_ROUND_ROBIN_PLAYERS:
            errors.append("round_robin_too_large")
        elif fmt == "simultaneous" and players - 1 > MAX_SIMULTANEOUS_GUESTS:
            errors.append("simultaneous_too_large")
        elif fmt in ROUND_FORMATS and rules.rounds > players - 1 + players % 2 and players >= 2:
            errors.append("rounds_exceed_opponents")
        elif fmt == "round_robin" and rules.rounds != rounds_needed(fmt, players):
            errors.append("rounds_round_robin_mismatch")
        elif fmt in ELIMINATION and rules.rounds != rounds_needed(fmt, players):
            errors.append("rounds_elimination_mismatch")
    return errors
