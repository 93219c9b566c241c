"""Server-authoritative clocks over real sockets, on a fake server clock: each time system's accounting in
the move events, byo-yomi periods used with nobody acting, and flag falls with nobody connected.

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


async def _play(sock: GameSocket, point: list[int]) -> dict[str, Any]:
    ack = await sock.act({"t": "play", "p": point})
    assert ack["t"] == "ack", ack
    return await sock.until(lambda m: m.get("v") == ack["v"] and m.get("t") == "move")


async def test_byoyomi_periods_used_by_moves_and_by_the_server_then_lost(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    tc = {"kind": "byoyomi", "main": 10, "periods": 3, "period_time": 5}
    game_id, b, w = await begin(black, white, clock, tc)

    first = await _play(b, [2, 2])
    assert first["server_time"] == clock.now
    assert first["clocks"]["B"] == {
        "main": 10.0,
        "periods": 3,
        "period_time": 5.0,
        "period_left": 5.0,
        "stones": None,
        "running": False,
    }
    assert first["clocks"]["W"]["running"] is True

    clock.advance(12)  # all the main time and 2 s of a period: the period is kept
    move = await _play(w, [6, 6])
    assert move["clocks"]["W"]["main"] == 0.0 and move["clocks"]["W"]["periods"] == 3
    assert move["clocks"]["W"]["period_left"] == 5.0 and "periods_used" not in move
    await _play(b, [2, 6])

    clock.advance(7)  # a whole period and 2 s of the next
    ack = await w.act({"t": "play", "p": [6, 2]})
    assert ack["t"] == "ack"
    used = await w.until(lambda m: m.get("t") == "period_used")
    move = await w.until(lambda m: m.get("t") == "move" and m.get("v") == ack["v"])
    assert used["color"] == "W" and used["periods_left"] == 2
    assert move["periods_used"] == 1 and move["clocks"]["W"]["periods"] == 2
    await _play(b, [3, 3])

    # White thinks: the server announces each period used up, with nobody sending anything.
    clock.advance(6)
    for sock in (b, w):
        used = await sock.until(lambda m: m.get("t") == "period_used")
        assert used["color"] == "W" and used["periods_left"] == 1 and used["clocks"]["W"]["periods"] == 1
        assert used["server_time"] == clock.now
    clock.advance(6)
    for sock in (b, w):
        over = await sock.of_type("game_over")
        assert over["result"]["text"] == "B+T" and over["result"]["reason"] == "timeout"
        assert over["clocks"]["W"]["periods"] == 0
    game = await finished(black, game_id)
    assert (game["result"], game["ended_by"]) == ("B+T", "timeout")
    refused = await w.act({"t": "play", "p": [7, 7]})
    assert refused["t"] == "error" and refused["code"] == "game_over"
    for sock in (b, w):
        await sock.close()


async def test_canadian_stones_count_down_and_the_period_starts_again(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock, {"kind": "canadian", "main": 0, "stones": 2, "period_time": 10})

    clock.advance(3)
    move = await _play(b, [2, 2])
    assert (move["clocks"]["B"]["stones"], move["clocks"]["B"]["period_left"]) == (1, 7.0)
    assert (move["clocks"]["W"]["stones"], move["clocks"]["W"]["period_left"]) == (2, 10.0)
    await _play(w, [6, 6])
    clock.advance(3)
    move = await _play(b, [2, 6])  # the period's last stone: a fresh period
    assert (move["clocks"]["B"]["stones"], move["clocks"]["B"]["period_left"]) == (2, 10.0)
    assert move["server_time"] == clock.now
    for sock in (b, w):
        await sock.close()


async def test_fischer_adds_the_increment_after_each_move_up_to_the_cap(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock, {"kind": "fischer", "main": 10, "increment": 5, "cap": 20})

    move = await _play(b, [2, 2])
    assert move["clocks"]["B"]["main"] == 15.0 and move["clocks"]["W"]["main"] == 10.0
    clock.advance(4)
    move = await _play(w, [6, 6])
    assert move["clocks"]["W"]["main"] == 11.0 and move["clocks"]["B"]["running"] is True
    move = await _play(b, [2, 6])
    assert move["clocks"]["B"]["main"] == 20.0  # 15 + 5, at the cap
    for sock in (b, w):
        await sock.close()


async def test_a_flag_falls_with_both_players_gone_and_the_lobby_hears_of_it(make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock, {"kind": "absolute", "main": 30})
    await _play(b, [2, 2])
    watcher = await make_player()
    lobby = await Lobby.open(watcher)
    assert game_id in await live_ids(watcher)
    await b.close()
    await w.close()

    clock.advance(31)  # white's 30 s (and the lag quota) run out while nobody is connected
    message = await lobby.of_type("game_finished", game_id=game_id)
    assert message["result"] == "B+T"
    game = await finished(watcher, game_id)
    assert (game["result"], game["ended_by"]) == ("B+T", "timeout")
    assert game["result_detail"]["winner"] == "B" and game["result_detail"]["reason"] == "timeout"
    assert game_id not in await live_ids(watcher)
    assert "RE[B+T]" in await sgf(watcher, game_id)
    await lobby.close()
