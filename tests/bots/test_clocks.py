"""What the bridge tells the engine about the clock, each move's budget drawn from the clock, and how long
the bridge waits for the engine."""

from __future__ import annotations

import pytest

from app.bots.clocks import MIN_GRACE, MIN_THINK, budget, moves_left, think_seconds, time_settings

BYO = {"kind": "byoyomi", "main": 60, "periods": 3, "period_time": 10}
CANADIAN = {"kind": "canadian", "main": 0, "stones": 5, "period_time": 50}
TEN_MINUTES = {"kind": "byoyomi", "main": 600, "periods": 3, "period_time": 30}


def test_time_settings_for_each_system() -> None:
    assert time_settings(BYO) == "time_settings 60 10 1"
    assert time_settings({"kind": "canadian", "main": 600, "stones": 25, "period_time": 300}) == "time_settings 600 300 25"
    assert time_settings({"kind": "absolute", "main": 300}) == "time_settings 300 0 0"
    assert time_settings({"kind": "fischer", "main": 300, "increment": 5}) == "time_settings 300 0 0"
    assert time_settings({"kind": "chinese_countdown", "main": 1800, "periods": 3}) == "time_settings 1800 60 1"
    assert time_settings({"kind": "simple", "per_move": 20}) == "time_settings 0 20 1"
    assert time_settings({"kind": "simple", "per_move": 86400, "correspondence": True}) == "time_settings 0 1 0"
    assert time_settings({"kind": "none"}) == "time_settings 0 1 0"


def test_main_time_is_shared_among_the_moves_still_expected() -> None:
    assert moves_left(9, 0) == 30 and moves_left(19, 0) == 115
    assert moves_left(9, 40) == 10 and moves_left(9, 200) == 10  # never fewer than a sixth of a typical game
    assert moves_left(7, 0) == pytest.approx(0.65 * 49 / 2)
    absolute = {"kind": "absolute", "main": 300}
    assert think_seconds(absolute, {"main": 300.0}, 0.0, 9, 0, 30) == 10.0
    assert think_seconds(absolute, {"main": 300.0}, 60.0, 9, 0, 30) == 8.0  # the clock ran 60 s since its report
    fischer = {"kind": "fischer", "main": 230, "increment": 5}
    assert think_seconds(fischer, {"main": 230.0}, 0.0, 19, 0, 30) == pytest.approx(2 + 0.8 * 5)


def test_overtime_gives_each_move_a_share_of_its_period() -> None:
    # In main time: the main time's share and half a period (the period comes again after every move).
    assert think_seconds(TEN_MINUTES, {"main": 600.0, "period_left": None}, 0.0, 9, 0, 30) == 600 / 30 + 15
    # In byo-yomi: half the period; the spare periods are never planned on.
    assert think_seconds(BYO, {"main": 0.0, "period_left": 10.0}, 2.0, 19, 100, 30) == 5.0
    # Canadian overtime: the period left shared among the stones left in it.
    clock = {"main": 0.0, "period_left": 40.0, "stones": 4}
    assert think_seconds(CANADIAN, clock, 0.0, 19, 100, 30) == 10.0
    assert think_seconds({"kind": "chinese_countdown", "main": 0, "periods": 3}, {"main": 0.0}, 0.0, 19, 0, 30) == 30.0
    assert think_seconds({"kind": "simple", "per_move": 20}, {"main": 20.0}, 0.0, 19, 0, 30) == 10.0


def test_correspondence_and_untimed_games_think_for_the_bridges_limit() -> None:
    days = {"kind": "fischer", "main": 3 * 86400, "increment": 86400, "correspondence": True}
    assert think_seconds(days, {"main": 3 * 86400.0}, 0.0, 19, 0, 5) == 5
    assert think_seconds({"kind": "none"}, None, 0.0, 19, 0, 5) == 5
    plan = budget(days, {"main": 3 * 86400.0}, "B", 0.0, 1.0, 5, board_size=19)
    assert plan.think == 5 and plan.wait == 5 + 1.25  # a grace of a quarter of the budget


def test_the_bots_own_pace_caps_the_budget_and_the_flag_caps_everything() -> None:
    # The beginner's 10-minute 9x9 game: the clock allows 35 s a move, the house bot plays at its level's pace.
    clock = {"main": 600.0, "period_left": None}
    plan = budget(TEN_MINUTES, clock, "B", 0.0, 1.0, 30, board_size=9, max_think=2.0)
    assert plan.think == 2.0 and plan.wait == 2.0 + MIN_GRACE
    assert plan.deadline == 600 + 30 - 1  # the flag: main time and the current period, less the margin
    nearly_out = budget({"kind": "fischer", "main": 60, "increment": 2}, {"main": 0.5}, "W", 0.0, 1.0, 30, board_size=9)
    assert nearly_out.think == MIN_THINK and nearly_out.wait == MIN_THINK and nearly_out.time_left == "time_left W 0 0"
    long_think = budget({"kind": "absolute", "main": 3000}, {"main": 3000.0}, "B", 0.0, 1.0, 30, board_size=9)
    assert long_think.think == 100.0 and long_think.wait == 125.0  # a grace of a quarter of a long budget


def test_what_the_engine_is_told_keeps_the_margin() -> None:
    clock = {"main": 40.0, "periods": 3, "period_time": 10, "period_left": None}
    plan = budget(BYO, clock, "B", elapsed=5.0, margin=1.0, untimed_limit=30, board_size=19)
    assert plan.time_left == "time_left B 34 0"
    assert plan.deadline == 44  # main 35 + the current period 10 - margin
    in_byoyomi = budget(BYO, {"main": 0.0, "period_left": 10.0}, "W", elapsed=2.0, margin=1.0, untimed_limit=30)
    assert in_byoyomi.time_left == "time_left W 7 1" and in_byoyomi.deadline == 7.0
    assert in_byoyomi.think == 5.0 and in_byoyomi.wait == 5.0 + 1.25
    canadian = budget(CANADIAN, {"main": 0.0, "period_left": 40.0, "stones": 4}, "B", 0.0, 2.0, 30)
    assert canadian.time_left == "time_left B 38 4" and canadian.deadline == 40 / 4 - 2 / 4
    assert canadian.think == canadian.deadline  # its share of the period, less the margin's share
    untimed = budget({"kind": "none"}, None, "B", 100.0, 1.0, 30)
    assert untimed.time_left is None and untimed.think == 30
