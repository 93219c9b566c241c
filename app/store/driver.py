"""Plain asyncpg connections for the one statement on the path of every move (``append``).

A move's commit is one autocommitted statement. Through SQLAlchemy's pool it also pays a switch into the
sync layer and a checkout and checkin with their events; through asyncpg's own pool, a reset query or
bookkeeping on every release. Here a connection is taken from a stack of idle ones (or opened, up to
``limit``), used for one statement and put back. Nothing needs resetting: the statement runs outside any
transaction and changes no session state.

A connection that turns out to be closed is dropped at checkout. A statement that fails any other way than
by an error the server reports about the statement (the connection closed, a socket error, a protocol state
the driver refuses) drops its connection, whose state is then unknown, and is raised as ``ConnectionLost``
so that the caller may retry once; a cancellation drops it too. The connections belong to an engine and are
closed when it is disposed.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections import deque
from typing import Any, cast

import asyncpg
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.pool import QueuePool
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import await_only

from app.store.db import ConnectionLost

CONNECT_TIMEOUT = 10.0


class DriverConnections:
    def __init__(self, dsn: str, limit: int, connect_timeout: float = CONNECT_TIMEOUT) -> None:
        self.dsn = dsn
        self.limit = max(1, limit)
        self.connect_timeout = connect_timeout
        self._idle: list[asyncpg.Connection] = []
        self._opened = 0  # idle, in use, or being opened
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._closed = False

    @property
    def opened(self) -> int:
        return self._opened

    async def fetchval(self, sql: str, *params: Any) -> Any:
        connection = await self._acquire()
        reusable = False
        try:
            value = await connection.fetchval(sql, *params)
            reusable = True
            return value
        except asyncpg.PostgresError as exc:  # reported by the server
            if connection.is_closed() or isinstance(exc, asyncpg.PostgresConnectionError):
                self._drop_idle()
                raise ConnectionLost(str(exc)) from exc
            reusable = True  # an error in the statement: the connection is as good as before
            raise
        except Exception as exc:  # the driver's own: the socket, or a protocol state it refused
            # (a connection the server terminated can fail with "another operation is in progress")
            self._drop_idle()
            raise ConnectionLost(f"{type(exc).__name__}: {exc}") from exc
        finally:
            self._release(connection, reusable)

    def _drop_idle(self) -> None:
        """After a lost connection, the idle ones are suspect too (a restarted server ended them all): the
        next statements open new ones, as SQLAlchemy invalidates a whole pool after a disconnect."""
        idle, self._idle = self._idle, []
        for connection in idle:
            self._opened -= 1
            connection.terminate()

    async def _acquire(self) -> asyncpg.Connection:
        while True:
            if self._closed:
                raise ConnectionLost("the database connections are closed")
            while self._idle:
                connection = self._idle.pop()
                if not connection.is_closed():
                    return connection
                self._opened -= 1
            if self._opened < self.limit:
                self._opened += 1
                try:
                    return await asyncpg.connect(self.dsn, timeout=self.connect_timeout)
                except BaseException:
                    self._opened -= 1
                    self._wake()
                    raise
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    self._wake()  # it was this one's turn: pass it on
                raise
            finally:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)

    def _release(self, connection: asyncpg.Connection, reusable: bool) -> None:
        if reusable and not self._closed and not connection.is_closed():
            self._idle.append(connection)
        else:
            self._opened -= 1
            if not connection.is_closed():
                connection.terminate()
        self._wake()

    def _wake(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for connection in idle:
            self._opened -= 1
            try:
                await asyncio.wait_for(connection.close(), 5)
            except Exception:  # the server is gone: just drop it
                connection.terminate()
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)


_BY_ENGINE: weakref.WeakKeyDictionary[Engine, DriverConnections] = weakref.WeakKeyDictionary()


def driver_connections(engine: AsyncEngine) -> DriverConnections:
    """The driver connections of a PostgreSQL ``engine``; closed when the engine is disposed."""
    sync_engine = engine.sync_engine
    found = _BY_ENGINE.get(sync_engine)
    if found is None:
        url = engine.url.set(drivername="postgresql")
        found = DriverConnections(url.render_as_string(hide_password=False), limit=cast(QueuePool, sync_engine.pool).size())
        _BY_ENGINE[sync_engine] = found
        event.listen(sync_engine, "engine_disposed", _close_on_dispose)
    return found


def _close_on_dispose(sync_engine: Engine) -> None:
    """``engine_disposed`` runs in SQLAlchemy's sync layer, inside the async engine's ``dispose()``."""
    found = _BY_ENGINE.pop(sync_engine, None)
    if found is not None:
        await_only(found.close())
