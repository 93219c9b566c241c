"""What the bridge tells the engine about the clock, and how long it lets the engine think."""

from __future__ import annotations

from app.bots.clocks import MIN_THINK, budget, time_settings

BYO = {"kind": "byoyomi", "main": 60, "periods": 3, "period_time": 10}
CANADIAN = {"kind": "canadian", "main": 0, "stones": 5, "period_time": 50}


def test_time_settings_for_each_system() -> None:
    assert time_settings(BYO) == "time_settings 60 10 1"
    assert time_settings({"kind": "canadian", "main": 600, "stones": 25, "period_time": 300}) == "time_settings 600 300 25"
    assert time_settings({"kind": "absolute", "main": 300}) == "time_settings 300 0 0"
    assert time_settings({"kind": "fischer", "main": 300, "increment": 5}) == "time_settings 300 0 0"
    assert time_settings({"kind": "none"}) == "time_settings 0 1 0"


def test_main_time_counts_down_from_the_servers_report_with_the_margin() -> None:
    clock = {"main": 40.0, "periods": 3, "period_time": 10, "period_left": None}
    plan = budget(BYO, clock, "B", elapsed=5.0, margin=1.0, untimed_limit=30)
    assert plan.time_left == "time_left B 34 0"
    assert plan.deadline == 30  # main 35 + the current period 10 - margin, capped by the limit


def test_in_byoyomi_only_the_current_period_is_spent() -> None:
    clock = {"main": 0.0, "periods": 3, "period_time": 10, "period_left": 10.0}
    plan = budget(BYO, clock, "W", elapsed=2.0, margin=1.0, untimed_limit=30)
    assert plan.time_left == "time_left W 7 1"
    assert plan.deadline == 7.0  # 10 - 2 - 1: the spare periods are never planned on


def test_canadian_overtime_shares_the_period_among_its_stones() -> None:
    clock = {"main": 0.0, "periods": None, "period_time": 50, "period_left": 40.0, "stones": 4}
    plan = budget(CANADIAN, clock, "B", elapsed=0.0, margin=2.0, untimed_limit=30)
    assert plan.time_left == "time_left B 38 4"
    assert plan.deadline == 40 / 4 - 2 / 4


def test_absolute_and_fischer_keep_the_margin_and_untimed_games_the_limit() -> None:
    plan = budget({"kind": "absolute", "main": 300}, {"main": 12.0}, "B", elapsed=1.0, margin=1.0, untimed_limit=30)
    assert plan.time_left == "time_left B 10 0" and plan.deadline == 10.0
    nearly_out = budget({"kind": "fischer", "main": 60, "increment": 2}, {"main": 0.5}, "W", 0.0, 1.0, 30)
    assert nearly_out.deadline == MIN_THINK and nearly_out.time_left == "time_left W 0 0"
    untimed = budget({"kind": "none"}, None, "B", 100.0, 1.0, 30)
    assert untimed.time_left is None and untimed.deadline == 30
