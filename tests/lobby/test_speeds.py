import pytest

from app.lobby.speeds import speed


@pytest.mark.parametrize(
    "time_control, expected",
    [
        ({"kind": "none"}, "untimed"),
        ({"kind": "absolute", "main": 300}, "blitz"),
        ({"kind": "byoyomi", "main": 2400, "periods": 5, "period_time": 60}, "live"),
        ({"kind": "simple", "per_move": 5}, "blitz"),
        ({"kind": "simple", "per_move": 60}, "live"),
        ({"kind": "simple", "per_move": 3600}, "correspondence"),
        ({"kind": "simple", "per_move": 86400, "correspondence": True}, "correspondence"),
        ({"kind": "fischer", "main": 86400, "increment": 0, "correspondence": True}, "correspondence"),
    ],
)
def test_speed_of_a_time_control(time_control, expected):
    assert speed(time_control) == expected
