"""Standings and tie-breaks on a small McMahon worked by hand (a bye, an absence, a jigo), and direct
confrontation in a Swiss."""

from __future__ import annotations

from app.tournaments.model import Bye, Entrant, Result, TieBreak, TournamentRules
from app.tournaments.standings import TIEBREAK_DEFINITIONS, standings
from app.tournaments.validation import MAX_ROUNDS, rounds_needed, validate_rules

ALL: tuple[TieBreak, ...] = ("sos", "sos_minus_1", "sosos", "sodos", "cuss")

# ranks 2d 1d 1k 2k 3k with the top bar at 1d (31) and the bottom at 2k (28 + 1 = 29): starts 31 31 30 29 29
FIELD = (
    Entrant("A", "Ann", 2200, 31),
    Entrant("B", "Bo", 2150, 32),
    Entrant("C", "Cy", 2050, 30),
    Entrant("D", "Di", 1950, 29),
    Entrant("E", "Ed", 1900, 28),
)
RULES = TournamentRules("mcmahon", 2, top_bar=31, bottom_bar=29, tiebreaks=ALL)
RESULTS = (
    Result(1, "A", "B", "W"),
    Result(1, "C", "D", "jigo"),
    Result(2, "B", "C", "B"),
    Result(2, "A", "E", "B"),
)
BYES = (Bye(1, "E", "bye"), Bye(2, "D", "absent"))


def test_a_small_mcmahon_by_hand() -> None:
    rows = standings(RULES, FIELD, RESULTS, BYES)
    table = {r.player_id: (r.place, r.score, r.wins, dict(r.figures)) for r in rows}
    # MMS: A 31+1, B 31+2, C 30+1/2 (the jigo is half a point, never a win for black), D 29+1/2, E 29+1 (the bye)
    assert [r.player_id for r in rows] == ["B", "A", "C", "E", "D"]
    assert table["B"][:3] == (1, 33.0, 2.0)
    assert table["C"][:3] == (3, 30.5, 0.5)
    assert table["E"][:3] == (4, 30.0, 0.0)
    # SOS: a round without an opponent counts the player's own starting MMS (E's bye: 29; D's absence: 29)
    assert {p: f["sos"] for p, (_, _, _, f) in table.items()} == {"A": 63, "B": 62.5, "C": 62.5, "D": 59.5, "E": 61}
    assert {p: f["sos_minus_1"] for p, (_, _, _, f) in table.items()} == {
        "A": 33,
        "B": 32,
        "C": 33,
        "D": 30.5,
        "E": 32,
    }
    assert {p: f["sosos"] for p, (_, _, _, f) in table.items()} == {
        "A": 123.5,
        "B": 125.5,
        "C": 122,
        "D": 62.5,
        "E": 63,
    }
    assert {p: f["sodos"] for p, (_, _, _, f) in table.items()} == {
        "A": 30,
        "B": 62.5,
        "C": 14.75,
        "D": 15.25,
        "E": 0,
    }
    assert {p: f["cuss"] for p, (_, _, _, f) in table.items()} == {"A": 63, "B": 65, "C": 61, "D": 59, "E": 60}
    assert set(TIEBREAK_DEFINITIONS) == {*ALL, "direct"}


def test_in_a_swiss_a_missing_opponent_counts_zero_and_direct_confrontation_splits_a_tie() -> None:
    field = tuple(Entrant(p, p, 2000 - i, 30) for i, p in enumerate("ABCD"))
    results = (Result(1, "A", "B", "B"), Result(1, "C", "D", "B"), Result(2, "A", "C", "W"), Result(2, "B", "D", "B"))
    direct = standings(TournamentRules("swiss", 2, tiebreaks=("direct",)), field, results, ())
    assert [(r.place, r.player_id) for r in direct] == [(1, "C"), (2, "A"), (3, "B"), (4, "D")]
    assert dict(direct[1].figures) == {"direct": 1.0} and dict(direct[2].figures) == {"direct": 0.0}
    shared = standings(TournamentRules("swiss", 2, tiebreaks=()), field, results, ())
    assert [(r.place, r.player_id) for r in shared] == [(1, "C"), (2, "A"), (2, "B"), (4, "D")]
    with_bye = standings(TournamentRules("swiss", 2, tiebreaks=("sos",)), field, results[:2], (Bye(2, "A"),))
    assert dict(next(r for r in with_bye if r.player_id == "A").figures) == {"sos": 0.0}


def test_every_rules_error_has_its_code() -> None:
    def codes(rules: TournamentRules, players: int | None = None) -> set[str]:
        return set(validate_rules(rules, players))

    assert codes(RULES, 40) == set()
    assert "rounds_too_few" in codes(TournamentRules("swiss", 0))
    assert "rounds_too_many" in codes(TournamentRules("swiss", MAX_ROUNDS + 1))
    assert "bars_only_in_mcmahon" in codes(TournamentRules("swiss", 3, top_bar=30))
    assert "bars_only_in_mcmahon" in codes(TournamentRules("single_elimination", 3, bottom_bar=20, tiebreaks=()))
    assert "handicap_only_in_mcmahon" in codes(TournamentRules("swiss", 3, handicap=True))
    assert "bars_crossed" in codes(TournamentRules("mcmahon", 3, top_bar=20, bottom_bar=30))
    assert "bar_out_of_range" in codes(TournamentRules("mcmahon", 3, top_bar=50))
    assert "handicap_correction_out_of_range" in codes(TournamentRules("mcmahon", 3, handicap_correction=-1))
    assert "handicap_ceiling_out_of_range" in codes(TournamentRules("mcmahon", 3, handicap_ceiling=10))
    assert "tiebreak_repeated" in codes(TournamentRules("swiss", 3, tiebreaks=("sos", "sos")))
    assert codes(TournamentRules("single_elimination", 3), 8) == set()  # tie-breaks are ignored there, not refused
    assert "host_missing" in codes(TournamentRules("simultaneous", 1, tiebreaks=()))
    assert "simultaneous_one_round" in codes(TournamentRules("simultaneous", 2, tiebreaks=(), host="h"))
    assert "host_only_in_simultaneous" in codes(TournamentRules("swiss", 3, host="h"))
    assert "arena_minutes_missing" in codes(TournamentRules("arena", 0))
    assert "arena_too_long" in codes(TournamentRules("arena", 0, arena_minutes=10_000))
    assert "arena_has_no_rounds" in codes(TournamentRules("arena", 3, arena_minutes=60))
    assert "arena_minutes_only_in_arena" in codes(TournamentRules("swiss", 3, arena_minutes=60))
    assert "too_few_players" in codes(TournamentRules("swiss", 3), 1)
    assert "too_many_players" in codes(TournamentRules("swiss", 3), 5000)
    assert "round_robin_too_large" in codes(TournamentRules("round_robin", 20), 31)
    assert "simultaneous_too_large" in codes(TournamentRules("simultaneous", 1, tiebreaks=(), host="h"), 60)
    assert "rounds_exceed_opponents" in codes(TournamentRules("swiss", 6), 4)
    assert "rounds_round_robin_mismatch" in codes(TournamentRules("round_robin", 3), 6)
    assert "rounds_elimination_mismatch" in codes(TournamentRules("double_elimination", 3, tiebreaks=()), 8)


def test_rounds_needed() -> None:
    assert rounds_needed("swiss", 500) == 9
    assert rounds_needed("round_robin", 7) == 7 and rounds_needed("round_robin", 8) == 7
    assert rounds_needed("single_elimination", 9) == 4
    assert rounds_needed("double_elimination", 8) == 7  # 3 + 3 + the grand final's replay
    assert rounds_needed("simultaneous", 20) == 1 and rounds_needed("arena", 100) == 0
