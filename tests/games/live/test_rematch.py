"""Rematch over real sockets: offered after the game, declined, accepted; the new game exists with the colours
swapped and this game's stored settings, and both players can play it at once.

Every test runs on SQLite with the in-process hub and on PostgreSQL with Redis.
"""

from __future__ import annotations


from tests.support.room_fixtures import MakePlayer
from tests.support.room_fixtures import STACKS, make_player, server, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import Lobby, begin, stored
from tests.support.fake_clock import FakeClock
from tests.support.fake_clock import clock, servers  # noqa: F401 - pytest fixtures, taken by name as test parameters

pytestmark = STACKS

BYOYOMI = {"kind": "byoyomi", "main": 300, "periods": 3, "period_time": 20}


async def test_rematch_declined_then_accepted_swaps_colours_and_keeps_the_settings(
    make_player: MakePlayer, clock: FakeClock
) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock, BYOYOMI)
    await b.refused({"t": "rematch_offer"}, "wrong_phase")  # not before the game is over
    await b.ok({"t": "play", "p": [2, 2]})
    await w.ok({"t": "resign"})
    await b.of_type("game_over")
    await w.refused({"t": "rematch_accept"}, "no_offer")

    await w.ok({"t": "rematch_offer"})
    offer = await b.of_type("offer")
    assert offer["kind"] == "rematch" and offer["by"] == "W"
    await w.refused({"t": "rematch_offer"}, "offer_pending")
    await b.ok({"t": "rematch_decline"})
    assert (await w.of_type("offer_declined"))["kind"] == "rematch"

    lobby = await Lobby.open(black)
    await b.ok({"t": "rematch_offer"})
    await w.ok({"t": "rematch_accept"})
    events = [await sock.of_type("rematch") for sock in (b, w)]
    new_id = events[0]["game_id"]
    started = await lobby.of_type("game_started", game_id=new_id)  # the lobby lists the new game
    assert started["rematch_of"] == game_id and started["game"]["players"]["B"]["id"] == white.user["id"]
    await lobby.close()
    assert events[1]["game_id"] == new_id != game_id and events[0]["by"] == "W"
    await b.refused({"t": "rematch_offer"}, "rematch_exists")

    old, new = await stored(black, game_id), await stored(black, new_id)
    assert new["status"] == "playing"
    assert new["players"]["B"]["id"] == old["players"]["W"]["id"]
    assert new["players"]["W"]["id"] == old["players"]["B"]["id"]
    for key in ("board_size", "rules", "komi", "handicap", "time_control", "rated"):
        assert new[key] == old[key], key

    # A fresh snapshot of the old game names the rematch; the new game is playable by its new black.
    late = await white.socket(game_id)
    assert (await late.of_type("snapshot"))["game"]["rematch"] == new_id
    nb = await white.socket(new_id)
    snap = await nb.of_type("snapshot")
    assert snap["you"]["role"] == "black" and snap["game"]["time_control"]["kind"] == "byoyomi"
    await nb.ok({"t": "play", "p": [4, 4]})
    for sock in (b, w, late, nb):
        await sock.close()


async def test_crossed_rematch_offers_agree(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock)
    await b.ok({"t": "resign"})
    await w.of_type("game_over")
    await b.ok({"t": "rematch_offer"})
    await w.ok({"t": "rematch_offer"})
    assert (await b.of_type("rematch"))["by"] == "W"
    for sock in (b, w):
        await sock.close()
