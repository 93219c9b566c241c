"""When the database cannot be had, through a real uvicorn on this test's PostgreSQL database: a request whose
pool has no connection free in time, and one PostgreSQL refuses a connection ("too many clients"), are answered
503 ``unavailable`` with Retry-After, never 500; strangers at the door (guest starts, log-ins) have a pool of
their own, so while they hold it the players' moves are still committed."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest

from app.settings import Settings
from tests.conftest import MakeLiveServer
from tests.support.players import Player, start_game

pytestmark = pytest.mark.parametrize("database_url", ["postgres"], indirect=True)


def _dsn(settings: Settings) -> str:
    return settings.database_url.replace("postgresql+asyncpg://", "postgresql://")


def _unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["error"]["code"] == "unavailable"
    assert int(response.headers["retry-after"]) > 0


@contextlib.asynccontextmanager
async def _users_locked(admin: asyncpg.Connection) -> AsyncIterator[None]:
    """The users table locked (as by a long migration): whatever reads it waits in PostgreSQL, holding its
    connection, until the block ends."""
    async with admin.transaction():
        await admin.execute("LOCK TABLE users IN ACCESS EXCLUSIVE MODE")
        yield


async def _until_waiting_on_locks(settings: Settings, request: asyncio.Task[httpx.Response]) -> None:
    """Until ``request`` waits on a lock in PostgreSQL (or has been answered: the test's next assertion fails)."""
    checker = await asyncpg.connect(_dsn(settings))
    try:
        query = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        while not request.done() and await checker.fetchval(query) < 1:
            await asyncio.sleep(0.02)
    finally:
        await checker.close()


async def test_a_flood_at_the_door_is_answered_503_while_players_moves_go_on(
    settings: Settings, make_live_server: MakeLiveServer
) -> None:
    server = make_live_server(db_entry_pool_size=1, db_pool_timeout=0.5)
    black, white = await Player(server.url).visit(), await Player(server.url).visit()
    game_id = await start_game(black, white)
    sockets = [await black.socket(game_id), await white.socket(game_id)]
    await sockets[0].of_type("snapshot")
    admin = await asyncpg.connect(_dsn(settings))
    strangers = httpx.AsyncClient(base_url=server.url, timeout=30)
    try:
        # A guest start waits on the lock holding its connection, the only one of the entry pool.
        async with _users_locked(admin):
            held = asyncio.create_task(strangers.post("/api/guest"))
            await _until_waiting_on_locks(settings, held)
            # The next ones find no connection free within the pool's timeout: 503, not 500.
            assert not held.done()
            _unavailable(await strangers.post("/api/guest"))
            _unavailable(await strangers.post("/api/auth/login", json={"username": "anyone", "password": "a guess"}))
            # The players' moves do not wait for the entry pool.
            ack = await sockets[0].act({"t": "play", "p": [2, 2]})
            assert ack["t"] == "ack", ack
        assert (await held).status_code == 200
    finally:
        await strangers.aclose()
        await admin.close()
        for ws in sockets:
            await ws.close()
        await black.close()
        await white.close()


@pytest.fixture
async def capped_role(settings: Settings) -> AsyncIterator[str]:
    """A role of this test's own that may use the test's database, and whose connections PostgreSQL can be told
    to refuse (its CONNECTION LIMIT; a superuser is never refused)."""
    role = f"tengen_capped_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(_dsn(settings))
    try:
        await admin.execute(f"CREATE ROLE {role} LOGIN")
        await admin.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
        await admin.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
        yield role
    finally:
        await admin.execute(f"DROP OWNED BY {role}")
        await admin.execute(f"DROP ROLE {role}")
        await admin.close()


async def test_too_many_clients_is_answered_503(capped_role: str, settings: Settings, make_live_server: MakeLiveServer) -> None:
    """PostgreSQL refusing a new connection (53300, as for "too many clients") is a 503 the client may retry."""
    url = settings.database_url.replace("://postgres@", f"://{capped_role}@", 1)
    assert url != settings.database_url
    server = make_live_server(database_url=url)
    admin = await asyncpg.connect(_dsn(settings))
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as strangers:
            assert (await strangers.post("/api/guest")).status_code == 200  # the entry pool opens a connection
            await admin.execute(f"ALTER ROLE {capped_role} CONNECTION LIMIT 0")
            # One guest start waits on a lock holding that connection; the next needs a new connection, which
            # PostgreSQL refuses.
            async with _users_locked(admin):
                held = asyncio.create_task(strangers.post("/api/guest"))
                await _until_waiting_on_locks(settings, held)
                _unavailable(await strangers.post("/api/guest"))
                assert not held.done()
            assert (await held).status_code == 200
    finally:
        await admin.close()
