"""Clocks across a server restart, on a fake server clock: the downtime is charged to nobody (neither the
clocks nor the scoring timer), a flag that fell before the servers stopped is settled as a timeout when they
start again, and a game the downtime changed nothing in gets no event.

Every test runs on SQLite with the in-process hub and on PostgreSQL with Redis.
"""

from __future__ import annotations

from app.settings import Settings
from app.store.db import create_engine, create_sessionmaker
from app.store.repositories import server_marks
from tests.support.room_fixtures import MakePlayer, Servers
from tests.support.room_fixtures import STACKS, make_player, server, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import begin, finished, move_to, stored
from tests.support.fake_clock import FakeClock
from tests.support.fake_clock import clock, servers  # noqa: F401 - pytest fixtures, taken by name as test parameters

pytestmark = STACKS


async def test_downtime_is_charged_to_nobody(servers: Servers, make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock, {"kind": "absolute", "main": 60})
    assert (await b.act({"t": "play", "p": [2, 2]}))["v"] == 1
    clock.advance(5)  # white thinks for 5 s, then the server stops
    await b.close()
    await w.close()
    servers.stop_all()

    stopped_at = clock.now
    clock.advance(1000)
    move_to(servers.start().url, black, white)
    w2 = await white.socket(game_id, v=1)
    restart = await w2.next_event()
    assert restart["t"] == "clock_restart" and restart["v"] == 2
    assert restart["down_from"] == stopped_at and restart["server_time"] == clock.now
    assert restart["clocks"]["W"]["main"] == 55.0 and restart["clocks"]["W"]["running"] is True
    clock.advance(3)
    ack = await w2.act({"t": "play", "p": [6, 6]})
    move = await w2.until(lambda m: m.get("t") == "move" and m.get("v") == ack["v"])
    assert move["clocks"]["W"]["main"] == 52.0
    assert (await stored(white, game_id))["status"] == "playing"
    await w2.close()


async def test_a_flag_that_fell_before_the_servers_stopped_is_settled_on_start(
    servers: Servers, stack_settings: Settings, make_player: MakePlayer, clock: FakeClock
) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock, {"kind": "absolute", "main": 10})
    start = clock.now
    await b.close()
    await w.close()
    servers.stop_all()
    # The servers were last known alive 30 s into black's 10 s turn (they crashed before settling it).
    engine = create_engine(stack_settings.effective_database_url)
    try:
        async with create_sessionmaker(engine)() as session:
            await server_marks.touch(session, start + 30)
    finally:
        await engine.dispose()

    clock.advance(500)
    move_to(servers.start().url, black, white)
    game = await finished(white, game_id)
    assert (game["result"], game["ended_by"]) == ("W+T", "timeout")
    b2 = await black.socket(game_id)
    snap = await b2.of_type("snapshot")
    assert snap["game"]["phase"] == "finished" and snap["game"]["result"]["text"] == "W+T"
    await b2.close()


async def test_downtime_is_not_charged_to_the_scoring_timer(servers: Servers, make_player: MakePlayer, clock: FakeClock) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock)  # untimed: only the scoring timer runs
    assert (await b.act({"t": "pass"}))["v"] == 1
    clock.advance(2)
    assert (await w.act({"t": "pass"}))["v"] == 3  # the pass (2) and the scoring phase (3)
    scoring = await w.until(lambda m: m.get("t") == "phase" and m.get("phase") == "scoring")
    await b.close()
    await w.close()
    servers.stop_all()

    clock.advance(1000)
    move_to(servers.start().url, black, white)
    w2 = await white.socket(game_id, v=scoring["v"])
    restart = await w2.next_event()
    assert restart["t"] == "clock_restart" and restart["v"] == scoring["v"] + 1 and restart["clocks"] is None
    assert restart["deadline"] == scoring["deadline"] + 1000
    b2 = await black.socket(game_id)
    snap = await b2.of_type("snapshot")
    assert snap["game"]["phase"] == "scoring" and snap["game"]["scoring"]["deadline"] == restart["deadline"]
    await b2.close()
    await w2.close()


async def test_an_untimed_game_in_play_gets_no_event_for_downtime(
    servers: Servers, make_player: MakePlayer, clock: FakeClock
) -> None:
    black, white = await make_player(), await make_player()
    game_id, b, w = await begin(black, white, clock)
    assert (await b.act({"t": "play", "p": [2, 2]}))["v"] == 1
    await b.close()
    await w.close()
    servers.stop_all()

    clock.advance(1000)
    move_to(servers.start().url, black, white)
    w2 = await white.socket(game_id, v=1)
    assert (await w2.act({"t": "play", "p": [6, 6]}))["v"] == 2  # nothing was added during the restart
    assert (await w2.next_event())["t"] == "move"
    await w2.close()
