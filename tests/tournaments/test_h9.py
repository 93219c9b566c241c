"""The EGD export of the hand-worked McMahon (tests/tournaments/test_standings.py): header, one line per player
in final order, each round as opponent's place, result, colour and handicap."""

from __future__ import annotations

from dataclasses import replace

from app.tournaments.h9 import H9Event, export_h9
from app.tournaments.model import Entrant, Result
from app.tournaments.standings import standings

from .test_standings import BYES, FIELD, RESULTS, RULES

EVENT = H9Event("Tengen Cup", "Praha", "CZ", "2026-12-05", "2026-12-06", "B", 6.5, 60)


def test_h9_lines() -> None:
    rules = replace(RULES, tiebreaks=("sos", "sosos"))
    table = standings(rules, FIELD, RESULTS, BYES)
    text = export_h9(EVENT, rules, FIELD, table, RESULTS, BYES, 2)
    lines = text.splitlines()
    assert lines[:8] == [
        "; CL[B]",
        "; EV[Tengen Cup]",
        "; PC[CZ,Praha]",
        "; DT[2026-12-05,2026-12-06]",
        "; HA[h0]",
        "; KM[6.5]",
        "; TM[60]",
        "; CM[Tengen]",
    ]
    body = [line.split() for line in lines if not line.startswith(";")]
    # place, surname, first name, rank, country, club, MMS, SOS, SOSOS, round 1, round 2
    assert body[0] == ["1", "Bo", "-", "3d", "CZ", "Tengen", "33", "62.5", "125.5", "2+/w", "3+/b"]
    assert body[1] == ["2", "Ann", "-", "2d", "CZ", "Tengen", "32", "63", "123.5", "1-/b", "4+/b"]
    assert body[2][9:] == ["5=/b", "1-/w"]  # C: a jigo with D (place 5) as black, then lost to B as white
    assert body[3][9:] == ["0+", "2-/w"]  # E: the bye, then lost to A
    assert body[4][9:] == ["3=/w", "0-"]  # D: the jigo, then absent


def test_h9_handicap_and_names_in_ascii() -> None:
    field = (Entrant("x", "Zoë van Dijk", 2000, 30), Entrant("y", "李 明", 1800, 27))
    rules = replace(RULES, rounds=1, top_bar=None, bottom_bar=None, handicap=True, tiebreaks=())

    results = (Result(1, "y", "x", "W"),)
    table = standings(rules, field, results, ())
    text = export_h9(EVENT, rules, field, table, results, (), 1)
    body = [line.split() for line in text.splitlines() if not line.startswith(";")]
    assert "; HA[h9]" in text
    assert body[0][:3] == ["1", "Dijk", "Zo?_van"] and body[0][-1] == "2+/w3"
    assert body[1][:2] == ["2", "?"] and body[1][-1] == "1-/b3"
    assert text.isascii()
