"""Every rule set the server offers, as KataGo is told it: a pure mapping, no KataGo needed."""

from __future__ import annotations

import pytest

from app.engines.analysis import Question
from app.engines.rules import RulesNotMapped, board_position, katago_rules, position_of
from app.rules.game import Game
from app.rules.ruleset import PRESETS, rules_for

EXPECTED = {
    "chinese": {"ko": "POSITIONAL", "scoring": "AREA", "tax": "NONE", "suicide": False, "whiteHandicapBonus": "N"},
    "japanese": {"ko": "SIMPLE", "scoring": "TERRITORY", "tax": "SEKI", "suicide": False, "whiteHandicapBonus": "0"},
    "korean": {"ko": "SIMPLE", "scoring": "TERRITORY", "tax": "SEKI", "suicide": False, "whiteHandicapBonus": "0"},
    "aga": {"ko": "SITUATIONAL", "scoring": "AREA", "tax": "NONE", "suicide": False, "whiteHandicapBonus": "N-1"},
    "new_zealand": {"ko": "SITUATIONAL", "scoring": "AREA", "tax": "NONE", "suicide": True, "whiteHandicapBonus": "0"},
    "ing": {"ko": "POSITIONAL", "scoring": "AREA", "tax": "NONE", "suicide": True, "whiteHandicapBonus": "N"},
}


def test_every_preset_is_mapped() -> None:
    assert set(EXPECTED) == set(PRESETS)
    for name, expected in EXPECTED.items():
        assert katago_rules(PRESETS[name]) == {**expected, "hasButton": False}, name


def test_custom_rules_follow_their_parameters() -> None:
    custom = rules_for("japanese", seki_territory=True, ko="situational", multi_stone_suicide=True)
    assert katago_rules(custom)["tax"] == "NONE"
    assert katago_rules(custom)["ko"] == "SITUATIONAL"
    assert katago_rules(custom)["suicide"] is True
    # the handicap bonus is an area-scoring count: under territory scoring KataGo is told none, as the engine counts
    assert katago_rules(rules_for("japanese", handicap_compensation="n"))["whiteHandicapBonus"] == "0"
    assert katago_rules(rules_for("chinese", handicap_compensation="none"))["whiteHandicapBonus"] == "0"


def test_the_game_gives_komi_handicap_and_moves() -> None:
    game = Game(9, rules_for("aga", komi=0.5), handicap=2)
    game.play("W", (4, 4))
    game.pass_turn("B")
    position = position_of(game)
    assert position.komi == 0.5
    assert position.rules == katago_rules(game.rules)
    assert set(position.stones) == {("B", (2, 6)), ("B", (6, 2))}
    assert position.to_move == "W"
    assert position.moves == (("W", (4, 4)), ("B", None))
    query = Question(position, visits=1).to_katago("q", 0)
    assert query["initialStones"] == [["B", "C3"], ["B", "G7"]] and query["moves"] == [["W", "E5"], ["B", "pass"]]
    assert query["initialPlayer"] == "W" and query["komi"] == 0.5


def test_setup_stones_and_first_player() -> None:
    game = Game(9)
    game.add_setup([(0, 0)], [(8, 8)], "W")
    position = position_of(game)
    assert set(position.stones) == {("B", (0, 0)), ("W", (8, 8))} and position.to_move == "W" and position.moves == ()


def test_the_board_as_it_lies_with_either_side_to_move() -> None:
    game = Game(9, rules_for("japanese"))
    game.play("B", (2, 2))
    game.play("W", (3, 2))
    for colour in ("B", "W"):
        position = board_position(game, colour)
        assert position.moves == () and position.to_move == colour and position.komi == 6.5
        assert set(position.stones) == {("B", (2, 2)), ("W", (3, 2))}


def test_a_komi_katago_refuses_is_not_sent() -> None:
    with pytest.raises(RulesNotMapped, match="400"):
        position_of(Game(9, rules_for("chinese", komi=500)))
