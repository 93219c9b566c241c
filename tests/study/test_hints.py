"""Engine hints from a GTP engine process: an engine without GNU Go's ``top_moves`` is asked ``reg_genmove``;
an engine that fails to start or answer is ``hints_unavailable``; answers are read as points of the board."""

import sys
from pathlib import Path

import pytest

from app.errors import ServiceError
from app.study.hints import HintEngine, _parse
from app.study.tree import Setup

PLAIN = f"{sys.executable} {Path(__file__).with_name('plain_gtp.py')}"


async def test_an_engine_without_top_moves_is_asked_for_its_move():
    engine = HintEngine(PLAIN, seconds=30)
    answer = await engine.top_moves(Setup(size=9), [("B", (0, 0)), ("W", (1, 0))])
    assert answer == {"to_move": "B", "moves": [{"point": [2, 0], "value": None}]}
    handicap = await engine.top_moves(Setup(size=9, handicap=2, black=((0, 0), (8, 8))), [])
    assert handicap["to_move"] == "W" and handicap["moves"] == [{"point": [1, 0], "value": None}]


@pytest.mark.parametrize("command", [None, "/bin/false", "/nonexistent/engine"])
async def test_no_engine_or_a_broken_one_is_unavailable(command):
    with pytest.raises(ServiceError) as err:
        await HintEngine(command, seconds=30).top_moves(Setup(size=9), [])
    assert err.value.code == "hints_unavailable" and err.value.status == 503


def test_answers_are_read_as_points_passes_and_values():
    assert _parse("D5 75.01 pass 3.5 resign Z99 C3", 9) == [
        {"point": [3, 4], "value": 75.01},
        {"point": None, "value": 3.5},
        {"point": [2, 6], "value": None},
    ]
    assert _parse("", 9) == []
    assert len(_parse(" ".join(f"{c}1 1.0" for c in "ABCDEFGH"), 9)) == 5
