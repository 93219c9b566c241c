"""A game's stored turn (``games.to_move``, ``games.turn_deadline``), which the lobby's "Your turn" list reads,
is the game's true turn after every commit, whatever changed the clock: a byo-yomi period used up with nobody
acting, play going to counting, a dead stone marked, the score accepted, adjournment and its resumption, and
the end (no deadline, nobody to move). The truth is the game socket's snapshot (``deadline``: the next moment
the game acts on its own); the readers are a new lobby socket on the other instance and the stored row.

On two servers sharing one PostgreSQL and one Redis (on SQLite the in-process hub serves one, so the same one
twice), on a fake server clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from app.settings import Settings
from app.store.db import create_engine, create_sessionmaker
from app.store.models import Game
from tests.conftest import LiveServer
from tests.support.room_fixtures import STACKS, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import stored
from tests.support.fake_clock import ClockServers, FakeClock, clock  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, Player, start_game

pytestmark = [STACKS, pytest.mark.timeout(120)]

# Deadlines are epoch seconds: compared to the hundredth, never relatively (1e-6 of them is half an hour).
BYOYOMI = {"kind": "byoyomi", "main": 60, "periods": 3, "period_time": 10}


@pytest.fixture
def servers(stack_settings: Settings, clock: FakeClock) -> Iterator[ClockServers]:
    group = ClockServers(stack_settings, clock)
    yield group
    group.stop_all()


def two_instances(servers: ClockServers, database_url: str) -> tuple[LiveServer, LiveServer]:
    a = servers.start()
    return (a, servers.start()) if database_url.startswith("postgres") else (a, a)


async def stored_turn(database_url: str, game_id: str) -> tuple[str | None, float | None]:
    engine = create_engine(database_url)
    try:
        async with create_sessionmaker(engine)() as session:
            row = (await session.execute(select(Game.to_move, Game.turn_deadline).where(Game.id == game_id))).one()
        return row[0], row[1]
    finally:
        await engine.dispose()


async def true_turn(person: Player, game_id: str, url: str) -> tuple[str | None, float | None]:
    """Whose turn it is and the game's next deadline, from a fresh game socket's snapshot."""
    sock = await person.socket(game_id, base_url=url)
    try:
        game = (await sock.of_type("snapshot"))["game"]
    finally:
        await sock.close()
    to_move = game["to_move"] if game["phase"] in ("playing", "adjourned") else None
    return to_move, game["deadline"]


async def listed_turn(person: Player, game_id: str, url: str) -> tuple[str | None, float | None] | None:
    """The game's entry in a new lobby socket's ``my_games`` (None once it is not listed: finished)."""
    lobby = await person.lobby(base_url=url)
    try:
        snapshot = await lobby.of_type("snapshot")
    finally:
        await lobby.close()
    entry = next((g for g in snapshot["my_games"] if g["id"] == game_id), None)
    return None if entry is None else (entry["to_move"], entry["deadline"])


async def same_everywhere(person: Player, game_id: str, urls: tuple[str, str], database_url: str, when: str) -> Any:
    truth = await true_turn(person, game_id, urls[0])
    for url in urls:
        assert await listed_turn(person, game_id, url) == pytest.approx(truth, abs=0.01), (when, url)
    assert await stored_turn(database_url, game_id) == pytest.approx(truth, abs=0.01), when
    return truth


async def act(sock: GameSocket, action: dict[str, Any], then: str) -> dict[str, Any]:
    ack = await sock.act(action)
    assert ack["t"] == "ack", (action, ack)
    return await sock.until(lambda m: m.get("t") == then and m.get("v", 0) >= ack["v"])


async def test_the_listed_turn_follows_every_clock_change(servers: ClockServers, clock: FakeClock, database_url: str) -> None:
    a, b = two_instances(servers, database_url)
    urls = (a.url, b.url)
    black, white = await Player(a.url).visit(), await Player(a.url).visit()
    try:
        game_id = await start_game(black, white, time_control=BYOYOMI)
        clock.set_iso((await stored(black, game_id))["started_at"])
        bs, ws = await black.socket(game_id, base_url=a.url), await white.socket(game_id, base_url=b.url)
        await bs.of_type("snapshot")
        await ws.of_type("snapshot")
        await act(bs, {"t": "play", "p": [2, 2]}, "move")
        await act(ws, {"t": "play", "p": [6, 6]}, "move")
        before = await same_everywhere(black, game_id, urls, database_url, "a move")
        lobby = await black.lobby(base_url=b.url)  # the list kept live: a my_game message after each change
        await lobby.of_type("snapshot")

        clock.advance(71)  # Black's main time, a period and the lag quota: a period is used up with nobody acting
        await bs.until(lambda m: m.get("t") == "period_used")
        used = await same_everywhere(black, game_id, urls, database_url, "a period used")
        assert used[0] == "B" and used[1] is not None and used[1] > before[1]
        heard = await lobby.until(lambda m: m.get("t") == "my_game" and m["game"]["deadline"] == pytest.approx(used[1], abs=0.01))
        assert heard["game"]["to_move"] == "B"
        await lobby.close()

        await act(bs, {"t": "pass"}, "pass")
        await act(ws, {"t": "pass"}, "phase")
        counting = await same_everywhere(black, game_id, urls, database_url, "counting")
        assert counting[0] is None and counting[1] is not None

        clock.advance(5)
        await act(bs, {"t": "toggle_dead", "p": [6, 6]}, "dead_stones")
        marked = await same_everywhere(black, game_id, urls, database_url, "a dead stone marked")
        assert marked[1] == pytest.approx(counting[1] + 5, abs=0.01)

        clock.advance(5)
        await act(ws, {"t": "accept_score"}, "score_accepted")
        accepted = await same_everywhere(black, game_id, urls, database_url, "the score accepted by one")
        assert accepted[1] == pytest.approx(marked[1] + 5, abs=0.01)

        await act(bs, {"t": "accept_score"}, "game_over")
        for url in urls:
            assert await listed_turn(black, game_id, url) is None, url
        assert await stored_turn(database_url, game_id) == (None, None)
        await bs.close()
        await ws.close()
    finally:
        await black.close()
        await white.close()


async def test_the_listed_turn_follows_an_adjournment(servers: ClockServers, clock: FakeClock, database_url: str) -> None:
    a, b = two_instances(servers, database_url)
    urls = (a.url, b.url)
    black, white = await Player(a.url).visit(), await Player(a.url).visit()
    try:
        game_id = await start_game(black, white, time_control=BYOYOMI)
        clock.set_iso((await stored(black, game_id))["started_at"])
        bs, ws = await black.socket(game_id, base_url=a.url), await white.socket(game_id, base_url=b.url)
        await bs.of_type("snapshot")
        await ws.of_type("snapshot")
        await act(bs, {"t": "play", "p": [2, 2]}, "move")
        await same_everywhere(black, game_id, urls, database_url, "a move")

        await act(ws, {"t": "adjourn_offer"}, "offer")
        await act(bs, {"t": "adjourn_accept"}, "phase")
        await same_everywhere(black, game_id, urls, database_url, "adjourned")
        clock.advance(30)
        await act(ws, {"t": "seal", "p": [6, 6]}, "sealed")
        await same_everywhere(black, game_id, urls, database_url, "sealed")
        clock.advance(30)
        await act(bs, {"t": "resume_offer"}, "offer")
        await act(ws, {"t": "resume_accept"}, "move")
        resumed = await same_everywhere(black, game_id, urls, database_url, "resumed")
        assert resumed[0] == "B" and resumed[1] is not None
        await bs.close()
        await ws.close()
    finally:
        await black.close()
        await white.close()
