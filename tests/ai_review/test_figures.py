"""The AI review's derived figures from hand-built raw figures (app/ai_review/figures.py, docs/review.md)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.ai_review.figures import (
    CATEGORIES,
    MAX_LISTED,
    accuracy,
    boards,
    category,
    changed_hands,
    derive,
    points_lost,
)
from app.rules import from_gtp


def pos(i: int, lead: float, ownership: Any = None, best: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A raw figure as the backend stores it (docs/review.md): Black's lead, Black's win rate, candidates."""
    return {
        "i": i,
        "depth": "quick",
        "visits": 8,
        "winrate": 0.5,
        "score_lead": lead,
        "ownership": ownership,
        "best": best or [],
    }


def cand(point: Any, lead: float = 0.0, pv: list[Any] | None = None, ownership: Any = None) -> dict[str, Any]:
    return {"point": point, "winrate": 0.5, "score_lead": lead, "visits": 4, "pv": pv or [point], "ownership": ownership}


def flat(size: int, value: float) -> list[list[float]]:
    return [[value] * size for _ in range(size)]


def at(size: int, label: str) -> list[int]:
    x, y = from_gtp(label, size)
    return [x, y]


# -- points lost ------------------------------------------------------------------------------------------


def test_points_lost_is_the_lead_before_minus_after_from_the_movers_side() -> None:
    moves = [("B", [2, 2]), ("W", [6, 6]), ("B", [4, 4])]
    raw = [pos(0, 0.5), pos(1, -2.5), pos(2, -1.0), pos(3, 3.0)]
    # Black 0.5 -> -2.5 loses 3; White's lead (the negation) 2.5 -> 1.0 loses 1.5; Black -1.0 -> 3.0 gains 4.
    assert points_lost(moves, raw) == [None, 3.0, 1.5, -4.0]


def test_a_null_position_leaves_both_moves_beside_it_without_figures() -> None:
    moves = [("B", [2, 2]), ("W", [6, 6]), ("B", [4, 4]), ("W", [5, 5])]
    raw = [pos(0, 0.5), pos(1, 0.0), None, pos(3, 2.0), pos(4, 13.0)]
    out = derive(9, moves, raw)
    assert out["points_lost"] == [None, 0.5, None, None, 11.0]
    assert out["categories"] == [None, "good", None, None, "blunder"]
    assert out["summary"]["B"]["moves"] == 1  # move 3 (from the null position 2) is not counted
    assert out["summary"]["W"]["moves"] == 1
    assert [m["i"] for m in out["mistakes"]["W"]] == [4]
    # figures not yet computed at the end of the list: the moves there have none
    assert points_lost(moves, raw[:3]) == [None, 0.5, None, None, None]


def test_handicap_white_moves_first_and_the_handicap_stones_are_on_the_board() -> None:
    size = 9
    setup = {"B": [at(size, "C3"), at(size, "G7")], "W": []}
    moves = [("W", at(size, "C4")), ("B", at(size, "D4"))]
    raw = [pos(0, 12.0), pos(1, 14.0), pos(2, 4.0)]
    out = derive(size, moves, raw, setup=setup)
    # White's first move lets Black's lead grow by 2: White lost 2; Black then lost 10.
    assert out["points_lost"] == [None, 2.0, 10.0]
    assert out["categories"] == [None, "inaccuracy", "blunder"]
    assert out["summary"]["W"]["categories"]["inaccuracy"] == 1
    assert out["mistakes"]["B"][0]["category"] == "blunder"
    rows = boards(size, moves, setup)
    assert rows[0] is not None and rows[0][6][2] == "X" and rows[0][2][6] == "X"
    assert rows[1] is not None and rows[1][5][2] == "O"


def test_passes_are_moves_with_no_point_and_a_pass_as_the_better_move_says_so() -> None:
    moves = [("B", [2, 2]), ("W", None), ("B", None)]
    raw = [
        pos(0, 0.0, best=[cand([2, 2])]),
        pos(1, 1.0, best=[cand([5, 5], 1.0, [[5, 5], [3, 3]])]),
        pos(2, 7.0, best=[cand(None, 7.0, [None])]),
        pos(3, 4.0),
    ]
    out = derive(9, moves, raw)
    assert out["points_lost"] == [None, -1.0, 6.0, 3.0]
    white = out["mistakes"]["W"][0]
    assert white["point"] is None and white["best"] == [5, 5] and white["pv"] == [[5, 5], [3, 3]]
    black = out["mistakes"]["B"][0]
    assert black["point"] is None and black["best"] is None and black["best_is_pass"] is True


# -- categories, the mistakes list, accuracy ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lost", "name"),
    [
        (-3.0, "excellent"),
        (0.0, "excellent"),
        (0.49, "excellent"),
        (0.5, "good"),
        (1.99, "good"),
        (2.0, "inaccuracy"),
        (4.99, "inaccuracy"),
        (5.0, "mistake"),
        (9.99, "mistake"),
        (10.0, "blunder"),
        (80.0, "blunder"),
    ],
)
def test_categories_by_points_lost(lost: float, name: str) -> None:
    assert category(lost) == name


def test_accuracy_is_100_times_three_quarters_to_the_mean_loss() -> None:
    assert accuracy([0.0, 0.0]) == 100.0
    assert accuracy([1.0, 1.0]) == 75.0
    assert accuracy([2.0, 0.0]) == 75.0
    assert accuracy([-5.0, 2.0]) == 75.0  # a gain counts as no loss, never as credit
    assert accuracy([4.0]) == round(100 * 0.75**4, 1)
    assert accuracy([]) is None


def test_each_players_biggest_mistakes_first_from_an_inaccuracy_up() -> None:
    losses = [1.9, 2.0, 30.0, 5.0, 0.0, 12.0, 3.0, 3.0, 7.0, 2.5, 4.0, 6.0, 8.0, 9.0]
    moves: list[tuple[str, Any]] = []
    raw: list[dict[str, Any] | None] = [pos(0, 0.0)]
    lead = 0.0
    for i, loss in enumerate(losses, start=1):
        moves.append(("B", [i % 9, i // 9]))
        lead -= loss
        raw.append(pos(i, lead))
    out = derive(9, moves, raw)
    listed = out["mistakes"]["B"]
    assert len(listed) == MAX_LISTED
    assert [m["points_lost"] for m in listed] == [30.0, 12.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 3.0]
    assert [m["i"] for m in listed][-2:] == [7, 8]  # equal losses in move order
    assert out["mistakes"]["W"] == []
    summary = out["summary"]["B"]
    assert summary["categories"] == {"excellent": 1, "good": 1, "inaccuracy": 5, "mistake": 5, "blunder": 2}
    assert summary["mean_points_lost"] == round(sum(losses) / len(losses), 2)
    assert summary["accuracy"] == accuracy(losses)
    assert out["summary"]["W"] == {
        "moves": 0,
        "categories": {n: 0 for n, _ in CATEGORIES},
        "mean_points_lost": None,
        "accuracy": None,
    }


# -- which group or area changed hands ----------------------------------------------------------------------


def test_a_dead_group_and_a_corner_that_changed_hands_are_said_with_the_boards_letters() -> None:
    size = 9
    # Black's three stones at C3 C4 D4 and a White stone far away; Black's move 7 is the mistake.
    moves: list[tuple[str, Any]] = [
        ("B", at(size, "C3")),
        ("W", at(size, "G7")),
        ("B", at(size, "C4")),
        ("W", at(size, "G6")),
        ("B", at(size, "D4")),
        ("W", at(size, "F7")),
        ("B", at(size, "J9")),
    ]
    better = flat(size, 0.0)
    played = flat(size, 0.0)
    for label in ("C3", "C4", "D4", "D3"):  # Black's group and the point inside: Black's under the better move
        x, y = from_gtp(label, size)
        better[y][x], played[y][x] = 0.9, -0.8
    for label in ("A9", "B9", "A8", "B8"):  # the top-left corner, White's, becomes Black's
        x, y = from_gtp(label, size)
        better[y][x], played[y][x] = -0.7, 0.6
    for label in ("J1", "H1"):  # two empty points flipping: too small to say
        x, y = from_gtp(label, size)
        better[y][x], played[y][x] = 0.9, -0.9
    raw: list[dict[str, Any] | None] = [pos(i, 5.0) for i in range(6)]
    raw.append(pos(6, 5.0, best=[cand(at(size, "D3"), 5.0, [at(size, "D3"), at(size, "E3")], better)]))
    raw.append(pos(7, -11.0, ownership=played))
    out = derive(size, moves, raw)
    assert out["points_lost"][7] == 16.0
    words = out["changed_hands"]["7"]
    assert [w["key"] for w in words] == ["ai_review.hands.group_died", "ai_review.hands.corner_taken"]
    died, corner = words
    assert died["params"] == {"colour": "B", "point": "C4", "stones": 3, "points": 4}
    assert sorted(map(tuple, died["points"])) == sorted(tuple(at(size, p)) for p in ("C3", "C4", "D4", "D3"))
    assert corner["params"] == {"colour": "B", "point": "A9", "points": 4}
    assert corner["at"] == at(size, "A9")
    mistake = out["mistakes"]["B"][0]
    assert mistake["best"] == at(size, "D3") and mistake["pv"] == [at(size, "D3"), at(size, "E3")]


def test_a_group_that_comes_back_to_life_and_a_side_and_a_centre() -> None:
    size = 19
    grid = [["."] * size for _ in range(size)]
    grid[3][9] = "O"  # K16: a White stone on the top side, dead under the better move, alive after the played one
    board = ["".join(r) for r in grid]
    better, played = flat(size, 0.0), flat(size, 0.0)
    for x, y in ((9, 3), (9, 2), (10, 3)):
        better[y][x], played[y][x] = 0.8, -0.8
    for x in range(8, 12):  # the centre, Black's, becomes White's
        for y in range(8, 10):
            better[y][x], played[y][x] = 0.7, -0.7
    for y in range(8, 11):  # the left side
        better[y][0], played[y][0] = -0.9, 0.9
    words = changed_hands(size, board, played, better)
    assert [w["key"] for w in words] == [
        "ai_review.hands.centre_taken",
        "ai_review.hands.group_lived",
        "ai_review.hands.side_taken",
    ]
    assert words[0]["params"]["colour"] == "W" and words[0]["params"]["points"] == 8
    assert words[1]["params"] == {"colour": "W", "point": "K16", "stones": 1, "points": 3}
    assert words[2]["params"] == {"colour": "B", "point": "A10", "points": 3}


def test_nothing_is_said_when_the_move_played_was_the_better_move_or_ownership_is_missing() -> None:
    size = 9
    better, played = flat(size, 0.9), flat(size, -0.9)
    moves = [("B", [4, 4]), ("W", [3, 3])]
    raw = [
        pos(0, 0.0, best=[cand([4, 4], 0.0, None, better)]),
        pos(1, -3.0, ownership=played, best=[cand([5, 5], -3.0, None, None)]),
        pos(2, 20.0, ownership=played),
    ]
    out = derive(size, moves, raw)
    assert out["points_lost"] == [None, 3.0, 23.0]
    assert out["changed_hands"] == {}  # move 1 was KataGo's choice; move 2's better move has no ownership


# -- properties -----------------------------------------------------------------------------------------------

leads = st.one_of(st.none(), st.floats(-80, 80, allow_nan=False).map(lambda v: round(v, 1)))


@settings(max_examples=150, deadline=None)
@given(st.lists(leads, min_size=1, max_size=40), st.booleans())
def test_properties_of_the_figures(values: list[float | None], handicap: bool) -> None:
    first = "W" if handicap else "B"
    colours = [first if k % 2 == 0 else ("B" if first == "W" else "W") for k in range(len(values) - 1)]
    moves: list[tuple[str, Any]] = [(c, None) for c in colours]
    raw: list[dict[str, Any] | None] = [None if v is None else pos(i, v) for i, v in enumerate(values)]
    out = derive(9, moves, raw)
    lost = out["points_lost"]
    assert len(lost) == len(values) and lost[0] is None
    for i in range(1, len(values)):
        assert (lost[i] is None) == (values[i - 1] is None or values[i] is None)
    # the colours swapped and every lead negated: the same points lost
    swapped = [("B" if c == "W" else "W", p) for c, p in moves]
    mirrored = [None if v is None else pos(i, -v) for i, v in enumerate(values)]
    assert points_lost(swapped, mirrored) == lost
    for colour in ("B", "W"):
        summary = out["summary"][colour]
        assert sum(summary["categories"].values()) == summary["moves"]
        assert summary["moves"] == sum(1 for i in range(1, len(values)) if lost[i] is not None and colours[i - 1] == colour)
        if summary["accuracy"] is not None:
            assert 0.0 <= summary["accuracy"] <= 100.0
        listed = [m["points_lost"] for m in out["mistakes"][colour]]
        assert listed == sorted(listed, reverse=True) and all(v >= 2.0 for v in listed)


ownerships = st.lists(st.lists(st.sampled_from([-0.9, -0.3, 0.0, 0.4, 0.95]), min_size=5, max_size=5), min_size=5, max_size=5)


@settings(max_examples=150, deadline=None)
@given(ownerships, ownerships)
def test_changed_regions_are_disjoint_and_every_point_in_them_flipped(
    played: list[list[float]], better: list[list[float]]
) -> None:
    words = changed_hands(5, ["." * 5] * 5, played, better)
    seen: set[tuple[int, int]] = set()
    for w in words:
        points = [tuple(p) for p in w["points"]]
        assert not seen & set(points)
        seen |= set(points)
        assert len(points) >= 3  # no stones on this board: only areas, from three points
        for x, y in points:
            assert better[y][x] * played[y][x] < 0 and abs(better[y][x]) >= 0.5 and abs(played[y][x]) >= 0.5
        assert tuple(w["at"]) in points
    assert changed_hands(5, None, better, better) == []


def test_the_service_puts_a_handicap_games_stones_down_before_the_first_move() -> None:
    from app.ai_review.service import derived
    from app.engines.analysis import Colour, Point
    from app.games.config import GameConfig

    size = 9
    handicap = (at(size, "C3"), at(size, "G7"))
    config = GameConfig(size=size, handicap_points=tuple((p[0], p[1]) for p in handicap))
    moves: list[tuple[Colour, Point | None]] = [("W", (2, 5)), ("B", (3, 5))]  # C4, D4
    assert [list(p) for _, p in moves if p] == [at(size, "C4"), at(size, "D4")]
    black = [[1.0] * size for _ in range(size)]
    lost_c3 = [row[:] for row in black]
    lost_c3[6][2] = -1.0  # C3, a handicap stone, White's after White's first move
    raw: list[dict[str, Any] | None] = [
        pos(0, 12.0, black, best=[cand(at(size, "D5"), 12.0, [at(size, "D5")], black)]),
        pos(1, 14.0, lost_c3),
        pos(2, 4.0),
    ]
    with_stones = derived(size, config.to_dict(), moves, raw)
    assert with_stones == derive(size, moves, raw, setup={"B": list(handicap), "W": []})
    # the flipped point holds a handicap stone: a group died; without the stones it is one empty point, unsaid
    assert [h["key"] for h in with_stones["changed_hands"]["1"]] == ["ai_review.hands.group_died"]
    assert "1" not in derive(size, moves, raw)["changed_hands"]
