"""The game authority (``app/games/authority.py``) through its public methods: moves, refusals, undos, draws,
scoring, clocks, restarts, adjournment, abandonment and replays. Over 400 lines because tests mirror the
modules they test, one file per module."""

import json

import pytest

from app.games.authority import SYSTEM, GameAuthority
from app.games.errors import GameError
from app.games.visibility import event_for
from app.rules import rules_for
from tests.games.replays import from_stored, stored

NO_LAG = {"initial": 0.0, "cap": 0.0, "refill_max": 0.0}
ABS = {"kind": "absolute", "main": 600}


def make(now=0.0, **cfg):
    cfg.setdefault("size", 9)
    cfg.setdefault("lag", NO_LAG)
    return GameAuthority(cfg, now)


def act(a, actor, t, now, facts=None, **fields):
    return a.apply(actor, {"t": t, **fields}, now, facts)


def play_all(a, moves, start=1.0, step=1.0):
    """Play [(color, point or None)], one per ``step`` seconds; returns the time after the last."""
    now = start
    for color, p in moves:
        if p is None:
            act(a, color, "pass", now)
        else:
            act(a, color, "play", now, p=list(p))
        now += step
    return now


def refused(a, actor, t, now, code, facts=None, **fields):
    """Assert the action is refused with ``code`` and changes nothing; return the error."""
    before = {v: a.snapshot(v, now) for v in ("B", "W", None)}
    log = list(a.log)
    with pytest.raises(GameError) as info:
        act(a, actor, t, now, facts, **fields)
    assert info.value.code == code, info.value.message
    assert {v: a.snapshot(v, now) for v in ("B", "W", None)} == before
    assert a.log == log
    return info.value


KO_SETUP = [
    ("B", (1, 0)),
    ("W", (2, 0)),
    ("B", (0, 1)),
    ("W", (3, 1)),
    ("B", (1, 2)),
    ("W", (2, 2)),
    ("B", (8, 8)),
    ("W", (1, 1)),
]


# ================================================================= moves
def test_moves_and_passes_make_events_with_clocks():
    a = make(time_control=ABS)
    ev = act(a, "B", "play", 5.0, p=[2, 3])
    assert ev == [
        {
            "t": "move",
            "color": "B",
            "p": [2, 3],
            "captured": [],
            "move_number": 1,
            "prisoners": {"B": 0, "W": 0},
            "to_move": "W",
            "ko": None,
            "illegal": [],
            "visibility": "all",
            "server_time": 5.0,
            "clocks": {
                "B": {"main": 595.0, "periods": None, "period_time": None, "period_left": None, "stones": None, "running": False},
                "W": {"main": 600.0, "periods": None, "period_time": None, "period_left": None, "stones": None, "running": True},
            },
        }
    ]
    ev = act(a, "W", "pass", 7.0)
    assert ev[0]["t"] == "pass" and ev[0]["to_move"] == "B" and ev[0]["clocks"]["W"]["main"] == 598.0
    snap = a.snapshot(None, 7.0)
    assert snap["board"][3][2] == "X"
    assert snap["moves"] == [{"color": "B", "p": [2, 3], "captured": []}, {"color": "W", "p": None, "captured": []}]
    assert snap["phase"] == "playing" and snap["to_move"] == "B"
    json.dumps(snap)


def test_captures_are_reported():
    a = make()
    play_all(a, KO_SETUP)
    ev = act(a, "B", "play", 20.0, p=[2, 1])
    assert ev[0]["captured"] == [[1, 1]] and ev[0]["prisoners"] == {"B": 1, "W": 0}
    # the snapshot's moves carry each move's captures as the engine recorded them, through an undo and a replay
    assert a.snapshot(None)["moves"][-1] == {"color": "B", "p": [2, 1], "captured": [[1, 1]]}
    assert GameAuthority.replay(a.config, 0.0, a.log).snapshot(None)["moves"] == a.snapshot(None)["moves"]
    act(a, "B", "undo_request", 21.0)
    act(a, "W", "undo_accept", 22.0)
    act(a, "B", "play", 23.0, p=[5, 5])  # the undone capture's place in the list, now a move that takes nothing
    assert [m["captured"] for m in a.snapshot(None)["moves"]] == [[]] * (len(KO_SETUP) + 1)


def test_a_move_and_an_undo_say_where_the_ko_is():
    a = make()
    play_all(a, KO_SETUP)
    before = act(a, "W", "pass", 19.0) if a.game.to_move == "W" else []
    assert all(e.get("ko") is None for e in before if e["t"] == "move")
    taking = act(a, "B", "play", 20.0, p=[2, 1])[0]
    assert taking["ko"] == [1, 1]  # White may not retake at once
    assert act(a, "W", "play", 21.0, p=[5, 5])[0]["ko"] is None
    act(a, "W", "undo_request", 22.0)
    undo = act(a, "B", "undo_accept", 23.0)[0]
    assert undo["t"] == "undo" and undo["ko"] == [1, 1]


def test_moves_passes_undos_and_snapshots_list_the_points_the_side_to_move_may_not_play():
    a = make()
    play_all(a, KO_SETUP)
    before = act(a, "W", "pass", 19.0) if a.game.to_move == "W" else []
    assert all(e["illegal"] == [] for e in before if e["t"] == "pass")
    taking = act(a, "B", "play", 20.0, p=[2, 1])[0]
    assert taking["illegal"] == [[0, 0], [1, 1]]  # a suicide in the corner, and the ko
    assert a.snapshot("B")["illegal"] == a.snapshot(None)["illegal"] == [[0, 0], [1, 1]]
    passed = act(a, "W", "pass", 21.0)[0]
    assert passed["illegal"] == []  # Black may fill the ko
    act(a, "W", "undo_request", 22.0)
    undo = act(a, "B", "undo_accept", 23.0)[0]
    assert undo["t"] == "undo" and undo["illegal"] == [[0, 0], [1, 1]]  # White to move again, the ko back
    assert refused(a, "W", "play", 24.0, "illegal_move", p=[1, 1]).reason == "ko"


def test_refusals_change_nothing():
    a = make(time_control=ABS)
    play_all(a, KO_SETUP)
    act(a, "B", "play", 20.0, p=[2, 1])
    assert refused(a, "W", "play", 21.0, "illegal_move", p=[1, 1]).reason == "ko"
    assert refused(a, "W", "play", 21.0, "illegal_move", p=[2, 1]).reason == "occupied"
    assert refused(a, "W", "play", 21.0, "illegal_move", p=[9, 0]).reason == "off_board"
    refused(a, "B", "play", 21.0, "not_your_turn", p=[5, 5])
    refused(a, "B", "pass", 21.0, "not_your_turn")
    refused(a, None, "play", 21.0, "not_a_player", p=[5, 5])
    refused(a, "spectator", "resign", 21.0, "not_a_player")
    refused(a, "W", "play", 21.0, "bad_request", p="e5")
    refused(a, "W", "play", 21.0, "bad_request", p=[1, True])
    refused(a, "W", "castle", 21.0, "unknown_action")
    refused(a, "W", "tick", 21.0, "not_allowed")
    refused(a, "W", "toggle_dead", 21.0, "wrong_phase", p=[2, 1])
    refused(a, "W", "accept_score", 21.0, "wrong_phase")
    refused(a, "W", "seal", 21.0, "wrong_phase", p=[5, 5])
    refused(a, "B", "undo_accept", 21.0, "no_offer")
    refused(a, "W", "undo_request", 21.0, "cannot_undo")
    refused(a, "W", "draw_accept", 21.0, "no_offer")
    refused(a, "W", "abort", 21.0, "too_late_to_abort")
    refused(a, "W", "claim_victory", 21.0, "opponent_present")


def test_finished_game_refuses_everything():
    a = make()
    act(a, "B", "resign", 1.0)
    for t, fields in [("play", {"p": [1, 1]}), ("pass", {}), ("resign", {}), ("draw_offer", {})]:
        refused(a, "W", t, 2.0, "game_over", **fields)
    assert a.tick(100.0) == [] and a.deadline() is None


# ================================================================= endings
@pytest.mark.parametrize("phase", ["playing", "scoring"])
def test_resignation(phase):
    a = make()
    if phase == "scoring":
        play_all(a, [("B", (4, 4)), ("W", None), ("B", None)])
        assert a.phase == "scoring"
    ev = act(a, "W", "resign", 10.0)
    assert ev[0]["t"] == "game_over" and ev[0]["by"] == "W"
    assert ev[0]["result"] == {"winner": "B", "reason": "resignation", "margin": None, "text": "B+R", "score": None}
    assert a.phase == "finished" and a.snapshot(None, 10.0)["result"]["text"] == "B+R"


def test_abort_before_both_players_have_moved():
    a = make()
    act(a, "B", "play", 1.0, p=[4, 4])
    ev = act(a, "B", "abort", 2.0)
    assert ev[0]["result"]["reason"] == "abort" and ev[0]["result"]["text"] == "Void"
    assert ev[0]["result"]["winner"] is None
    b = make()
    play_all(b, [("B", (4, 4)), ("W", (3, 3))])
    refused(b, "B", "abort", 5.0, "too_late_to_abort")


def test_draw_offer_decline_accept_and_lapse():
    a = make()
    act(a, "B", "play", 1.0, p=[4, 4])
    ev = act(a, "B", "draw_offer", 2.0)
    assert ev[0]["t"] == "offer" and ev[0]["kind"] == "draw" and ev[0]["by"] == "B"
    refused(a, "B", "draw_offer", 2.5, "offer_pending")
    refused(a, "B", "draw_accept", 2.5, "no_offer")  # not your own offer
    ev = act(a, "W", "draw_decline", 3.0)
    assert ev[0]["t"] == "offer_declined" and a.offers["draw"] is None
    act(a, "W", "draw_offer", 4.0)
    act(a, "W", "play", 5.0, p=[3, 3])  # a move lapses the offer
    assert a.offers["draw"] is None
    refused(a, "B", "draw_accept", 6.0, "no_offer")
    act(a, "B", "draw_offer", 6.0)
    ev = act(a, "W", "draw_accept", 7.0)
    assert ev[0]["result"] == {"winner": None, "reason": "draw", "margin": None, "text": "Draw", "score": None}


def test_crossed_draw_offers_agree():
    a = make()
    act(a, "B", "draw_offer", 1.0)
    ev = act(a, "W", "draw_offer", 2.0)
    assert ev[-1]["t"] == "game_over" and ev[-1]["result"]["reason"] == "draw"


# ================================================================= undo
def test_undo_accepted_restores_board_prisoners_ko_and_clocks():
    a = make(time_control=ABS)
    play_all(a, KO_SETUP)  # clocks: each player used 4 s, B to move at 9.0
    before = a.snapshot(None, 9.0)
    b_clock = before["clocks"]["B"]["main"]
    act(a, "B", "play", 19.0, p=[2, 1])  # 10 s spent; captures the ko stone
    assert a.game.prisoners["B"] == 1
    refused(a, "W", "undo_request", 20.0, "cannot_undo")  # only the last mover may ask
    ev = act(a, "B", "undo_request", 25.0)
    assert ev[0]["t"] == "offer" and ev[0]["kind"] == "undo"
    ev = act(a, "W", "undo_accept", 30.0)
    assert ev[0]["t"] == "undo" and ev[0]["p"] == [2, 1] and ev[0]["to_move"] == "B"
    after = a.snapshot(None, 30.0)
    assert after["board"] == before["board"] and after["prisoners"] == {"B": 0, "W": 0}
    assert after["moves"] == before["moves"]
    # B's clock is back to just before the move: the 10 s already used are still counted ...
    assert after["clocks"]["B"]["main"] == b_clock - 10.0 and after["clocks"]["B"]["running"]
    # ... W's 11 s between the move and the acceptance are charged to nobody
    assert after["clocks"]["W"] == before["clocks"]["W"]
    act(a, "B", "play", 31.0, p=[2, 1])  # the ko capture is legal again
    assert a.snapshot(None, 31.0)["clocks"]["B"]["main"] == b_clock - 11.0
    assert refused(a, "W", "play", 32.0, "illegal_move", p=[1, 1]).reason == "ko"


def test_undo_of_a_move_that_came_after_a_period_ran_out_restores_the_clock_as_settled_then():
    a = make(time_control={"kind": "byoyomi", "main": 10, "periods": 3, "period_time": 5})
    reference = make(time_control={"kind": "byoyomi", "main": 10, "periods": 3, "period_time": 5})
    for auth in (a, reference):
        act(auth, "B", "play", 1.0, p=[4, 4])  # W's turn from 1.0: the first period runs out at 16.0
    assert [e["t"] for e in reference.tick(18.0)] == ["period_used"]
    settled = reference.clock.to_dict(18.0)  # W's clock at 18.0, the period announced
    events = act(a, "W", "play", 18.0, p=[3, 3])  # the period runs out in the same step as the move
    assert [e["t"] for e in events] == ["period_used", "move"]
    act(a, "W", "undo_request", 19.0)
    act(a, "B", "undo_accept", 20.0)
    assert a.clock.to_dict(20.0) == settled  # the 1.0 s up to 20.0 charged to nobody
    assert a.tick(21.0) == []  # the period is not announced twice
    assert [e["t"] for e in a.tick(23.0)] == ["period_used"]  # the next one runs out 5 s after the first


def test_undo_of_a_conditional_answer_restores_the_clocks_as_the_answer_found_them():
    a = make(time_control=ABS)
    act(a, "W", "conditional", 1.0, tree=[[[2, 2], [6, 6], []]])
    events = act(a, "B", "play", 100.0, p=[2, 2])  # two charges in one step: B's move, then W's answer
    assert [(e["t"], e.get("color")) for e in events] == [("move", "B"), ("move", "W"), ("conditional", "W")]
    act(a, "W", "undo_request", 110.0)
    act(a, "B", "undo_accept", 120.0)  # takes back W's answer, not B's move
    clocks = a.snapshot(None, 130.0)["clocks"]
    assert (clocks["B"]["main"], clocks["B"]["running"]) == (500.0, False)  # B's 100 s stay charged
    assert (clocks["W"]["main"], clocks["W"]["running"]) == (590.0, True)  # W's turn again from 120.0
    act(a, "B", "undo_request", 130.0)
    refused(a, "B", "undo_request", 130.0, "offer_pending")


def test_a_move_refused_after_its_charge_leaves_the_clock_and_its_undo_history_as_they_were(monkeypatch):
    a = make(time_control={"kind": "byoyomi", "main": 10, "periods": 3, "period_time": 5})
    act(a, "B", "play", 1.0, p=[4, 4])
    act(a, "W", "play", 4.0, p=[3, 3])
    clock, history = a.clock.to_dict(), list(a.clock_history)

    def refuse(*args, **kwargs):
        raise GameError("bad_request", "refused once the clock was charged")

    with monkeypatch.context() as m:
        m.setattr(a, "place", refuse)
        refused(a, "B", "play", 11.0, "bad_request", p=[5, 5])  # charged 7 s of B's 9, then undone
    assert a.clock.to_dict() == clock
    assert a.clock_history == history
    act(a, "B", "play", 12.0, p=[5, 5])  # charged as if the refused move never came
    assert a.snapshot(None, 12.0)["clocks"]["B"]["main"] == 1.0
    act(a, "B", "undo_request", 14.0)
    act(a, "W", "undo_accept", 15.0)
    assert a.clock.to_dict(15.0) == {**clock, "turn_started": None, "turn_elapsed": 12.0 - 4.0}


def test_undo_declined_and_lapsed():
    a = make()
    act(a, "B", "play", 1.0, p=[4, 4])
    act(a, "B", "undo_request", 2.0)
    ev = act(a, "W", "undo_decline", 3.0)
    assert ev[0] == {
        "t": "offer_declined",
        "kind": "undo",
        "by": "W",
        "visibility": "all",
        "server_time": 3.0,
        "offers": {"undo": None, "draw": None, "adjourn": None, "resume": None, "rematch": None},
    }
    assert a.snapshot(None, 3.0)["board"][4][4] == "X"
    act(a, "B", "undo_request", 4.0)
    act(a, "W", "play", 5.0, p=[3, 3])  # the opponent moved instead: the request lapses
    refused(a, "W", "undo_accept", 6.0, "no_offer")
    refused(a, "B", "undo_accept", 6.0, "no_offer")


# ================================================================= scoring
SCORING_GAME = [("B", (2, 2)), ("W", (6, 6)), ("B", (2, 3)), ("W", (6, 5)), ("B", None), ("W", None)]


def test_two_passes_start_scoring_with_clocks_paused():
    a = make(time_control=ABS, scoring_timeout=120)
    play_all(a, SCORING_GAME[:-1])
    ev = act(a, "W", "pass", 10.0)
    assert [e["t"] for e in ev] == ["pass", "phase"]
    phase = ev[1]
    assert phase["phase"] == "scoring" and phase["accepted"] == {"B": False, "W": False}
    expected_dead = a.game.propose_dead()
    assert {tuple(p) for p in phase["dead"]} >= expected_dead
    assert phase["score"]["result"] == a.game.score(expected_dead).result_text()
    assert phase["deadline"] == 130.0 and a.deadline() == 130.0
    snap = a.snapshot(None, 500.0)
    assert not snap["clocks"]["B"]["running"] and not snap["clocks"]["W"]["running"]
    assert snap["clocks"] == a.snapshot(None, 10.0)["clocks"]  # paused: nothing is charged
    refused(a, "B", "play", 11.0, "wrong_phase", p=[4, 4])
    refused(a, "B", "pass", 11.0, "wrong_phase")
    refused(a, "B", "undo_request", 11.0, "wrong_phase")


def test_toggles_mark_whole_chains_reset_acceptance_then_both_accept():
    a = make()
    play_all(a, SCORING_GAME)
    a.dead = set()  # start from no marks, whatever was proposed
    ev = act(a, "W", "toggle_dead", 20.0, p=[2, 3])
    assert ev[0]["t"] == "dead_stones" and ev[0]["marked_dead"] is True
    assert ev[0]["dead"] == [[2, 2], [2, 3]]  # the whole chain
    act(a, "B", "accept_score", 21.0)
    assert a.accepted == {"B": True, "W": False}
    refused(a, "B", "accept_score", 21.5, "already_accepted")
    ev = act(a, "B", "toggle_dead", 22.0, p=[2, 2])  # a change clears both acceptances
    assert ev[0]["marked_dead"] is False and ev[0]["dead"] == [] and ev[0]["accepted"] == {"B": False, "W": False}
    act(a, "B", "toggle_dead", 23.0, p=[6, 6])
    refused(a, "B", "toggle_dead", 23.5, "no_stone", p=[0, 8])
    for off in ([9, 0], [-1, 3], [2, 99]):  # the same answer as a move off the board
        assert refused(a, "B", "toggle_dead", 23.5, "illegal_move", p=off).reason == "off_board"
    assert refused(a, "B", "toggle_dead", 23.5, "illegal_move", p=[9, 9]).reason == "off_board"
    refused(a, None, "toggle_dead", 23.5, "not_a_player", p=[6, 6])
    ev = act(a, "W", "accept_score", 24.0)
    assert [e["t"] for e in ev] == ["score_accepted"]
    ev = act(a, "B", "accept_score", 25.0)
    assert [e["t"] for e in ev] == ["score_accepted", "game_over"]
    result = ev[1]["result"]
    expected = a.game.score({(6, 6), (6, 5)})
    assert result["reason"] == "score" and result["winner"] == "B" == expected.winner
    assert result["text"] == expected.result_text() and result["margin"] == expected.margin
    assert result["score"]["B"] == expected.to_dict()["B"]  # full breakdown


def test_resume_play_from_scoring():
    a = make(time_control=ABS)
    play_all(a, SCORING_GAME)  # W passed last at 6.0
    act(a, "W", "toggle_dead", 10.0, p=[2, 2])
    ev = act(a, "W", "resume_play", 50.0)
    assert ev[0]["t"] == "phase" and ev[0]["phase"] == "playing" and ev[0]["to_move"] == "B"
    assert a.dead == set() and a.accepted == {"B": False, "W": False}
    snap = a.snapshot(None, 50.0)
    assert snap["scoring"] is None and snap["clocks"]["B"]["running"]
    assert a.deadline() == 50.0 + snap["clocks"]["B"]["main"]
    refused(a, "W", "play", 51.0, "not_your_turn", p=[4, 4])
    ev = act(a, "B", "pass", 52.0)
    assert [e["t"] for e in ev] == ["pass"]  # one pass after resuming is not the end
    ev = act(a, "W", "pass", 53.0)
    assert [e["t"] for e in ev] == ["pass", "phase"]


def test_scoring_auto_accepts_after_the_timeout():
    a = make(scoring_timeout=60)
    play_all(a, SCORING_GAME)  # scoring from 6.0
    assert a.deadline() == 66.0
    act(a, "B", "toggle_dead", 30.0, p=[6, 6])  # activity pushes the deadline
    assert a.deadline() == 90.0
    assert a.tick(89.0) == []
    ev = a.tick(90.0)
    assert ev[0]["t"] == "game_over" and ev[0]["auto_accepted"] is True
    assert ev[0]["result"]["text"] == a.game.score({(6, 6), (6, 5)}).result_text()


# ================================================================= time
def test_timeout_by_tick_and_deadline():
    a = make(time_control={"kind": "absolute", "main": 30})
    act(a, "B", "play", 10.0, p=[4, 4])
    assert a.deadline() == 40.0
    assert a.tick(39.9) == []
    assert a.log[-1]["action"]["t"] == "play"  # an empty tick is not logged
    ev = a.tick(40.0)
    assert ev[0]["t"] == "game_over" and ev[0]["result"]["text"] == "B+T"
    assert ev[0]["result"]["reason"] == "timeout" and ev[0]["clocks"]["W"]["main"] == 0.0
    assert a.log[-1]["action"] == {"t": "tick"} and a.log[-1]["actor"] == SYSTEM


def test_late_move_is_refused_until_the_flag_is_settled():
    a = make(time_control={"kind": "absolute", "main": 30})
    refused(a, "B", "play", 31.0, "game_over", p=[4, 4])
    assert a.phase == "playing"
    assert a.tick(31.0)[0]["result"]["text"] == "W+T"


def test_lag_credit_saves_a_move_made_in_the_grace():
    a = make(time_control={"kind": "absolute", "main": 30}, lag={"initial": 0.5, "cap": 2.0})
    assert a.deadline() == 30.5
    ev = act(a, "B", "play", 30.3, facts={"lag": 0.4}, p=[4, 4])
    assert ev[0]["t"] == "move" and ev[0]["clocks"]["B"]["main"] == pytest.approx(0.1)
    b = make(time_control={"kind": "absolute", "main": 30}, lag={"initial": 0.5, "cap": 2.0})
    ev = act(b, "B", "play", 30.3, facts={"lag": 0.1}, p=[4, 4])  # not enough lag: flagged
    assert ev == [ev[0]] and ev[0]["t"] == "game_over" and ev[0]["result"]["text"] == "W+T"
    assert b.snapshot(None, 31.0)["board"][4][4] == "."


def test_lag_in_the_client_message_is_ignored():
    a = make(time_control={"kind": "absolute", "main": 30}, lag={"initial": 0.5, "cap": 2.0})
    ev = act(a, "B", "play", 10.0, p=[4, 4], lag=5.0)
    assert ev[0]["clocks"]["B"]["main"] == 20.0


def test_byoyomi_periods_are_announced():
    a = make(time_control={"kind": "byoyomi", "main": 10, "periods": 3, "period_time": 5})
    assert a.deadline() == 15.0
    ev = a.tick(16.0)
    assert ev[0]["t"] == "period_used" and ev[0]["color"] == "B" and ev[0]["periods_left"] == 2
    assert ev[0]["clocks"]["B"]["periods"] == 2
    ev = act(a, "B", "play", 17.0, p=[4, 4])
    assert ev[0]["periods_used"] == 1 and ev[0]["clocks"]["B"]["periods"] == 2
    ev = a.tick(17.0 + 10 + 15)
    assert [e["t"] for e in ev] == ["period_used", "period_used", "game_over"]
    assert ev[-1]["result"]["text"] == "B+T"


def test_server_restart_does_not_charge_downtime():
    a = make(time_control={"kind": "absolute", "main": 60})
    act(a, "B", "play", 10.0, p=[4, 4])
    ev = a.server_restart(down_from=20.0, now=500.0)
    assert ev[0]["t"] == "clock_restart" and ev[0]["clocks"]["W"]["main"] == 50.0
    assert a.deadline() == 550.0
    with pytest.raises(GameError) as info:
        a.server_restart(down_from=600.0, now=550.0)
    assert info.value.code == "bad_request"


def test_server_restart_pushes_the_scoring_deadline_back_by_the_downtime():
    a = make(time_control=ABS, scoring_timeout=60)
    play_all(a, SCORING_GAME)  # scoring from 6.0: auto-acceptance due at 66.0
    act(a, "B", "toggle_dead", 30.0, p=[6, 6])  # due at 90.0
    clocks = a.snapshot(None, 40.0)["clocks"]
    ev = a.server_restart(down_from=40.0, now=1000.0)  # 50 s of the timer were left when the servers stopped
    assert [e["t"] for e in ev] == ["clock_restart"]
    assert ev[0]["down_from"] == 40.0 and ev[0]["deadline"] == 1050.0 and ev[0]["clocks"] == clocks
    assert a.deadline() == 1050.0 and a.snapshot(None, 1000.0)["scoring"]["deadline"] == 1050.0
    assert a.tick(1049.0) == [] and a.phase == "scoring"
    assert a.tick(1050.0)[0]["auto_accepted"] is True
    replayed = from_stored(json.loads(json.dumps(stored(a))))
    assert replayed.snapshot(None, 2000.0) == a.snapshot(None, 2000.0)


def test_server_restart_settles_a_scoring_timeout_that_fell_due_before_the_downtime():
    a = make(scoring_timeout=60)
    play_all(a, SCORING_GAME)  # due at 66.0
    ev = a.server_restart(down_from=70.0, now=1000.0)
    assert [e["t"] for e in ev] == ["game_over"]
    assert ev[0]["auto_accepted"] is True and ev[0]["server_time"] == 70.0


def test_server_restart_of_an_untimed_game_in_scoring_moves_only_the_timer():
    a = make(scoring_timeout=60)
    play_all(a, SCORING_GAME)  # due at 66.0
    ev = a.server_restart(down_from=10.0, now=500.0)
    assert [(e["t"], e["deadline"], e["clocks"]) for e in ev] == [("clock_restart", 556.0, None)]
    assert a.deadline() == 556.0


def _untimed_in_play():
    a = make()
    act(a, "B", "play", 10.0, p=[4, 4])
    return a


def _timed_with_a_sealed_move():
    a = make(time_control=ABS)
    play_all(a, [("B", (4, 4)), ("W", (3, 3))])
    act(a, "W", "adjourn_offer", 3.0)
    act(a, "B", "adjourn_accept", 4.0)
    act(a, "B", "seal", 10.0, p=[5, 5])
    return a


@pytest.mark.parametrize("build", [_untimed_in_play, _timed_with_a_sealed_move])
def test_server_restart_without_a_running_clock_or_timer_changes_nothing(build):
    a = build()
    log = list(a.log)
    before = {v: a.snapshot(v, 20.0) for v in ("B", "W", None)}
    assert a.server_restart(down_from=20.0, now=900.0) == []
    assert a.log == log  # nothing happened: nothing to log, store or broadcast
    assert {v: a.snapshot(v, 20.0) for v in ("B", "W", None)} == before
    assert a.deadline() is None


# ================================================================= adjournment
def test_adjournment_with_sealed_move_hidden_until_resume():
    a = make(time_control=ABS)
    play_all(a, [("B", (4, 4)), ("W", (3, 3))])  # B to move at 3.0
    act(a, "W", "adjourn_offer", 3.0)
    ev = act(a, "B", "adjourn_accept", 4.0)
    assert ev[0]["t"] == "phase" and ev[0]["phase"] == "adjourned" and ev[0]["sealer"] == "B"
    refused(a, "B", "play", 5.0, "wrong_phase", p=[5, 5])
    refused(a, "W", "seal", 5.0, "not_your_turn", p=[5, 5])
    assert refused(a, "B", "seal", 5.0, "illegal_move", p=[3, 3]).reason == "occupied"
    refused(a, "B", "resume_offer", 5.0, "not_sealed")
    ev = act(a, "B", "seal", 10.0, p=[5, 5])  # the sealer's clock ran until now
    sealed = ev[0]
    assert sealed["visibility"] == "B" and sealed["p"] == [5, 5]
    for viewer in ("W", None):
        seen = event_for(sealed, viewer)
        assert seen["t"] == "sealed" and seen["color"] == "B" and "p" not in seen
        assert "[5, 5]" not in json.dumps(seen)
        snap = a.snapshot(viewer, 11.0)
        assert snap["sealed"] == {"color": "B"} and snap["board"][5][5] == "."
        assert "[5, 5]" not in json.dumps(snap)
    assert event_for(sealed, "B")["p"] == [5, 5] and "visibility" not in event_for(sealed, "B")
    assert a.snapshot("B", 11.0)["sealed"] == {"color": "B", "p": [5, 5]}
    refused(a, "B", "seal", 12.0, "already_sealed", p=[6, 6])
    # clocks are stopped during the adjournment
    assert a.deadline() is None
    clocks = a.snapshot(None, 5000.0)["clocks"]
    assert clocks["B"]["main"] == 600.0 - 1.0 - 8.0 and not clocks["B"]["running"]
    assert clocks["W"]["main"] == 599.0 and not clocks["W"]["running"]
    act(a, "B", "resume_offer", 90000.0)
    ev = act(a, "W", "resume_accept", 90001.0)
    assert [e["t"] for e in ev] == ["phase", "move"]
    assert ev[1]["p"] == [5, 5] and ev[1]["color"] == "B" and ev[1]["visibility"] == "all"
    assert ev[1]["sealed"] is True
    snap = a.snapshot(None, 90001.0)
    assert snap["board"][5][5] == "X" and snap["phase"] == "playing" and snap["sealed"] is None
    assert snap["clocks"]["W"]["running"] and snap["clocks"]["W"]["main"] == 599.0
    assert a.deadline() == 90001.0 + 599.0


def test_adjourn_decline_and_sealed_pass():
    a = make()
    act(a, "B", "play", 1.0, p=[4, 4])
    act(a, "B", "adjourn_offer", 2.0)
    act(a, "W", "adjourn_decline", 3.0)
    assert a.phase == "playing"
    act(a, "B", "adjourn_offer", 4.0)
    act(a, "W", "adjourn_accept", 5.0)
    ev = act(a, "W", "seal", 6.0, p=None)
    assert ev[0]["p"] is None and event_for(ev[0], "B") == {"t": "sealed", "color": "W", "clocks": None, "server_time": 6.0}
    act(a, "W", "resume_offer", 7.0)
    refused(a, "W", "resume_accept", 8.0, "no_offer")
    act(a, "B", "resume_decline", 8.0)
    act(a, "B", "resume_offer", 9.0)
    ev = act(a, "W", "resume_accept", 10.0)
    assert [e["t"] for e in ev] == ["phase", "pass"]


# ================================================================= abandonment
def test_abandonment_claim_before_and_after_grace():
    a = make(abandon_grace=60)
    act(a, "B", "play", 1.0, p=[4, 4])
    a.player_left("W", 100.0)
    err = refused(a, "B", "claim_victory", 159.0, "too_early_to_claim")
    assert "1 s" in err.message
    refused(a, "W", "claim_victory", 200.0, "opponent_present")
    a.player_returned("W", 150.0)
    refused(a, "B", "claim_victory", 200.0, "opponent_present")
    a.player_left("W", 300.0)
    a.player_left("W", 310.0)  # still gone since 300
    ev = act(a, "B", "claim_victory", 360.0)
    assert ev[0]["result"] == {"winner": "B", "reason": "abandonment", "margin": None, "text": "B+F", "score": None}
    assert a.log[-1]["facts"] == {"absent_since": 300.0}


def test_without_a_claim_the_clock_decides():
    a = make(time_control={"kind": "absolute", "main": 100}, abandon_grace=10)
    act(a, "B", "play", 1.0, p=[4, 4])
    a.player_left("W", 1.0)
    assert a.deadline() == 101.0
    assert a.tick(101.0)[0]["result"]["text"] == "B+T"


# ================================================================= replay
def _long_game(a):
    act(a, "B", "play", 2.0, facts={"lag": 0.2}, p=[2, 2])
    act(a, "W", "play", 5.5, facts={"lag": 0.05}, p=[6, 6])
    act(a, "W", "undo_request", 6.0)
    refused(a, "B", "undo_request", 6.5, "cannot_undo")
    act(a, "B", "draw_offer", 7.0)
    act(a, "W", "draw_decline", 8.0)
    act(a, "B", "play", 9.0, facts={"lag": 1.3}, p=[2, 3])
    act(a, "B", "undo_request", 9.5)
    act(a, "W", "undo_accept", 10.0)
    act(a, "B", "play", 12.0, p=[2, 3])
    assert [e["t"] for e in a.tick(49.5)] == ["period_used"]
    ev = act(a, "W", "play", 50.0, facts={"lag": 0.1}, p=[6, 5])
    assert ev[0]["periods_used"] == 1
    a.server_restart(down_from=52.0, now=900.0)
    act(a, "B", "adjourn_offer", 901.0)
    act(a, "W", "adjourn_accept", 902.0)
    act(a, "B", "seal", 930.0, p=None)
    act(a, "W", "resume_offer", 5000.0)
    act(a, "B", "resume_accept", 5001.0)
    act(a, "W", "pass", 5003.0)
    assert a.phase == "scoring"
    act(a, "B", "toggle_dead", 5004.0, p=[6, 6])
    act(a, "W", "accept_score", 5005.0)
    act(a, "W", "resume_play", 5006.0)
    act(a, "B", "play", 5007.0, p=[4, 4])
    a.player_left("B", 5008.0)
    act(a, "W", "claim_victory", 5020.0)


def test_replay_of_the_action_log_reproduces_the_game():
    a = make(
        time_control={"kind": "byoyomi", "main": 30, "periods": 3, "period_time": 10},
        lag={"initial": 0.5, "cap": 2.0},
        abandon_grace=10,
    )
    _long_game(a)
    assert a.result.text == "W+F"
    state = json.loads(json.dumps(stored(a)))
    b = from_stored(state)
    for viewer in ("B", "W", None):
        assert b.snapshot(viewer, 6000.0) == a.snapshot(viewer, 6000.0)
    assert b.game.state() == a.game.state()
    assert b.clock.to_dict() == a.clock.to_dict()
    assert b.log == a.log
    # a replay that differs in one recorded fact does not reproduce the game
    state["log"][0]["facts"]["lag"] = 0.0
    c = from_stored(state)
    assert c.clock.players["B"].quota != a.clock.players["B"].quota


def test_replay_mid_game_continues_identically():
    cfg = {"size": 9, "time_control": {"kind": "fischer", "main": 60, "increment": 5}}
    a = GameAuthority(cfg, 0.0)
    act(a, "B", "play", 3.0, facts={"lag": 0.3}, p=[4, 4])
    act(a, "W", "adjourn_offer", 4.0)
    act(a, "B", "adjourn_accept", 5.0)
    act(a, "W", "seal", 9.0, p=[3, 3])
    b = GameAuthority.replay(cfg, 0.0, json.loads(json.dumps(a.log)))
    assert b.snapshot("W", 10.0) == a.snapshot("W", 10.0)
    assert b.snapshot(None, 10.0)["sealed"] == {"color": "W"}
    for x in (a, b):
        act(x, "B", "resume_offer", 20.0)
        act(x, "W", "resume_accept", 21.0)
        act(x, "B", "play", 25.0, p=[5, 5])
    assert b.snapshot(None, 30.0) == a.snapshot(None, 30.0)


def test_handicap_game_starts_with_white_to_move():
    a = make(handicap=2, time_control=ABS)
    snap = a.snapshot(None, 0.0)
    assert snap["to_move"] == "W" and snap["clocks"]["W"]["running"] and snap["handicap"] == 2
    assert sum(row.count("X") for row in snap["board"]) == 2
    refused(a, "B", "play", 1.0, "not_your_turn", p=[4, 4])


def test_triple_ko_under_japanese_rules_is_no_result():
    assert rules_for("japanese").triple_ko_no_result
    a = make(rules="japanese")
    # Three kos: ko 1 and ko 3 are Black's to take, ko 2 White's.
    black = [(1, 0), (0, 1), (1, 2), (7, 0), (8, 1), (7, 2), (6, 1), (1, 4), (0, 5), (1, 6), (8, 8)]
    white = [(2, 0), (3, 1), (2, 2), (1, 1), (6, 0), (5, 1), (6, 2), (2, 4), (3, 5), (2, 6), (1, 5)]
    setup = [m for pair in zip([("B", p) for p in black], [("W", p) for p in white]) for m in pair]
    now = play_all(a, setup)
    cycle = [("B", (2, 1)), ("W", (7, 1)), ("B", (2, 5)), ("W", (1, 1)), ("B", (6, 1)), ("W", (1, 5))]
    events = []
    for _ in range(3):
        for color, p in cycle:
            if a.phase == "finished":
                break
            events = act(a, color, "play", now, p=list(p))
            assert events[0]["captured"], (color, p)
            now += 1
    assert a.phase == "finished"
    assert events[-1]["t"] == "game_over"
    assert events[-1]["result"] == {"winner": None, "reason": "no_result", "margin": None, "text": "Void", "score": None}


def test_snapshot_defaults_to_the_time_of_the_last_action():
    a = make(time_control=ABS)
    act(a, "B", "play", 10.0, p=[4, 4])
    assert a.snapshot("W") == a.snapshot("W", 10.0)
    assert a.snapshot(None)["clocks"]["W"]["main"] == 600.0


def test_a_refusal_after_the_game_ended_in_the_same_step_leaves_the_engine_as_it_was():
    a = make(time_control={"kind": "absolute", "main": 30})
    play_all(a, [("B", (4, 4)), ("W", (3, 3))], start=1.0)
    state = a.game.state()
    refused(a, "B", "play", 40.0, "game_over", p=[5, 5])  # the flag fell first: the game ended, then was restored
    assert a.game.state() == state and not a.game.over
    assert a.phase == "playing" and a.result is None
    assert [e["t"] for e in a.tick(40.0)] == ["game_over"]
    assert a.game.over


def test_rematch_names_the_game_the_room_chose_and_replays_identically():
    a = make()
    refused(a, "B", "rematch_offer", 1.0, "wrong_phase", facts={"game_id": "g1"})
    act(a, "B", "resign", 2.0)
    refused(a, "W", "rematch_accept", 3.0, "no_offer", facts={"game_id": "g1"})
    assert act(a, "W", "rematch_offer", 4.0, facts={"game_id": "unused"})[0]["kind"] == "rematch"
    [ev] = act(a, "B", "rematch_accept", 5.0, facts={"game_id": "g2"})
    assert (ev["t"], ev["game_id"], ev["by"]) == ("rematch", "g2", "B")
    assert a.snapshot("B")["rematch"] == "g2"
    refused(a, "W", "rematch_offer", 6.0, "rematch_exists", facts={"game_id": "g3"})
    again = from_stored(json.loads(json.dumps(stored(a))))
    assert again.snapshot("W") == a.snapshot("W")


def test_score_accepted_carries_the_restarted_scoring_deadline():
    a = make()
    now = play_all(a, [("B", (2, 2)), ("W", None), ("B", None)])
    [ev] = act(a, "B", "accept_score", now + 10)
    assert ev["deadline"] == now + 10 + a.config.scoring_timeout


# ----------------------------------------------------------------- correspondence
DAY = 86400.0
CORR = {"kind": "simple", "per_move": 3 * DAY, "correspondence": True}


def test_conditional_moves_answer_at_once_and_follow_the_tree():
    a = make(time_control=CORR)
    ev = act(a, "W", "conditional", 1.0, tree=[[[2, 2], [6, 6], [[[2, 6], [6, 2]]]], [[4, 4], [3, 3]]])
    assert ev[0]["visibility"] == "W" and event_for(ev[0], "B") == {"t": "hidden"}
    assert a.snapshot("W")["conditional"][0][0] == [2, 2] and a.snapshot("B")["conditional"] == []
    assert a.snapshot(None)["conditional"] is None
    events = act(a, "B", "play", 100.0, p=[2, 2])
    assert [(e["t"], e.get("color"), e.get("p")) for e in events] == [
        ("move", "B", [2, 2]),
        ("move", "W", [6, 6]),
        ("conditional", "W", None),
    ]
    assert events[1]["conditional"] is True and events[2]["tree"] == [[[2, 6], [6, 2], []]]
    assert a.game.to_move == "B" and a.clock.players["W"].main == 3 * DAY
    # A move the tree does not name drops it; White then answers by hand.
    events = act(a, "B", "play", 200.0, p=[0, 0])
    assert [e["t"] for e in events] == ["move", "conditional"] and events[1]["tree"] == []
    assert a.game.to_move == "W" and a.snapshot("W")["conditional"] == []
    replayed = GameAuthority.replay(a.config, 0.0, a.log)
    assert replayed.snapshot("W", 300.0) == a.snapshot("W", 300.0)


def test_conditional_answers_chain_and_an_illegal_answer_drops_the_tree():
    a = make(time_control=CORR)
    act(a, "W", "conditional", 1.0, tree=[[[2, 2], [6, 6], [[[2, 6], [6, 2]]]]])
    act(a, "B", "conditional", 2.0, tree=[[[6, 6], [2, 6]]])  # Black answers White's answer
    events = act(a, "B", "play", 3.0, p=[2, 2])
    assert [e["p"] for e in events if e["t"] == "move"] == [[2, 2], [6, 6], [2, 6], [6, 2]]
    assert a.game.to_move == "B"
    b = make(time_control=CORR)
    act(b, "W", "conditional", 1.0, tree=[[[2, 2], [3, 3]]])
    act(b, "B", "play", 2.0, p=[3, 3])  # not the point the tree names
    assert b.snapshot("W")["conditional"] == []
    act(b, "W", "conditional", 3.0, tree=[[[4, 4], [3, 3]]])  # 3-3 is taken: the answer cannot be played
    events = act(b, "W", "play", 4.0, p=[5, 5])
    events = act(b, "B", "play", 5.0, p=[4, 4])
    assert [e["t"] for e in events] == ["move", "conditional"] and b.game.to_move == "W"
    refused(b, "W", "conditional", 6.0, "invalid_conditional", tree=[[[9, 9], [1, 1]]])


def test_vacation_stops_the_players_clock_and_a_flag_before_the_first_move_cancels():
    a = make(time_control=CORR)
    act(a, "B", "play", DAY, p=[2, 2])
    ev = act(a, SYSTEM, "vacation", 2 * DAY, color="W", on=True)
    assert ev[0]["t"] == "vacation" and ev[0]["clocks"]["W"]["running"] is False
    assert a.deadline() is None and act(a, SYSTEM, "vacation", 3 * DAY, color="W", on=True) == []
    act(a, SYSTEM, "vacation", 10 * DAY, color="W", on=False)
    assert a.deadline() == 12 * DAY  # a day used before the vacation, two left
    over = a.tick(12 * DAY)
    assert over[0]["result"]["reason"] == "cancelled" and over[0]["result"]["text"] == "Void"
    # Once both have moved, running out of time loses.
    b = make(time_control=CORR)
    act(b, "B", "play", 1.0, p=[2, 2])
    act(b, "W", "play", 2.0, p=[6, 6])
    assert b.tick(2.0 + 3 * DAY)[0]["result"]["text"] == "W+T"
    # A live game keeps the timeout loss even with no move made.
    c = make(time_control={"kind": "simple", "per_move": 30})
    assert c.tick(31.0)[0]["result"]["text"] == "W+T"
    refused(c, SYSTEM, "vacation", 40.0, "game_over", color="B", on=True)


def test_a_game_started_during_a_vacation_waits_for_the_player():
    a = make(time_control=CORR, away=["B"])
    assert a.deadline() is None
    act(a, SYSTEM, "vacation", 5 * DAY, color="B", on=False)
    assert a.deadline() == 8 * DAY
