"""A stored game's configuration as a tree's setup: handicap stones, komi, and rules that differ from their
preset kept as parameters, so the analysis board plays by the game's own rules."""

from app.games.config import GameConfig
from app.rules import rules_for
from app.study.games import setup_of
from app.study.tree import Tree


def test_handicap_stones_and_komi_come_from_the_game():
    config = GameConfig(size=9, rules=rules_for("japanese", komi=0.5), handicap=2, handicap_points=((2, 6), (6, 2)))
    setup = setup_of(config)
    assert (setup.size, setup.rules, setup.komi, setup.handicap, setup.black, setup.rules_params) == (
        9,
        "japanese",
        0.5,
        2,
        ((2, 6), (6, 2)),
        (),
    )
    start = Tree(setup).start()
    assert start.to_move == "W" and start.handicap == 2 and start.rules == config.rules


def test_rules_that_differ_from_their_preset_travel_as_parameters():
    rules = rules_for("chinese", ko="simple", multi_stone_suicide=True)
    setup = setup_of(GameConfig(size=13, rules=rules))
    assert dict(setup.rules_params) == {"ko": "simple", "multi_stone_suicide": True}
    assert setup.ruleset() == rules
