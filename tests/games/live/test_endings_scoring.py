"""Two passes, scoring, agreement, resumption and automatic acceptance over real sockets, on a fake clock.

Every test runs on SQLite with the in-process hub and on PostgreSQL with Redis.
"""

from __future__ import annotations

from typing import Any

from tests.support.room_fixtures import MakePlayer
from tests.support.room_fixtures import STACKS, make_player, server, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import Lobby, begin, finished, live_ids, sgf
from tests.support.fake_clock import FakeClock
from tests.support.fake_clock import clock, servers  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket

pytestmark = STACKS


async def _to_scoring(b: GameSocket, w: GameSocket) -> dict[str, Any]:
    for sock, message in (
        (b, {"t": "play", "p": [2, 2]}),
        (w, {"t": "play", "p": [6, 6]}),
        (b, {"t": "pass"}),
        (w, {"t": "pass"}),
    ):
        assert (await sock.act(message))["t"] == "ack"
    return await b.until(lambda m: m.get("t") == "phase")


async def test_toggles_reset_acceptance_then_both_accept(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock, {"kind": "absolute", "main": 600})
    lobby = await Lobby.open(await make_player())
    phase = await _to_scoring(b, w)
    assert phase["phase"] == "scoring" and phase["accepted"] == {"B": False, "W": False}
    assert phase["clocks"]["B"]["running"] is False and phase["clocks"]["W"]["running"] is False
    assert "dead" in phase and "score" in phase

    assert (await w.act({"t": "accept_score"}))["t"] == "ack"
    accepted = await b.of_type("score_accepted")
    assert accepted["color"] == "W" and accepted["accepted"] == {"B": False, "W": True}
    assert (await b.act({"t": "toggle_dead", "p": [6, 6]}))["t"] == "ack"
    toggled = await w.of_type("dead_stones")
    assert toggled["by"] == "B" and [6, 6] in toggled["dead"]
    assert toggled["accepted"] == {"B": False, "W": False}  # the toggle cleared white's acceptance

    assert (await w.act({"t": "accept_score"}))["t"] == "ack"
    assert (await b.act({"t": "accept_score"}))["t"] == "ack"
    over = await w.of_type("game_over")
    result = over["result"]
    assert result["reason"] == "score" and result["winner"] == "B" and result["text"] == "B+73.5"
    assert result["score"]["B"]["total"] == 81 and result["score"]["W"]["komi"] == 7.5
    assert (await lobby.of_type("game_finished", game_id=game_id))["result"] == "B+73.5"
    game = await finished(black, game_id)
    assert (game["result"], game["ended_by"]) == ("B+73.5", "score")
    assert game["result_detail"] == result
    assert "RE[B+73.5]" in await sgf(black, game_id)
    assert game_id not in await live_ids(black)
    for sock in (b, w):
        await sock.close()
    await lobby.close()


async def test_resume_from_scoring_then_two_new_passes(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock, {"kind": "absolute", "main": 600})
    await _to_scoring(b, w)
    assert (await w.act({"t": "resume_play"}))["t"] == "ack"
    phase = await b.until(lambda m: m.get("t") == "phase" and m.get("phase") == "playing")
    assert phase["by"] == "W" and phase["to_move"] == "B"
    assert phase["clocks"]["B"]["running"] is True
    refused = await w.act({"t": "play", "p": [4, 4]})
    assert refused["t"] == "error" and refused["code"] == "not_your_turn"
    assert (await b.act({"t": "play", "p": [4, 4]}))["t"] == "ack"
    assert (await w.act({"t": "pass"}))["t"] == "ack"
    assert (await b.act({"t": "pass"}))["t"] == "ack"
    again = await w.until(lambda m: m.get("t") == "phase" and m.get("phase") == "scoring")
    assert again["accepted"] == {"B": False, "W": False}
    for sock in (b, w):
        await sock.close()


async def test_an_unanswered_score_is_accepted_automatically(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock)
    await _to_scoring(b, w)
    clock.advance(301)  # past the scoring timeout (300 s by default), nobody answering
    for sock in (b, w):
        over = await sock.of_type("game_over")
        assert over["auto_accepted"] is True and over["result"]["reason"] == "score"
    game = await finished(black, game_id)
    assert game["ended_by"] == "score" and game["result"] == over["result"]["text"]
    for sock in (b, w):
        await sock.close()
