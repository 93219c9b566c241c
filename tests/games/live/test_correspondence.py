"""Correspondence games over simulated days, on a fake server clock, through the real API and sockets:
conditional moves, a weekend pause, vacation ending by itself, cancellation of a game nobody moved in, and
refusals of what a correspondence game cannot be.

Every test runs on SQLite with the in-process hub and on PostgreSQL with Redis.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from app.settings import Settings
from tests.support.room_fixtures import Servers
from tests.support.room_fixtures import STACKS, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import finished, stored
from tests.support.fake_clock import ClockServers, FakeClock, clock  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, Player, start_game

pytestmark = STACKS

DAY = 86400.0
WEEK = 7 * DAY
A_WEEK_A_MOVE = {"kind": "simple", "per_move": WEEK, "correspondence": True}


@pytest.fixture
def servers(stack_settings: Settings, clock: FakeClock) -> Iterator[ClockServers]:
    group = ClockServers(stack_settings.model_copy(update={"vacation_sweep_seconds": 0.2}), clock)
    yield group
    group.stop_all()


People = Callable[[], Awaitable[Player]]
"""What ``people`` gives: each call a newly registered player, signed in."""


@pytest.fixture
async def people(servers: Servers) -> AsyncIterator[People]:
    server = servers.start()
    made: list[Player] = []

    async def register() -> Player:
        player = await Player(server.url).visit()
        name = "c" + uuid.uuid4().hex[:10]
        password = "correct horse battery " + uuid.uuid4().hex
        response = await player.http.post("/api/auth/register", json={"username": name, "password": password})
        assert response.status_code in (200, 201), response.text
        made.append(player)
        return await player.visit()

    yield register
    for player in made:
        await player.close()


def next_weekday(after: float, weekday: int) -> float:
    """Midnight UTC of the next ``weekday`` (Monday 0) strictly after the day of ``after``."""
    day = datetime.fromtimestamp(after, timezone.utc).date() + timedelta(days=1)
    while day.weekday() != weekday:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc).timestamp()


async def play(sock: GameSocket, point: list[int]) -> dict[str, Any]:
    ack = await sock.act({"t": "play", "p": point})
    assert ack["t"] == "ack", ack
    return ack


async def test_two_players_over_days_with_conditional_moves_a_weekend_and_a_vacation(people: People, clock: FakeClock) -> None:
    black, white = await people(), await people()
    choices = await black.http.put("/api/me/correspondence", json={"weekend_pause": True, "time_zone": "UTC"})
    assert choices.status_code == 200 and choices.json()["weekend_pause"] is True
    game_id = await start_game(black, white, time_control=A_WEEK_A_MOVE)
    game = await stored(black, game_id)
    assert game["time_control"] == A_WEEK_A_MOVE
    clock.set_iso(game["started_at"])
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    assert (await w.of_type("snapshot"))["game"]["conditional"] == []

    # White leaves conditional moves; only White sees them.
    ack = await w.act({"t": "conditional", "tree": [[[2, 2], [6, 6], [[[2, 6], [6, 2]]]]]})
    assert ack["t"] == "ack"
    assert (await w.event(ack["v"]))["tree"] == [[[2, 2], [6, 6], [[[2, 6], [6, 2], []]]]]
    assert await b.event(ack["v"]) == {"t": "hidden", "v": ack["v"]}

    clock.advance(DAY)
    ack = await play(b, [2, 2])  # White's answer comes at once, in the same commit
    answer = await b.until(lambda m: m.get("t") == "move" and m.get("color") == "W")
    assert answer["p"] == [6, 6] and answer["conditional"] is True and answer["server_time"] == clock.now
    ack = await play(b, [2, 6])
    assert (await b.until(lambda m: m.get("t") == "move" and m.get("color") == "W"))["p"] == [6, 2]
    tree = await w.until(lambda m: m.get("t") == "conditional" and m["tree"] == [])
    assert tree["color"] == "W"

    # White's turn ends on a Friday at midnight (UTC); Black, who pauses weekends, then moves 9 days later
    # (Sunday of the next week): six days counted of their seven, the two weekend days not.
    await play(b, [4, 4])
    friday = next_weekday(clock.now, 4)
    clock.set(friday)
    await play(w, [6, 4])
    clock.set(friday + 9 * DAY)
    moved = await play(b, [3, 3])
    move = await b.event(moved["v"])
    assert move["clocks"]["B"]["main"] == WEEK and move["clocks"]["W"]["running"] is True

    # White goes on vacation on their turn: five days pass and their clock stands still.
    started = await white.http.post("/api/me/vacation", json={"on": True})
    assert started.status_code == 200, started.text
    vacation = started.json()["vacation"]
    assert vacation["on"] is True and vacation["seconds_left"] > 7 * DAY
    event = await b.until(lambda m: m.get("t") == "vacation" and m.get("on") is True)
    assert event["color"] == "W" and event["on"] is True and event["clocks"]["W"]["running"] is False
    clock.advance(5 * DAY)
    assert (await stored(black, game_id))["status"] == "playing"
    # The vacation runs out by itself: the sweep ends it and White's clock runs again from then.
    clock.set(vacation["ends_at"] + 1)
    back = await b.until(lambda m: m.get("t") == "vacation" and m.get("on") is False, timeout=20)
    assert back["color"] == "W" and back["clocks"]["W"]["running"] is True
    assert back["clocks"]["W"]["main"] == WEEK  # nothing was charged while White was away
    state = (await white.http.get("/api/me/correspondence")).json()["vacation"]
    assert state["on"] is False and state["seconds_left"] < 1  # spent, accruing again from then
    # A week later White has run out of time: having moved, White loses.
    clock.advance(WEEK + 1)
    over = await b.of_type("game_over", timeout=20)
    assert over["result"]["text"] == "B+T"
    assert (await finished(black, game_id))["result"] == "B+T"
    for sock in (b, w):
        await sock.close()


async def test_a_game_nobody_moved_in_is_cancelled_not_lost(people: People, clock: FakeClock) -> None:
    black, white = await people(), await people()
    game_id = await start_game(black, white, time_control=A_WEEK_A_MOVE, rated=True)
    clock.set_iso((await stored(black, game_id))["started_at"])
    w = await white.socket(game_id)
    await w.of_type("snapshot")
    clock.advance(WEEK + 1)
    over = await w.of_type("game_over", timeout=20)
    assert over["result"] == {"winner": None, "reason": "cancelled", "margin": None, "text": "Void", "score": None}
    game = await finished(black, game_id)
    assert (game["result"], game["ended_by"]) == ("Void", "cancelled")
    await w.close()


async def test_what_a_correspondence_game_cannot_be_is_refused(people: People, servers: Servers) -> None:
    player = await people()
    for tc, fragment in [
        ({"kind": "simple", "per_move": 3600, "correspondence": True}, "at least 86400"),
        ({"kind": "byoyomi", "main": 86400, "periods": 3, "period_time": 60, "correspondence": True}, "correspondence"),
        ({"kind": "fischer", "main": 200 * DAY, "increment": DAY, "correspondence": True}, "at most"),
    ]:
        response = await player.http.post("/api/challenges", json={"board_size": 9, "time_control": tc})
        assert response.status_code == 422, response.text
        assert fragment in response.text
    bad_zone = await player.http.put("/api/me/correspondence", json={"weekend_pause": True, "time_zone": "Mars/Base"})
    assert bad_zone.status_code == 422 and bad_zone.json()["error"]["code"] == "invalid_time_zone"
    guest = await Player(servers.all[0].url).visit()
    try:
        refused = await guest.http.post("/api/me/vacation", json={"on": True})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_required"
        assert (await guest.http.get("/api/me/correspondence")).json()["vacation"] is None
    finally:
        await guest.close()


async def test_play_now_pairs_correspondence_seekers_who_already_play_correspondence(people: People) -> None:
    ana, bao = await people(), await people()
    await start_game(ana, bao, time_control=A_WEEK_A_MOVE)  # a correspondence game does not keep them from seeking
    a, b = await ana.lobby(), await bao.lobby()
    await a.of_type("snapshot")
    await b.of_type("snapshot")
    for sock in (a, b):
        ack = await sock.act({"t": "seek", "sizes": [19], "speeds": ["correspondence"]})
        assert ack["t"] == "ack", ack
    paired = await a.of_type("paired")
    assert paired["speed"] == "correspondence"
    assert paired["game"]["time_control"] == {"kind": "simple", "per_move": 259200, "correspondence": True}
    for sock in (a, b):
        await sock.close()


async def test_the_lobby_lists_fifty_games_in_its_snapshot_and_keeps_the_your_turn_list_live(
    people: People, clock: FakeClock
) -> None:
    black, white = await people(), await people()
    ids = []
    for i in range(50):
        days = 1 + (i * 7) % 5
        ids.append(
            await start_game(black, white, time_control={"kind": "simple", "per_move": days * DAY, "correspondence": True})
        )
    lobby = await black.lobby()
    snapshot = await lobby.of_type("snapshot")  # one message carries all fifty, no request per game
    mine = snapshot["my_games"]
    assert {g["id"] for g in mine} == set(ids) and all(g["to_move"] == "B" for g in mine)
    deadlines = [g["deadline"] for g in mine]
    assert deadlines == sorted(deadlines) and None not in deadlines
    first = next(g for g in mine if g["id"] == ids[0])
    assert first["players"]["B"]["id"] == black.user["id"] and first["time_control"]["per_move"] == DAY
    other_lobby = await white.lobby()
    await other_lobby.of_type("snapshot")

    clock.set_iso((await stored(black, ids[0]))["started_at"])
    clock.advance(3600)
    sock = await black.socket(ids[0])
    await sock.of_type("snapshot")
    await play(sock, [4, 4])
    for feed in (lobby, other_lobby):
        update = await feed.until(lambda m: m.get("t") == "my_game" and m["game"]["id"] == ids[0])
        assert update["game"]["to_move"] == "W" and update["game"]["move_count"] == 1
        assert update["game"]["deadline"] == clock.now + DAY + 0.5  # White's day (and lag quota) from now
    await white.http.post("/api/me/vacation", json={"on": True})
    paused = await lobby.until(lambda m: m.get("t") == "my_game" and m["game"]["id"] == ids[0] and m["game"]["deadline"] is None)
    assert paused["game"]["to_move"] == "W"
    await sock.act({"t": "resign"})
    over = await lobby.until(lambda m: m.get("t") == "my_game" and m["game"]["status"] == "finished")
    assert over["game"]["id"] == ids[0] and over["game"]["result"] == "W+R"
    for feed in (lobby, other_lobby, sock):
        await feed.close()
