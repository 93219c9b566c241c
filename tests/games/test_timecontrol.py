import pytest

from app.games.errors import GameError
from app.games.timecontrol import TimeControl, TimeControlError, parse_time_control


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "none"},
        {"kind": "absolute", "main": 1200},
        {"kind": "fischer", "main": 300, "increment": 5, "cap": 600},
        {"kind": "fischer", "main": 300, "increment": 5},
        {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30},
        {"kind": "canadian", "main": 600, "stones": 25, "period_time": 300},
    ],
)
def test_round_trip(data):
    tc = parse_time_control(data)
    assert tc.to_dict() == {k: (float(v) if k in ("main", "increment", "cap", "period_time") else v) for k, v in data.items()}
    assert parse_time_control(tc.to_dict()) == tc


def test_chinese_countdown_is_byoyomi_with_minutes():
    tc = parse_time_control({"kind": "chinese_countdown", "main": 3600, "periods": 3})
    assert tc.system == "byoyomi"
    assert (tc.main, tc.periods, tc.period_time) == (3600.0, 3, 60.0)
    assert tc.to_dict() == {"kind": "chinese_countdown", "main": 3600.0, "periods": 3, "period_time": 60.0}
    assert parse_time_control(tc.to_dict()) == tc


def test_none_input_means_untimed():
    assert parse_time_control(None) == TimeControl()
    assert not parse_time_control(None).timed


@pytest.mark.parametrize(
    "data, fragment",
    [
        ("fast", "must be an object"),
        ({"kind": "hourglass"}, "unknown time control kind"),
        ({}, "unknown time control kind"),
        ({"kind": "absolute"}, "needs 'main'"),
        ({"kind": "absolute", "main": 0}, "'main' must be greater than 0"),
        ({"kind": "absolute", "main": -5}, "'main' must be greater than 0"),
        ({"kind": "absolute", "main": "60"}, "'main' must be a number"),
        ({"kind": "absolute", "main": True}, "'main' must be a number"),
        ({"kind": "absolute", "main": float("nan")}, "'main' must be a number"),
        ({"kind": "absolute", "main": 10**9}, "at most"),
        ({"kind": "absolute", "main": 60, "increment": 2}, "does not take 'increment'"),
        ({"kind": "fischer", "main": 300}, "needs 'increment'"),
        ({"kind": "fischer", "main": 300, "increment": 5, "cap": 100}, "'cap' must be at least 'main'"),
        ({"kind": "byoyomi", "main": 600, "periods": 0, "period_time": 30}, "'periods' must be between"),
        ({"kind": "byoyomi", "main": 600, "periods": 2.5, "period_time": 30}, "whole number"),
        ({"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 0}, "'period_time' must be greater"),
        ({"kind": "canadian", "main": 600, "period_time": 300}, "needs 'stones'"),
        ({"kind": "chinese_countdown", "main": 3600, "periods": 3, "period_time": 30}, "always 60"),
        ({"kind": "simple"}, "needs 'per_move'"),
        ({"kind": "simple", "per_move": 8 * 86400}, "at most"),
        ({"kind": "simple", "per_move": 3600, "correspondence": True}, "at least 86400"),
        ({"kind": "simple", "per_move": 91 * 86400, "correspondence": True}, "at most"),
        ({"kind": "simple", "per_move": 86400, "correspondence": "yes"}, "true or false"),
        ({"kind": "fischer", "main": 3600, "increment": 60, "correspondence": True}, "at least 86400"),
        (
            {"kind": "byoyomi", "main": 86400, "periods": 5, "period_time": 30, "correspondence": True},
            "does not take 'correspondence'",
        ),
    ],
)
def test_bad_input_is_refused_clearly(data, fragment):
    with pytest.raises(TimeControlError) as info:
        parse_time_control(data)
    assert isinstance(info.value, GameError)
    assert info.value.code == "invalid_time_control"
    assert fragment in info.value.message


def test_correspondence_time_controls():
    days = parse_time_control({"kind": "simple", "per_move": 3 * 86400, "correspondence": True})
    assert (days.kind, days.main, days.correspondence) == ("simple", 3 * 86400.0, True)
    assert days.to_dict() == {"kind": "simple", "per_move": 259200, "correspondence": True}
    assert parse_time_control(days.to_dict()) == days
    fischer = parse_time_control(
        {"kind": "fischer", "main": 7 * 86400, "increment": 86400, "cap": 30 * 86400, "correspondence": True}
    )
    assert fischer.correspondence and fischer.cap == 30 * 86400.0
    assert parse_time_control(fischer.to_dict()) == fischer
    live = parse_time_control({"kind": "simple", "per_move": 30})
    assert not live.correspondence and live.to_dict() == {"kind": "simple", "per_move": 30}
