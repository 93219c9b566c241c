"""Engines and sessions: SQLAlchemy 2 async, asyncpg for PostgreSQL, aiosqlite for SQLite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine


def normalise_url(url: str) -> str:
    """Accept plain ``postgresql://`` / ``postgres://`` / ``sqlite://`` URLs and pick the async drivers."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    return url


def is_sqlite(url: str) -> bool:
    return make_url(normalise_url(url)).get_backend_name() == "sqlite"


def _prepare_sqlite_file(url: str) -> None:
    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    url = normalise_url(url)
    if is_sqlite(url):
        _prepare_sqlite_file(url)
        kwargs.setdefault("connect_args", {"timeout": 30})
        kwargs.setdefault("json_serializer", _json_text)
        engine = create_async_engine(url, **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_on_connect)
        return engine
    # No ``pool_pre_ping``: on asyncpg it costs three round trips (BEGIN, a ping, ROLLBACK) per checkout,
    # more than the commit it guards. A connection the server or the network has closed is noticed for free
    # at checkout (``_refuse_closed``); one that dies unnoticed fails its statement, SQLAlchemy then
    # invalidates the whole pool, and the commit path retries once (``is_connection_lost``).
    # Enough kept-open connections for many games committing at once: an overflow connection is closed
    # when it is returned, and opening one costs far more than the commit it was opened for.
    kwargs.setdefault("json_serializer", _json_text)
    kwargs.setdefault("pool_size", 20)
    kwargs.setdefault("max_overflow", 20)
    engine = create_async_engine(url, **kwargs)
    event.listen(engine.sync_engine.pool, "checkout", _refuse_closed)
    return engine


def _json_text(value: Any) -> str:
    """JSON columns are written with orjson: every move stores a JSON payload."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _refuse_closed(_dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """Checkout: a pooled asyncpg connection already closed under us is replaced before it is used."""
    driver = record.driver_connection
    if driver is not None and driver.is_closed():
        raise DisconnectionError("pooled connection was closed")


class ConnectionLost(Exception):
    """A statement sent straight to the driver failed because its connection died (it has been dropped)."""


def is_connection_lost(exc: BaseException) -> bool:
    """True when ``exc`` is a statement failing because its connection died (the connection, or through a
    session the whole pool, has been invalidated, so the same work again gets a fresh connection)."""
    return isinstance(exc, ConnectionLost) or (isinstance(exc, DBAPIError) and exc.connection_invalidated)


# SQLSTATE classes in which PostgreSQL says it cannot serve a connection now, not that a statement was wrong:
# 08 (connection exceptions), 53 (insufficient resources: 53300 "too many clients" / too many connections for a
# role, out of memory, disk full) and 57P (shutting down, starting up, restarting after a crash).
UNAVAILABLE_SQLSTATES = ("08", "53", "57P")


def is_unavailable(exc: BaseException) -> bool:
    """True when ``exc`` means the database cannot be had right now, so the same request may succeed later: no
    pooled connection came free within the pool's timeout, PostgreSQL refused a new connection (too many
    clients, starting up, shutting down) or could not be reached, or a connection was lost. False for a
    statement that failed on its own account (a constraint, a bug), which stays a server error."""
    if isinstance(exc, (PoolTimeout, OperationalError, InterfaceError, ConnectionLost, ConnectionError, TimeoutError)):
        return True
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated:
            return True
        exc = exc.orig if exc.orig is not None else exc
    state = getattr(exc, "sqlstate", None)
    return isinstance(state, str) and state.startswith(UNAVAILABLE_SQLSTATES)


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
