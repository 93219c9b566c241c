"""A game nobody opens still ends by itself: its first deadline exists from the moment its row does, however the
game started (an accepted challenge, an automatch pair, a bot's acceptance, a rematch), and a registration lost
between the commit and the hub is found again in the database.

Nobody opens a game socket of the new game in these tests: its room is only ever opened by the deadline loop
of whichever instance claims the deadline. The end is seen in the lobby (``game_finished``) and through
``GET /api/games/{id}``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
import redis.asyncio as aioredis
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.transport.room_deps import RoomDeps
from app.games.live.rooms import RoomManager
from app.settings import Settings
from app.store.repositories import games as games_repo
from app.store.repositories import users
from app.transport.memory_hub import MemoryHub
from tests.bots.accounts import bearer, make_bot, register
from tests.conftest import LiveServer
from tests.support.room_fixtures import STACKS, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import Lobby, finished, stored
from tests.support.fake_clock import ClockServers, FakeClock, clock  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, Player, start_game
from tests.support.services import REDIS_URL
from tests.support.stored_games import nine_by_nine

DAY = 86400.0
WEEK = 7 * DAY
A_WEEK_A_MOVE = {"kind": "simple", "per_move": WEEK, "correspondence": True}
BYOYOMI = {"kind": "byoyomi", "main": 60, "periods": 3, "period_time": 10}
BYOYOMI_ALL = 60 + 3 * 10  # the whole of Black's first turn (the lag quota, 0.5 s, comes on top)
BLITZ_ALL = 180 + 3 * 10  # automatch's blitz: 3 min and 3 x 10 s (app/automatch/preferences.py)
SWEEP = 0.2  # TENGEN_DEADLINE_SWEEP_SECONDS in these tests


@pytest.fixture
def servers(stack_settings: Settings, clock: FakeClock) -> Iterator[ClockServers]:
    group = ClockServers(stack_settings.model_copy(update={"deadline_sweep_seconds": SWEEP}), clock)
    yield group
    group.stop_all()


def two_instances(servers: ClockServers, database_url: str) -> tuple[LiveServer, LiveServer]:
    """Two servers on one PostgreSQL and one Redis; on SQLite (the in-process hub serves one) the same one twice."""
    a = servers.start()
    return (a, servers.start()) if database_url.startswith("postgres") else (a, a)


@pytest.fixture
async def people() -> AsyncIterator[list[Player]]:
    made: list[Player] = []
    yield made
    for person in made:
        await person.close()


async def guest(people: list[Player], url: str) -> Player:
    person = await Player(url).visit()
    people.append(person)
    return person


async def ends_by_itself(lobby: Lobby, reader: Player, game_id: str, timeout: float = 20.0) -> dict:
    """The lobby hears of the end; the stored game is finished: its result and how it ended."""
    message = await lobby.of_type("game_finished", timeout=timeout, game_id=game_id)
    game = await finished(reader, game_id)
    assert game["result"] == message["result"]
    return game


async def to_the_start(clock: FakeClock, reader: Player, game_id: str) -> None:
    """The fake server clock at the moment the game started (Black's clock runs from there)."""
    clock.set_iso((await stored(reader, game_id))["started_at"])


# ---- an accepted challenge, across two real server processes ----


@POSTGRES_ONLY
async def test_an_accepted_challenge_nobody_opens_flags_across_two_instances(cluster: Instances, people: list[Player]) -> None:
    a, b = cluster.start(2)
    black, white, watcher = await guest(people, a.url), await guest(people, a.url), await guest(people, b.url)
    lobby = await Lobby.open(watcher)  # on the other instance
    try:
        game_id = await start_game(black, white, time_control={"kind": "absolute", "main": 2})
        # Black never moves, nobody connects: Black's clock runs from the start and the flag falls (docs/clocks.md).
        game = await ends_by_itself(lobby, watcher, game_id)
        assert (game["result"], game["ended_by"]) == ("W+T", "timeout")
    finally:
        await lobby.close()


# ---- on the fake server clock: two in-process instances on PostgreSQL and Redis, or one on SQLite ----


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True, ids=["postgres+redis"])
async def test_an_automatch_pair_nobody_opens_flags(
    servers: ClockServers, database_url: str, clock: FakeClock, people: list[Player]
) -> None:
    a, b = two_instances(servers, database_url)
    ana, bao, watcher = await guest(people, a.url), await guest(people, b.url), await guest(people, b.url)
    lobby = await Lobby.open(watcher)
    seeks = [await ana.lobby(), await bao.lobby()]
    try:
        for sock in seeks:
            assert (await sock.act({"t": "seek", "sizes": [9], "speeds": ["blitz"]}))["t"] == "ack"
        paired = [await sock.of_type("paired") for sock in seeks]
        game_id = paired[0]["game_id"]
        assert paired[1]["game_id"] == game_id
    finally:
        for sock in seeks:
            await sock.close()
    try:
        await to_the_start(clock, watcher, game_id)
        clock.advance(BLITZ_ALL + 1)
        game = await ends_by_itself(lobby, watcher, game_id)
        assert (game["result"], game["ended_by"]) == ("W+T", "timeout")
    finally:
        await lobby.close()


@STACKS
async def test_an_unopened_correspondence_game_is_cancelled(
    servers: ClockServers, database_url: str, clock: FakeClock, people: list[Player]
) -> None:
    a, b = two_instances(servers, database_url)
    black, white, watcher = await guest(people, a.url), await guest(people, a.url), await guest(people, b.url)
    lobby = await Lobby.open(watcher)
    try:
        game_id = await start_game(black, white, time_control=A_WEEK_A_MOVE)
        await to_the_start(clock, watcher, game_id)
        clock.advance(WEEK + 1)
        game = await ends_by_itself(lobby, watcher, game_id)
        # Black ran out of time before their first move: cancelled, not lost (docs/clocks.md, "Cancellation").
        assert (game["result"], game["ended_by"]) == ("Void", "cancelled")
    finally:
        await lobby.close()


@STACKS
async def test_a_challenge_a_bot_accepts_and_nobody_opens_flags(
    servers: ClockServers, database_url: str, clock: FakeClock, people: list[Player]
) -> None:
    a, b = two_instances(servers, database_url)
    owner, challenger, watcher = await guest(people, a.url), await guest(people, a.url), await guest(people, b.url)
    await register(owner.http)
    bot, token = await make_bot(owner.http)
    lobby = await Lobby.open(watcher)
    try:
        body = {"board_size": 9, "color": "black", "time_control": BYOYOMI, "opponent": bot["name"]}
        challenge = await challenger.http.post("/api/challenges", json=body)
        assert challenge.status_code == 201, challenge.text
        accepted = await owner.http.post(f"/api/challenges/{challenge.json()['id']}/accept", headers=bearer(token))
        assert accepted.status_code == 201, accepted.text
        game_id = accepted.json()["game_id"]
        await to_the_start(clock, watcher, game_id)
        clock.advance(BYOYOMI_ALL + 1)
        game = await ends_by_itself(lobby, watcher, game_id)
        assert (game["result"], game["ended_by"]) == ("W+T", "timeout")  # the bot, White, never had to move
    finally:
        await lobby.close()


@STACKS
async def test_a_rematch_nobody_opens_flags_and_its_deadline_is_listed_from_the_start(
    servers: ClockServers, database_url: str, clock: FakeClock, people: list[Player]
) -> None:
    a, b = two_instances(servers, database_url)
    black, white, watcher = await guest(people, a.url), await guest(people, a.url), await guest(people, b.url)
    game_id = await start_game(black, white, time_control=BYOYOMI)
    await to_the_start(clock, black, game_id)
    sockets: list[GameSocket] = [await black.socket(game_id), await white.socket(game_id)]
    lobbies = [await Lobby.open(watcher), await Lobby.open(white)]
    try:
        bs, ws = sockets
        await bs.of_type("snapshot")
        await ws.of_type("snapshot")
        await ws.ok({"t": "resign"})
        await bs.of_type("game_over")
        await bs.ok({"t": "rematch_offer"})
        await ws.ok({"t": "rematch_accept"})
        new_id = (await bs.of_type("rematch"))["game_id"]
        for sock in sockets:
            await sock.close()
        # The new game's first deadline is in the players' lobby lists from the start, as for any new game.
        mine = await lobbies[1].of_type("my_game")
        while mine["game"]["id"] != new_id:  # first, the entries of the game that ended
            mine = await lobbies[1].of_type("my_game")
        assert mine["game"]["deadline"] is not None
        await to_the_start(clock, watcher, new_id)
        clock.advance(BYOYOMI_ALL + 1)
        game = await ends_by_itself(lobbies[0], watcher, new_id)
        assert (game["result"], game["ended_by"]) == ("W+T", "timeout")  # the former White, now Black, never moved
    finally:
        for lobby in lobbies:
            await lobby.close()


# ---- a registration lost between the commit and the hub ----


async def forget_deadline(prefix: str, game_id: str) -> None:
    """As if the instance had died between the game's commit and the hub call: the hub holds no deadline."""
    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        await client.zrem(f"{prefix}deadlines", game_id)
        await client.hdel(f"{prefix}deadline_versions", game_id)
    finally:
        await client.aclose()


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True, ids=["postgres+redis"])
async def test_a_game_whose_deadline_never_reached_redis_still_flags(
    servers: ClockServers, stack_settings: Settings, database_url: str, clock: FakeClock, people: list[Player]
) -> None:
    a, b = two_instances(servers, database_url)
    black, white, watcher = await guest(people, a.url), await guest(people, a.url), await guest(people, b.url)
    lobby = await Lobby.open(watcher)
    try:
        game_id = await start_game(black, white, time_control=BYOYOMI)
        await forget_deadline(stack_settings.redis_prefix, game_id)
        await to_the_start(clock, watcher, game_id)
        clock.advance(BYOYOMI_ALL + 1)
        game = await ends_by_itself(lobby, watcher, game_id)
        assert (game["result"], game["ended_by"]) == ("W+T", "timeout")
    finally:
        await lobby.close()


@STACKS
async def test_the_rooms_find_a_new_games_passed_deadline_in_the_database(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    """A game added and committed without any registration (the hub is empty) ends once its first deadline is
    found in the database by the instance's sweep; a game nobody acted on whose deadline is still ahead is
    left alone."""
    async with db_sessionmaker() as session:
        black = await users.add_guest(session, "Guest-s1", "guest-s1")
        white = await users.add_guest(session, "Guest-s2", "guest-s2")
        due = await nine_by_nine(session, black.id, white.id, time_control={"kind": "absolute", "main": 60})
        ahead = await nine_by_nine(session, black.id, white.id, time_control={"kind": "absolute", "main": 600})
        await session.commit()
        start = due.started_at.timestamp()
    clock = FakeClock(start + 61)
    hub = MemoryHub()
    await hub.start()
    rooms = RoomManager(RoomDeps(hub, db_sessionmaker, clock), deadline_sweep=SWEEP)
    await rooms.start()
    try:
        for _ in range(200):
            async with db_sessionmaker() as session:
                row = await games_repo.get(session, due.id)
            assert row is not None
            if row.status == "finished":
                break
            await asyncio.sleep(0.05)
        assert row is not None and (row.result, row.ended_by) == ("W+T", "timeout")
        async with db_sessionmaker() as session:
            other = await games_repo.get(session, ahead.id)
        assert other is not None and other.status == "playing" and other.version == 0
        assert ahead.id not in rooms.rooms
    finally:
        await rooms.close()
        await hub.close()
