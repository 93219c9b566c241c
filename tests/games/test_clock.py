import gc
import json
import math

import pytest

from app.games.clock import GameClock
from app.games.errors import GameError
from app.games.lag import LagPolicy

NO_LAG = LagPolicy(initial=0.0, cap=0.0, refill_max=0.0)


def clock(tc, lag=NO_LAG, start=0.0):
    c = GameClock(tc, lag)
    c.start("B", start)
    return c


# ----------------------------------------------------------------- absolute / none
def test_absolute_charges_main_time_and_flags_when_used_up():
    c = clock({"kind": "absolute", "main": 60})
    ch = c.press("B", 10.0)
    assert (ch.charged, ch.flagged) == (10.0, False)
    assert c.players["B"].main == 50.0
    assert c.turn == "W"
    assert c.remaining("W", 25.0) == 45.0
    assert c.flag_deadline() == 70.0
    ch = c.press("W", 70.0)
    assert ch.flagged and c.flagged == "W"
    assert not c.running and c.deadline() is None
    assert c.players["W"].main == 60.0  # a flagged move changes no bank


def test_untimed_clock_never_flags():
    c = clock({"kind": "none"})
    assert c.press("B", 1e9).flagged is False
    assert c.deadline() is None
    assert c.remaining("B", 2e9) == math.inf
    assert c.view(5.0) is None


def test_press_out_of_turn_is_refused():
    c = clock({"kind": "absolute", "main": 60})
    with pytest.raises(GameError) as info:
        c.press("W", 1.0)
    assert info.value.code == "not_your_turn"
    assert c.turn == "B" and c.players["W"].main == 60.0


# ----------------------------------------------------------------- fischer
def test_fischer_adds_increment_after_the_move_up_to_cap():
    c = clock({"kind": "fischer", "main": 100, "increment": 10, "cap": 115})
    c.press("B", 4.0)
    assert c.players["B"].main == 106.0
    c.press("W", 5.0)  # W used 1 s: 100 - 1 + 10 = 109
    assert c.players["W"].main == 109.0
    c.press("B", 6.0)  # B used 1 s: 106 - 1 + 10 = 115 (cap)
    assert c.players["B"].main == 115.0
    c.press("W", 7.0)  # 109 - 1 + 10 = 118 -> capped at 115
    assert c.players["W"].main == 115.0


def test_fischer_without_cap_grows_and_flag_is_before_increment():
    c = clock({"kind": "fischer", "main": 10, "increment": 5})
    c.press("B", 1.0)
    c.press("W", 2.0)
    c.press("B", 3.0)
    assert c.players["B"].main == 18.0
    assert c.flag_deadline() == 3.0 + 14.0  # W has 14
    assert c.press("W", 17.0).flagged  # the increment does not save a late move


# ----------------------------------------------------------------- byo-yomi
def test_byoyomi_moves_within_a_period_keep_it():
    c = clock({"kind": "byoyomi", "main": 10, "periods": 3, "period_time": 30})
    ch = c.press("B", 35.0)  # 10 main + 25 into the first period
    assert (ch.periods_used, ch.flagged) == (0, False)
    assert c.players["B"].main == 0.0 and c.players["B"].periods == 3
    c.press("W", 36.0)
    ch = c.press("B", 36.0 + 29.9)
    assert ch.periods_used == 0 and c.players["B"].periods == 3


def test_byoyomi_period_used_up_is_lost_and_last_one_loses():
    c = clock({"kind": "byoyomi", "main": 0, "periods": 3, "period_time": 30})
    ch = c.press("B", 65.0)  # two full periods gone, move made in the third
    assert ch.periods_used == 2 and c.players["B"].periods == 1
    c.press("W", 65.0)
    assert c.flag_deadline() == 95.0
    ch = c.press("B", 95.0)  # the last period ran out exactly
    assert ch.flagged and ch.periods_used == 1
    assert c.flagged == "B"


def test_byoyomi_advance_announces_each_period_then_the_flag():
    c = clock({"kind": "byoyomi", "main": 5, "periods": 3, "period_time": 10})
    assert c.deadline() == 15.0
    assert c.advance(14.9) == []
    assert c.advance(15.0) == [{"t": "period_used", "color": "B", "periods_left": 2}]
    assert c.advance(15.5) == []  # each announced once
    assert c.deadline() == 25.0
    assert c.advance(40.0) == [
        {"t": "period_used", "color": "B", "periods_left": 1},
        {"t": "flag", "color": "B"},
    ]
    assert c.flagged == "B" and c.deadline() is None


def test_byoyomi_move_after_announcement_is_charged_the_same():
    c = clock({"kind": "byoyomi", "main": 5, "periods": 3, "period_time": 10})
    c.advance(16.0)
    ch = c.press("B", 17.0)
    assert ch.periods_used == 1 and c.players["B"].periods == 2
    assert c.announced == 0  # fresh turn for W
    assert c.view(17.0)["B"]["periods"] == 2


def test_chinese_countdown_counts_whole_minutes():
    c = clock({"kind": "chinese_countdown", "main": 60, "periods": 3})
    c.press("B", 60 + 59)  # used 59 s of a countdown minute: nothing deducted
    assert c.players["B"].periods == 3
    c.press("W", 120.0)
    c.press("B", 120.0 + 61)  # a full minute used: one reserved minute gone
    assert c.players["B"].periods == 2
    c.press("W", 200.0)
    assert c.press("B", 200.0 + 120).flagged  # the last minute ran out


def test_byoyomi_view_counts_down_inside_the_period():
    c = clock({"kind": "byoyomi", "main": 10, "periods": 3, "period_time": 30})
    v = c.view(4.0)
    assert v["B"] == {"main": 6.0, "periods": 3, "period_time": 30.0, "period_left": 30.0, "stones": None, "running": True}
    assert v["W"]["running"] is False
    v = c.view(10.0 + 30.0 + 12.0)
    assert v["B"]["main"] == 0.0 and v["B"]["periods"] == 2 and v["B"]["period_left"] == 18.0


# ----------------------------------------------------------------- canadian
def test_canadian_stone_count_and_reset():
    c = clock({"kind": "canadian", "main": 10, "stones": 3, "period_time": 60})
    c.press("B", 15.0)  # main gone, 5 s of the period, first stone
    b = c.players["B"]
    assert (b.main, b.period_left, b.stones) == (0.0, 55.0, 2)
    c.press("W", 15.0)
    c.press("B", 35.0)
    assert (b.period_left, b.stones) == (35.0, 1)
    c.press("W", 35.0)
    c.press("B", 65.0)  # third stone within the period: the period starts again full
    assert (b.period_left, b.stones) == (60.0, 3)
    c.press("W", 65.0)
    assert c.flag_deadline() == 125.0
    assert c.view(100.0)["B"] == {
        "main": 0.0,
        "periods": None,
        "period_time": 60.0,
        "period_left": 25.0,
        "stones": 3,
        "running": True,
    }


def test_canadian_period_running_out_before_the_stones_loses():
    c = clock({"kind": "canadian", "main": 0, "stones": 5, "period_time": 20})
    c.press("B", 19.0)
    c.press("W", 19.0)
    assert c.players["B"].period_left == 1.0
    assert c.press("B", 20.5).flagged


# ----------------------------------------------------------------- lag compensation
def test_lag_credit_reduces_the_charge_and_uses_quota():
    lag = LagPolicy(initial=0.5, cap=2.0, refill_fraction=0.5, refill_max=0.3)
    c = clock({"kind": "absolute", "main": 100}, lag=lag)
    ch = c.press("B", 10.0, lag=0.2)
    assert ch.credited == pytest.approx(0.2) and ch.charged == pytest.approx(9.8)
    assert c.players["B"].main == pytest.approx(90.2)
    assert c.players["B"].quota == pytest.approx(0.5 - 0.2 + 0.1)


def test_lag_cannot_be_faked_beyond_the_quota():
    lag = LagPolicy(initial=0.5, cap=2.0, refill_fraction=0.8, refill_max=0.3)
    c = clock({"kind": "absolute", "main": 1000}, lag=lag)
    t = 0.0
    credited = 0.0
    for _ in range(20):
        t += 10.0
        credited += c.press("B", t, lag=4.0).credited
        t += 1.0
        c.press("W", t, lag=0.0)
    assert credited == pytest.approx(0.5 + 19 * 0.3)
    assert c.players["B"].quota <= 2.0


def test_lag_quota_delays_the_flag_and_can_save_a_late_move():
    lag = LagPolicy(initial=0.5, cap=2.0)
    c = clock({"kind": "absolute", "main": 10}, lag=lag)
    assert c.flag_deadline() == pytest.approx(10.5)
    assert c.advance(10.4) == []
    ch = c.press("B", 10.3, lag=0.4)  # 10.3 s raw, 0.4 s lag: charged 9.9
    assert not ch.flagged and c.players["B"].main == pytest.approx(0.1)


def test_late_move_without_lag_flags_even_inside_the_grace():
    c = clock({"kind": "absolute", "main": 10}, lag=LagPolicy(initial=0.5))
    assert c.press("B", 10.3, lag=0.0).flagged


# ----------------------------------------------------------------- pause / resume / storage
def test_pause_and_resume_do_not_charge_the_pause():
    c = clock({"kind": "absolute", "main": 60})
    c.pause(10.0, "scoring")
    assert not c.running and c.deadline() is None
    assert c.remaining("B", 500.0) == 50.0
    c.pause(20.0, "server")
    c.resume(600.0, "scoring")
    assert not c.running  # still paused for the server
    c.resume(700.0, "server")
    assert c.running and c.flag_deadline() == 750.0
    assert c.press("B", 705.0).charged == 15.0


def test_state_round_trips_through_json_and_downtime_is_free():
    c = clock({"kind": "byoyomi", "main": 10, "periods": 2, "period_time": 5}, lag=LagPolicy(initial=0.25))
    c.press("B", 3.0, lag=0.1)
    saved = json.loads(json.dumps(c.to_dict(now=7.0)))  # W has used 4 s
    back = GameClock.from_dict(saved, now=1000.0)
    assert back.running and back.turn == "W"
    assert back.remaining("W", 1000.0) == pytest.approx(16.0)
    assert back.flag_deadline() == pytest.approx(1016.25)
    assert back.to_dict() == GameClock.from_dict(back.to_dict()).to_dict()
    same = GameClock.from_dict(json.loads(json.dumps(c.to_dict())))
    assert same.to_dict() == c.to_dict()
    assert same.flag_deadline() == c.flag_deadline()


def test_a_restored_state_is_the_clock_as_it_was_and_independent_of_it():
    c = clock({"kind": "byoyomi", "main": 10, "periods": 3, "period_time": 5})
    c.set_away("W", True, 0.0)
    state = c.state()
    copy = c.restored(state)
    assert copy.to_dict() == c.to_dict()
    c.press("B", 12.0)
    c.pause(13.0, "server")
    assert copy.to_dict() != c.to_dict()
    assert copy.players["B"].main == 10.0 and copy.turn == "B" and not copy.paused and copy.away == {"W"}
    assert copy.press("B", 4.0).charged == 4.0 and c.players["B"].periods == 3
    assert c.restored(c.state()).to_dict() == c.to_dict()  # paused, mid-overtime
    assert c.restored(state).to_dict() == c.restored(state).to_dict() != c.to_dict()  # the state is never changed


def test_a_clock_state_leaves_the_garbage_collectors_watch():
    """The authority keeps one per move for undo: what stays watched is walked by every collection of the
    middle generation, which pauses the event loop (docs/performance.md, "The eighth round")."""
    c = clock({"kind": "canadian", "main": 10, "period_time": 60, "stones": 5})
    c.pause(1.0, "scoring")
    c.set_away("B", True, 1.0)
    kept = (*c.state(), 1.0)  # as the authority keeps it for undo
    gc.collect()
    assert not gc.is_tracked(kept)


# ----------------------------------------------------------------- simple and correspondence
DAY = 86400.0
FRIDAY_NOON_UTC = 1796385600.0  # 2026-12-04 12:00 UTC


def test_simple_gives_every_move_the_same_time():
    c = clock({"kind": "simple", "per_move": 30})
    assert c.press("B", 29.0).flagged is False
    assert c.players["B"].main == 30.0  # nothing carries over
    assert c.flag_deadline() == 59.0
    assert c.view(40.0)["W"]["main"] == 19.0
    assert c.press("W", 59.0).flagged is True


def test_weekends_are_not_counted_for_a_player_who_pauses_them():
    tc = {"kind": "simple", "per_move": 2 * DAY, "correspondence": True}
    c = GameClock(tc, NO_LAG, {"B": "UTC", "W": None})
    c.start("B", FRIDAY_NOON_UTC)
    # Black's two days run Friday noon -> Tuesday noon (the weekend skipped).
    assert c.flag_deadline() == FRIDAY_NOON_UTC + 4 * DAY
    saturday = c.view(FRIDAY_NOON_UTC + DAY)
    assert saturday is not None
    assert saturday["B"]["running"] is False  # Saturday noon: the clock stands
    assert saturday["B"]["main"] == 1.5 * DAY
    ch = c.press("B", FRIDAY_NOON_UTC + 3 * DAY)  # Monday noon: a day charged
    assert (ch.elapsed, ch.flagged) == (DAY, False)
    # White counts weekends: from Monday noon, the flag falls two days later.
    assert c.flag_deadline() == FRIDAY_NOON_UTC + 5 * DAY
    restored = GameClock.from_dict(json.loads(json.dumps(c.to_dict())))
    assert restored.weekends == {"B": "UTC", "W": None}


def test_vacation_stops_a_players_clock_until_they_come_back():
    c = clock({"kind": "simple", "per_move": 10 * DAY, "correspondence": True})
    c.set_away("B", True, DAY)
    assert not c.running and c.deadline() is None
    assert c.remaining("B", 5 * DAY) == 9 * DAY
    c.set_away("W", True, 5 * DAY)
    c.set_away("B", False, 6 * DAY)  # back: the clock runs from now with the day already used
    assert c.flag_deadline() == 15 * DAY
    assert c.press("B", 7 * DAY).elapsed == 2 * DAY
    assert not c.running  # White is away: their turn waits for them
    restored = GameClock.from_dict(json.loads(json.dumps(c.to_dict(8 * DAY))), 8 * DAY)
    assert restored.away == {"W"} and restored.deadline() is None
    c.set_away("W", False, 9 * DAY)
    assert c.flag_deadline() == 19 * DAY
