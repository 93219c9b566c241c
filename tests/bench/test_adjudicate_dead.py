"""``bench/adjudicate_dead.py`` writes the adjudicated truths of the dead-stone set beside it, each with how it was
settled, and skips the positions already there; ``dead_stone_oracle.py --truths`` judges against them. Only the
shape is checked (two positions, GNU Go at level 1, few visits: the figures are the bench's business)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench.runs import bench_lines
from tests.rules.dead_positions import Truth, load, load_truths, parse_truths
from tests.support.katago import katago_dir
from tests.support.services import need_gnugo

__all__ = ["katago_dir"]

ADJUDICATED = re.compile(r"^positions=(\d+) adjudicated=\d+ playout_overruled=\d+$")
JUDGED = re.compile(
    r"^positions=2 katago_gnugo=.* katago_truth=[0-2] playouts_truth=[0-2] gnugo_truth=[0-2]"
    r" deeper=\d settled=\d over_budget=\d proposal_p50_s="
)


def test_a_truth_reads_back_as_written() -> None:
    truth = Truth("level 1 seed 9 game 0", {(0, 6), (7, 1)}, "KataGo 96 visits ...; play-out (GNU Go level 10)")
    assert parse_truths(truth.to_text(9) + Truth("other", set(), "x").to_text(9), 9) == {
        "level 1 seed 9 game 0": truth,
        "other": Truth("other", set(), "x"),
    }


def test_the_stored_truths_are_of_the_stored_positions() -> None:
    for size in (9, 13, 19):
        notes = {position.note for position in load(size)}
        truths = load_truths(size)
        assert set(truths) <= notes
        assert all(truth.how for truth in truths.values())


@pytest.mark.katago
@pytest.mark.timeout(620)
def test_positions_are_adjudicated_once_and_written_with_how(katago_dir: Path, tmp_path: Path) -> None:
    need_gnugo()
    out = tmp_path / "truths.txt"
    args = ("--size", "9", "--limit", "2", "--level", "1", "--visits", "4", "--engines", str(katago_dir), "--out", str(out))
    last = bench_lines("adjudicate_dead.py", *args, last=ADJUDICATED, timeout=600)[-1]
    assert last.startswith("positions=2 ")
    truths = parse_truths(out.read_text(), 9)
    assert list(truths) == [position.note for position in load(9)[:2]]
    assert all(truth.how.startswith(("play-out", "KataGo")) for truth in truths.values())
    # Again: the two are kept as they are, and the next two are adjudicated.
    again = bench_lines("adjudicate_dead.py", *args, last=ADJUDICATED, timeout=600)[-1]
    assert again.startswith("positions=2 ")
    more = parse_truths(out.read_text(), 9)
    assert list(more) == [position.note for position in load(9)[:4]]
    assert all(more[note] == truth for note, truth in truths.items())


@pytest.mark.katago
@pytest.mark.timeout(620)
def test_the_judges_against_the_stored_truths(katago_dir: Path) -> None:
    lines = bench_lines(
        "dead_stone_oracle.py", "--size", "9", "--visits", "1", "--limit", "2", "--truths", "--engines", str(katago_dir),
        last=JUDGED, timeout=600,
    )  # fmt: skip
    assert any(line.startswith("identical with the adjudicated truths") for line in lines)
