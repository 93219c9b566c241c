"""Offers and the other endings over real sockets, on a fake clock: undo, draw, abort, adjournment with a
sealed move, abandonment, and actions out of phase refused without changing anything.

Every test runs on SQLite with the in-process hub and on PostgreSQL with Redis.
"""

from __future__ import annotations


from tests.support.room_fixtures import MakePlayer
from tests.support.room_fixtures import STACKS, make_player, server, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import begin, finished, sgf, stored
from tests.support.fake_clock import FakeClock
from tests.support.fake_clock import clock, servers  # noqa: F401 - pytest fixtures, taken by name as test parameters

pytestmark = STACKS


async def test_undo_declined_then_accepted_and_out_of_phase_acts_change_nothing(
    make_player: MakePlayer, clock: FakeClock
) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock)
    await w.refused({"t": "undo_accept"}, "no_offer")  # nobody asked
    await b.refused({"t": "toggle_dead", "p": [4, 4]}, "wrong_phase")  # not scoring
    await b.refused({"t": "seal", "p": [4, 4]}, "wrong_phase")  # not adjourned
    await b.refused({"t": "claim_victory"}, "opponent_present")
    assert (await stored(black, game_id))["version"] == 0

    await b.ok({"t": "play", "p": [2, 2]})
    await b.ok({"t": "undo_request"})
    offer = await w.of_type("offer")
    assert offer["kind"] == "undo" and offer["by"] == "B"
    await b.refused({"t": "undo_request"}, "offer_pending")
    await w.ok({"t": "undo_decline"})
    declined = await b.of_type("offer_declined")
    assert declined["kind"] == "undo" and declined["by"] == "W"
    await b.ok({"t": "undo_request"})
    await w.ok({"t": "undo_accept"})
    undo = await b.of_type("undo")
    assert undo["color"] == "B" and undo["p"] == [2, 2] and undo["to_move"] == "B" and undo["move_number"] == 0
    assert undo["board"][2][2] == "."
    game = await stored(black, game_id)
    assert game["moves"] == [] and game["status"] == "playing"
    for sock in (b, w):
        await sock.close()


async def test_draw_declined_then_agreed(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock)
    await b.ok({"t": "draw_offer"})
    await w.ok({"t": "draw_decline"})
    assert (await b.of_type("offer_declined"))["kind"] == "draw"
    await w.ok({"t": "draw_offer"})
    await b.ok({"t": "draw_accept"})
    over = await w.of_type("game_over")
    assert over["result"]["text"] == "Draw" and over["result"]["reason"] == "draw" and over["result"]["winner"] is None
    game = await finished(black, game_id)
    assert (game["result"], game["ended_by"]) == ("Draw", "draw")
    assert "RE[Draw]" in await sgf(black, game_id)
    for sock in (b, w):
        await sock.close()


async def test_abort_before_both_moved_and_refused_after(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock)
    await b.ok({"t": "play", "p": [2, 2]})
    await w.ok({"t": "abort"})
    over = await b.of_type("game_over")
    assert over["result"]["reason"] == "abort" and over["result"]["text"] == "Void" and over["by"] == "W"
    assert ((await finished(black, game_id))["ended_by"]) == "abort"
    for sock in (b, w):
        await sock.close()

    game_id, b, w = await begin(black, white, clock)
    await b.ok({"t": "play", "p": [2, 2]})
    await w.ok({"t": "play", "p": [6, 6]})
    await b.refused({"t": "abort"}, "too_late_to_abort")
    assert (await stored(black, game_id))["status"] == "playing"
    await b.ok({"t": "resign"})
    assert (await w.of_type("game_over"))["result"]["text"] == "W+R"
    assert ((await finished(black, game_id))["ended_by"]) == "resignation"
    for sock in (b, w):
        await sock.close()


async def test_a_sealed_move_stays_hidden_until_resumption(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock, {"kind": "absolute", "main": 600})
    s = await (await make_player()).socket(game_id)
    await s.of_type("snapshot")
    await b.ok({"t": "play", "p": [2, 2]})
    await w.ok({"t": "play", "p": [6, 6]})
    await w.ok({"t": "adjourn_offer"})
    await b.ok({"t": "adjourn_accept"})
    phase = await s.until(lambda m: m.get("t") == "phase")
    assert phase["phase"] == "adjourned" and phase["sealer"] == "B"

    clock.advance(4)
    ack = await b.ok({"t": "seal", "p": [4, 4]})
    mine = await b.event(ack["v"])
    assert mine["t"] == "sealed" and mine["p"] == [4, 4] and mine["clocks"]["B"]["main"] == 596.0
    for sock in (w, s):
        theirs = await sock.event(ack["v"])
        assert theirs["t"] == "sealed" and "p" not in theirs and theirs["color"] == "B"
    await b.refused({"t": "seal", "p": [5, 5]}, "already_sealed")
    for player in (white, black):
        sock = await player.socket(game_id)
        snap = (await sock.of_type("snapshot"))["game"]
        assert snap["phase"] == "adjourned" and snap["board"][4][4] == "."
        assert snap["sealed"] == ({"color": "B"} if player is white else {"color": "B", "p": [4, 4]})
        await sock.close()
    fresh = await (await make_player()).socket(game_id)
    assert (await fresh.of_type("snapshot"))["game"]["sealed"] == {"color": "B"}
    await fresh.close()
    for sock in (w, s):
        assert not any(m.get("p") == [4, 4] for m in sock.received)
    assert "B[ee]" not in await sgf(black, game_id)

    await w.ok({"t": "resume_offer"})
    await b.ok({"t": "resume_accept"})
    move = await s.until(lambda m: m.get("t") == "move" and m.get("sealed"))
    assert move["p"] == [4, 4] and move["color"] == "B" and move["to_move"] == "W"
    assert "B[ee]" in await sgf(black, game_id)
    for sock in (b, w, s):
        await sock.close()


async def test_abandonment_claim_refused_before_the_grace_period_then_accepted(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock)
    await b.ok({"t": "play", "p": [2, 2]})
    await b.until(lambda m: m.get("t") == "presence" and m["players"]["W"] is True)
    await w.close()
    await b.until(lambda m: m.get("t") == "presence" and m["players"]["W"] is False)
    clock.advance(30)
    await b.refused({"t": "claim_victory"}, "too_early_to_claim")
    clock.advance(31)  # past the 60 s grace period
    await b.ok({"t": "claim_victory"})
    over = await b.of_type("game_over")
    assert over["result"]["text"] == "B+F" and over["result"]["reason"] == "abandonment"
    assert over["by"] == "B" and over["absent"] == "W"
    game = await finished(black, game_id)
    assert (game["result"], game["ended_by"]) == ("B+F", "abandonment")
    await b.close()
