"""The plain asyncpg connections behind every move's commit, on a real PostgreSQL."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from app.store.db import ConnectionLost, create_engine
from app.store.driver import DriverConnections, driver_connections
from tests.support.instances import POSTGRES_ONLY

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(60)]


def _dsn(database_url: str) -> str:
    return database_url.replace("postgresql+asyncpg://", "postgresql://")


async def test_one_connection_serves_statements_one_after_another(database_url: str) -> None:
    connections = DriverConnections(_dsn(database_url), limit=4)
    try:
        pids = {await connections.fetchval("SELECT pg_backend_pid()") for _ in range(5)}
        assert len(pids) == 1 and connections.opened == 1
    finally:
        await connections.close()
    assert connections.opened == 0


async def test_no_more_than_the_limit_are_opened(database_url: str) -> None:
    connections = DriverConnections(_dsn(database_url), limit=2)
    try:
        busiest = 0

        async def slow(n: int) -> int:
            nonlocal busiest
            busiest = max(busiest, connections.opened)
            return await connections.fetchval("SELECT $1::int FROM pg_sleep(0.05)", n)

        assert await asyncio.gather(*(slow(n) for n in range(6))) == list(range(6))
        assert busiest <= 2 and connections.opened == 2
    finally:
        await connections.close()


async def test_a_statement_error_keeps_the_connection_and_a_cancellation_drops_it(database_url: str) -> None:
    connections = DriverConnections(_dsn(database_url), limit=2)
    try:
        first = await connections.fetchval("SELECT pg_backend_pid()")
        with pytest.raises(asyncpg.DivisionByZeroError):
            await connections.fetchval("SELECT 1 / 0")
        assert await connections.fetchval("SELECT pg_backend_pid()") == first
        sleeper = asyncio.create_task(connections.fetchval("SELECT pg_sleep(5)"))
        await asyncio.sleep(0.2)
        sleeper.cancel()
        with pytest.raises(asyncio.CancelledError):
            await sleeper
        assert connections.opened == 0  # its protocol state was unknown: dropped, not reused
        assert await connections.fetchval("SELECT pg_backend_pid()") != first
    finally:
        await connections.close()


async def test_a_lost_connection_drops_the_idle_ones_too(database_url: str) -> None:
    connections = DriverConnections(_dsn(database_url), limit=3)
    try:
        busy = await asyncio.gather(*(connections.fetchval("SELECT pg_backend_pid() FROM pg_sleep(0.1)") for _ in range(3)))
        assert len(set(busy)) == 3 and connections.opened == 3  # three idle connections now
        with pytest.raises(ConnectionLost):
            await connections.fetchval("SELECT pg_terminate_backend(pg_backend_pid())")
        assert connections.opened == 0  # the other two were dropped with it
        assert await connections.fetchval("SELECT pg_backend_pid()") not in busy
    finally:
        await connections.close()


async def test_a_connection_the_server_closed_is_replaced_or_reported_lost(database_url: str) -> None:
    connections = DriverConnections(_dsn(database_url), limit=2)
    admin = await asyncpg.connect(_dsn(database_url))
    try:
        first = await connections.fetchval("SELECT pg_backend_pid()")
        await admin.execute("SELECT pg_terminate_backend($1)", first)
        try:
            again = await connections.fetchval("SELECT pg_backend_pid()")
        except ConnectionLost:  # it died before the driver noticed: the caller retries once
            again = await connections.fetchval("SELECT pg_backend_pid()")
        assert again != first and connections.opened == 1
    finally:
        await admin.close()
        await connections.close()


async def test_an_engines_connections_close_with_it(database_url: str) -> None:
    engine = create_engine(database_url)
    connections = driver_connections(engine)
    assert driver_connections(engine) is connections
    pid = await connections.fetchval("SELECT pg_backend_pid()")
    await engine.dispose()
    assert connections.opened == 0
    admin = await asyncpg.connect(_dsn(database_url))
    try:
        for _ in range(50):
            if not await admin.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid):
                break
            await asyncio.sleep(0.05)
        assert not await admin.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid)
    finally:
        await admin.close()
    with pytest.raises(ConnectionLost):
        await connections.fetchval("SELECT 1")


class _Refusing:
    """A connection whose driver refuses the statement (as asyncpg does for one the server just terminated)."""

    def __init__(self) -> None:
        self.terminated = False

    async def fetchval(self, *_args: object) -> None:
        raise asyncpg.InternalClientError("cannot switch to state 12; another operation (2) is in progress")

    def is_closed(self) -> bool:
        return False

    def terminate(self) -> None:
        self.terminated = True


async def test_a_driver_failure_drops_the_connection_and_reports_it_lost(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[_Refusing] = []

    async def connect(*_args: object, **_kwargs: object) -> _Refusing:
        opened.append(_Refusing())
        return opened[-1]

    connections = DriverConnections(_dsn(database_url), limit=2)
    with monkeypatch.context() as patch:
        patch.setattr(asyncpg, "connect", connect)
        with pytest.raises(ConnectionLost, match="another operation"):
            await connections.fetchval("SELECT 1")
        assert opened[0].terminated and connections.opened == 0
        with pytest.raises(ConnectionLost):
            await connections.fetchval("SELECT 1")
        assert len(opened) == 2  # a fresh connection, not the refused one
    await connections.close()
