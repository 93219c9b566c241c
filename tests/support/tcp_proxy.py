"""A loopback TCP proxy that can fail like a restarting server.

It runs its own event loop in a thread, so the code under test and the test itself may block freely.
``outage(seconds)`` drops every open connection and refuses new ones (accepts and closes them at once, as a
server that is going down does) until the time is up; ``down()`` / ``up()`` do the same by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.refusing = False
        self.accepted = 0
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.base_events.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name="tcp-proxy")

    # -- lifecycle ---------------------------------------------------------------------------------------

    def start(self) -> "TcpProxy":
        self._thread.start()
        self._server = self._call(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def close(self) -> None:
        async def shutdown() -> None:
            assert self._server is not None
            self._server.close()
            self._drop_all()

        self._call(shutdown())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        if not self._thread.is_alive():
            self._loop.close()

    def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(10)

    # -- failures ----------------------------------------------------------------------------------------

    def down(self) -> None:
        """Drop every open connection and refuse new ones."""

        async def go() -> None:
            self.refusing = True
            self._drop_all()

        self._call(go())

    def up(self) -> None:
        self.refusing = False

    def outage(self, seconds: float) -> None:
        self.down()
        time.sleep(seconds)
        self.up()

    @property
    def open_connections(self) -> int:
        return len(self._writers) // 2

    def _drop_all(self) -> None:
        for writer in list(self._writers):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        self._writers.clear()

    # -- relaying ----------------------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.accepted += 1
        self._writers.update((writer, up_writer))
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()
