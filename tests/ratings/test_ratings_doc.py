"""docs/ratings.md's tables of ranks and starting ratings, read from the page and checked against the code's
own formula (app/ratings/ranks.py), so that the page cannot drift from what the server computes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.ratings import ranks

DOC = Path(__file__).resolve().parents[2] / "docs" / "ratings.md"
NUMBER = re.compile(r"\d+")


def _rows(heading: str) -> list[list[str]]:
    """The body rows of the first table under ``## heading``, each as its cells."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    assert len(lines) > 2, f"no table under '{heading}'"
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines[2:]]


def _bounds(cell: str) -> tuple[int | None, int | None]:
    """``below 1`` -> (None, 1); ``24 ≤ n < 25`` and ``1480 – 1546`` -> (24, 25); ``n ≥ 38``, ``2710 and above``
    -> (38, None). What follows in parentheses is left out."""
    numbers = [int(n) for n in NUMBER.findall(cell.split("(")[0])]
    if cell.startswith("below"):
        return None, numbers[0]
    if len(numbers) == 1:
        return numbers[0], None
    return numbers[0], numbers[1]


def test_the_rank_table_gives_the_formulas_rank_and_rating_bounds() -> None:
    rows = _rows("Ranks")
    assert len(rows) >= 5
    for n_cell, label, rating_cell in rows:
        low, high = _bounds(n_cell)
        r_low, r_high = _bounds(rating_cell)
        inside = [n for n in (low, None if high is None else high - 0.001) if n is not None] or [0.5]
        assert {ranks.label_for_number(n) for n in inside} == {label}, n_cell
        assert r_low == (None if low is None else round(ranks.rating_for_rank_number(low))), rating_cell
        assert r_high == (None if high is None else round(ranks.rating_for_rank_number(high))), rating_cell
        for rating, example in re.findall(r"\((\d+) is (\w+)\)", rating_cell):
            assert ranks.rank_label(float(rating)) == example, rating_cell


def test_the_starting_table_gives_the_codes_starting_ratings() -> None:
    rows = _rows("Starting ranks")
    assert len(rows) >= 5
    for said, starts_at, rating_cell in rows:
        words = re.findall(r"`([^`]+)`", said)
        if rating_cell == "its middle":  # a rank the player knows: the middle of that rank
            assert words
            for rank in words:
                start = ranks.starting_rating(rank).rating
                assert ranks.rank_label(start) == rank
                assert ranks.rank_number(start) == pytest.approx(ranks.parse_rank(rank), abs=0.01)  # x.5: the middle
            continue
        strength = words[0] if words else None  # no word: a player who said nothing
        start = ranks.starting_rating(strength).rating
        assert int(rating_cell) == round(start), said
        assert ranks.rank_label(start) == starts_at, said
