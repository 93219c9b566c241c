from typing import Any

import pytest

from app.rules import Game, IllegalMove, Move, rules_for
from tests.rules.positions import place_stones


def test_play_capture_and_prisoners():
    g = Game(9)
    place_stones(g, black=[(1, 0), (0, 1), (8, 8)], white=[(0, 0)])
    assert g.stone_at((0, 0)) is None
    assert g.prisoners == {"B": 1, "W": 0}
    assert g.board_rows()[0] == ".X......."


def test_the_game_keeps_the_points_each_move_removed_by_its_index():
    g = Game(5, rules_for("new_zealand"))
    place_stones(g, black=[(0, 0), (4, 4), (3, 4)], white=[(1, 0), (1, 1), (0, 2)])
    g.pass_turn("B")
    g.play("W", (3, 3))
    # Black's two stones in the corner have no liberty: a legal multi-stone suicide removes them
    removed = g.play("B", (0, 1))
    assert sorted(removed) == [(0, 0), (0, 1)] and g.prisoners == {"B": 0, "W": 2}
    assert g.captures[len(g.moves) - 1] is removed
    assert list(g.captures) == [len(g.moves) - 1]  # moves that removed nothing have no entry
    g.undo()
    assert g.captures == {}
    assert g.copy().captures == {} and g.captures is not g.copy().captures


def test_illegal_moves_change_nothing():
    g = Game(5)
    g.play("B", (2, 2))
    before = g.state()
    for colour, point, reason in [
        ("W", (2, 2), "occupied"),
        ("B", (1, 1), "not_your_turn"),
        ("W", (5, 0), "off_board"),
        ("W", (-1, 0), "off_board"),
    ]:
        with pytest.raises(IllegalMove) as info:
            g.play(colour, point)
        assert info.value.reason == reason
        assert g.state() == before


def test_point_forms():
    g = Game(5)
    g.play("B", [1, 2])  # type: ignore[arg-type]  # what is checked: a JSON-style list is a point too; the move records a tuple
    assert g.moves == [Move("B", (1, 2))] and type(g.moves[0].point) is tuple
    assert g.stone_at((1, 2)) == "B"
    before = g.state()
    not_points: list[Any] = [(1, 2, 3), (1,), "ab", None, 7, [5, 0], (0, 5), ("1", "2"), {1: 2}, [[1], 2]]
    for point in not_points:
        with pytest.raises(IllegalMove) as info:
            g.play("W", point)
        assert info.value.reason == "off_board"
        assert g.illegal_reason("W", point) == "off_board"
        assert g.state() == before
    g.play("W", (4, 4))
    assert g.moves[-1] == Move("W", (4, 4)) and g.moves[-1].color == "W" and g.moves[-1].point == (4, 4)


def test_single_stone_suicide_is_illegal_everywhere():
    for name in ("chinese", "new_zealand", "ing", "japanese"):
        g = Game(5, rules_for(name))
        place_stones(g, black=[(1, 0), (0, 1)], white=[(4, 4)])
        with pytest.raises(IllegalMove) as info:
            g.play("W", (0, 0))
        assert info.value.reason == "suicide"
        assert (0, 0) not in g.legal_points()


def test_ko_recapture_after_threat():
    g = Game(5)
    # Black: (1,0) (0,1) (1,2); White: (2,0) (3,1) (2,2) (1,1) — Black takes at (2,1)
    place_stones(g, black=[(1, 0), (0, 1), (1, 2), (4, 4)], white=[(2, 0), (3, 1), (2, 2), (1, 1)])
    assert g.play("B", (2, 1)) == [(1, 1)]
    with pytest.raises(IllegalMove) as info:
        g.play("W", (1, 1))
    assert info.value.reason == "ko"
    assert (1, 1) not in g.legal_points()
    g.play("W", (4, 0))  # ko threat
    g.play("B", (3, 4))  # answer
    assert g.play("W", (1, 1)) == [(2, 1)]  # recapture is legal now
    with pytest.raises(IllegalMove):
        g.play("B", (2, 1))


def test_undo_restores_exactly():
    g = Game(5)
    place_stones(g, black=[(1, 0), (0, 1), (1, 2), (4, 4)], white=[(2, 0), (3, 1), (2, 2), (1, 1)])
    before = g.state()
    g.play("B", (2, 1))
    assert g.undo() == Move("B", (2, 1))
    assert g.state() == before
    g.pass_turn("B")
    g.undo()
    assert g.state() == before
    fresh = Game(5)
    with pytest.raises(IndexError):
        fresh.undo()


def test_handicap_white_first_and_end():
    g = Game(19, handicap=4)
    assert g.to_move == "W"
    assert sorted(g.handicap_points) == [(3, 3), (3, 15), (15, 3), (15, 15)]
    g.play("W", (10, 10))
    g.end()
    with pytest.raises(IllegalMove) as info:
        g.play("B", (0, 0))
    assert info.value.reason == "game_over"


def test_score_simple_area():
    g = Game(5, rules_for("chinese", komi=0.5))
    for y in range(5):
        g.play("B", (1, y))
        g.play("W", (3, y))
    s = g.score([])
    assert (s.black.stones, s.black.territory, s.white.stones, s.white.territory) == (5, 5, 5, 5)
    assert s.result_text() == "W+0.5"
    assert s.ownership[0] == "XX.OO"


def test_setup_stones_before_the_first_move_start_the_history():
    g = Game(9, rules_for("chinese"))
    g.add_setup([(0, 1), (1, 1)], [(0, 0), (4, 4)], "W")
    assert g.stone_at((0, 0)) == "W" and g.stone_at((1, 1)) == "B" and g.to_move == "W"
    assert g.prisoners == {"B": 0, "W": 0}
    g.play("W", (1, 0))
    with pytest.raises(ValueError):
        g.add_setup([(5, 5)], [])
    for black, white in [([(0, 0)], [(0, 0)]), ([(9, 0)], []), ([(0, 1), (1, 0)], [(0, 0)])]:
        fresh = Game(9)
        with pytest.raises(ValueError):
            fresh.add_setup(black, white)
        assert fresh.board_rows() == Game(9).board_rows()


def test_the_turn_can_be_given_to_either_colour():
    g = Game(9)
    g.play("B", (2, 2))
    g.set_to_move("B")
    g.play("B", (3, 3))
    assert g.to_move == "W"
    with pytest.raises(ValueError):
        g.set_to_move("X")


def test_undo_after_setup_stones_and_a_colour_playing_twice_keeps_them():
    g = Game(9)
    g.add_setup([(0, 1)], [(5, 5)], "W")
    g.play("W", (2, 2))
    g.set_to_move("W")
    g.play("W", (3, 3))
    g.play("B", (4, 4))
    g.undo()
    assert g.stone_at((5, 5)) == "W" and g.stone_at((3, 3)) == "W" and g.stone_at((4, 4)) is None
