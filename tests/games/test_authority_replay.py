"""Random sequences of actions: refusals change nothing, and the action log always replays exactly."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.authority import GameAuthority
from app.games.errors import GameError
from tests.games.replays import from_stored, stored

KINDS = (
    ["play"] * 8
    + ["pass"] * 3
    + ["toggle_dead"] * 2
    + [
        "resign",
        "abort",
        "undo_request",
        "undo_accept",
        "undo_decline",
        "draw_offer",
        "draw_accept",
        "draw_decline",
        "accept_score",
        "accept_score",
        "resume_play",
        "adjourn_offer",
        "adjourn_accept",
        "seal",
        "resume_offer",
        "resume_accept",
        "claim_victory",
        "tick",
    ]
)

step = st.tuples(
    st.sampled_from(KINDS),
    st.sampled_from(["mover", "mover", "other", None]),
    st.tuples(st.integers(0, 4), st.integers(0, 4)),
    st.floats(0.0, 6.0, allow_nan=False),
    st.floats(0.0, 1.0, allow_nan=False),
)
CONFIG = {
    "size": 5,
    "time_control": {"kind": "byoyomi", "main": 60, "periods": 2, "period_time": 10},
    "scoring_timeout": 30,
    "abandon_grace": 15,
}


@settings(max_examples=60, deadline=None)
@given(st.lists(step, max_size=60))
def test_random_sequences_replay_exactly(steps):
    a = GameAuthority(CONFIG, 0.0)
    now = 0.0
    for kind, who, p, dt, lag in steps:
        now += dt
        actor = {"mover": a.game.to_move, "other": "W" if a.game.to_move == "B" else "B", None: None}[who]
        if actor is None and kind == "claim_victory":
            a.player_left("W", now)
            continue
        before = a.snapshot("B", now), a.snapshot(None, now), len(a.log)
        try:
            if kind == "tick":
                a.tick(now)
            else:
                action = {"t": kind}
                if kind in ("play", "toggle_dead", "seal"):
                    action["p"] = list(p)
                a.apply(actor, action, now, {"lag": lag})
        except GameError:
            assert (a.snapshot("B", now), a.snapshot(None, now), len(a.log)) == before
    b = from_stored(json.loads(json.dumps(stored(a))))
    for viewer in ("B", "W", None):
        assert b.snapshot(viewer, now + 1.0) == a.snapshot(viewer, now + 1.0)
    assert b.game.state() == a.game.state()
    assert b.clock.to_dict() == a.clock.to_dict()
