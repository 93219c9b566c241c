"""uvicorn's sans-I/O WebSocket protocol, holding less for each open socket (``websocket_protocol``, app/server.py).

A spectator's socket sits open for the whole game, and a popular game has thousands, so what one socket holds
while idle is what the instance holds per spectator. uvicorn's protocol keeps, for the socket's whole life:

- an ``asyncio.Queue`` for the messages the application has not read yet: three deques (about 760 bytes
  each, a deque allocates a block of 64 slots at once), though uvicorn stops reading after each message, so
  it holds one or two;
- an ``asyncio.Event`` for "the transport may be written to": one more deque;
- the handshake's request and response with their headers, used only until the handshake is answered (and
  the request stays referenced by the parser of ``websockets`` for the socket's whole life).

``LeanWebSocketProtocol`` replaces the queue and the event with equivalents on plain lists made only when a
reader has to wait, and empties the handshake's headers once it is answered: about 8 KB less per socket. Everything else
is uvicorn's own code (its tests cover the behaviour; ours run every socket through this class).

It reaches into private internals of uvicorn and ``websockets`` (``conn.reader.buffer``, ``conn.current_size``,
``conn.parser_exc``, the handshake's ``request``): this module is imported only when the installed versions
are the ones it was tested with (``app.ws_protocol.TESTED_WITH``, pinned in constraints.txt); otherwise the
server serves with uvicorn's own protocol (``app.server.websocket_protocol``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Opcode, apply_mask
from websockets.protocol import State

from app.ws_protocol import FRAME_EXTENSION

_last_frame: tuple[str, bytes] | None = None  # the text framed last, and its frame


def _frame(text: str) -> bytes:
    """``text`` as one unmasked WebSocket text frame; the same text (the same object) is framed only once."""
    global _last_frame
    last = _last_frame
    if last is not None and last[0] is text:
        return last[1]
    frame = _text_frame(text.encode())
    _last_frame = (text, frame)
    return frame


def _text_frame(data: bytes) -> bytes:
    """One final, unmasked, uncompressed text frame (RFC 6455 5.2), as ``websockets``' ``Frame.serialize``
    writes it (tests/test_ws_protocol.py holds the two to the same bytes) without building a ``Frame``."""
    n = len(data)
    if n < 126:
        return _FIN_TEXT + _LENGTHS[n] + data
    if n < 65536:
        return _FIN_TEXT + _LENGTH_16 + n.to_bytes(2, "big") + data
    return _FIN_TEXT + _LENGTH_64 + n.to_bytes(8, "big") + data


_FIN_TEXT_BYTE = 0x80 | Opcode.TEXT.value
_FIN_TEXT = bytes([_FIN_TEXT_BYTE])
_LENGTHS = [bytes([n]) for n in range(126)]
_LENGTH_16 = bytes([126])
_LENGTH_64 = bytes([127])


class _Waiting:
    """The futures of the tasks waiting on a stand-in below (no list at all while none waits)."""

    __slots__ = ("_waiters",)

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] | None = None

    async def _wait(self) -> None:
        """Wait until a waiter is woken (its future set), then forget it."""
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
                if not self._waiters:
                    self._waiters = None


class _Inbox(_Waiting):
    """The subset of ``asyncio.Queue`` uvicorn uses (``put_nowait``, ``get``, ``empty``), on one list."""

    __slots__ = ("_items",)

    def __init__(self) -> None:
        super().__init__()
        self._items: list[Any] = []

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        if self._waiters:
            for waiter in self._waiters:
                if not waiter.done():
                    waiter.set_result(None)
                    break

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> Any:
        while not self._items:
            await self._wait()
        return self._items.pop(0)


class _Flag(_Waiting):
    """The subset of ``asyncio.Event`` uvicorn uses (``set``, ``clear``, ``is_set``, ``wait``); set at first."""

    __slots__ = ("_value",)

    def __init__(self) -> None:
        super().__init__()
        self._value = True

    def is_set(self) -> bool:
        return self._value

    def set(self) -> None:
        self._value = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._value = False

    async def wait(self) -> bool:
        if not self._value:
            await self._wait()
        return True


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # leaner stand-ins with the same interface as uvicorn's asyncio.Queue and asyncio.Event
        self.queue = _Inbox()  # type: ignore[assignment]  # a stand-in with asyncio.Queue's interface, not its class
        self.writable = _Flag()  # type: ignore[assignment]  # a stand-in with asyncio.Event's interface, not its class

    def data_received(self, data: bytes) -> None:
        if not self._took_text_frame(data):
            super().data_received(data)

    def _took_text_frame(self, data: bytes) -> bool:
        """Take a client's usual message (one final, masked text frame under 126 bytes, arriving alone in one
        read while no other frame is half-read) straight to the application, as uvicorn's protocol would after
        ``websockets``' parser; False for anything else, which goes through them untouched.

        Every move and ping comes this way. The parser is a generator stepped through a stream reader, the
        frame an object checked field by field: most of what receiving a move cost."""
        n = len(data) - 6  # the two header bytes and the mask
        if not 0 <= n < 126 or data[0] != _FIN_TEXT_BYTE or data[1] != 0x80 | n:  # (0x80: masked)
            return False
        conn = self.conn
        if (
            not self.handshake_complete
            or self.close_sent
            or conn.state is not State.OPEN
            or conn.extensions
            or conn.current_size is not None  # a fragmented message is being received
            or conn.reader.buffer  # part of a frame is waiting for the rest
            or conn.parser_exc is not None
            or (conn.max_message_size is not None and n > conn.max_message_size)
            or (conn.max_fragment_size is not None and n > conn.max_fragment_size)
        ):
            return False
        try:
            text = apply_mask(data[6:], data[2:6]).decode()
        except UnicodeDecodeError:
            return False  # the parser refuses it as it does (close 1007)
        # As uvicorn's ``send_receive_event_to_app``: queued for the application, and reading paused until it
        # has taken it.
        self.queue.put_nowait({"type": "websocket.receive", "text": text})
        if not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()
        return True

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the application has not run yet: it finds the extension in its scope
            scope["extensions"][FRAME_EXTENSION] = {"send_text_now": self.send_text_now}

    def send_text_now(self, text: str) -> bool:
        """Write ``text`` as one frame to the transport now, if the socket is open and takes it; else False."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.conn.extensions
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(_frame(text))
        return True

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete and "response" in self.__dict__:
            # The handshake is answered: its request and response are not used again (the scope has its own
            # copy of the headers). The parser of ``websockets`` keeps the request for the socket's life (a
            # local of its generator), so its headers are emptied rather than only let go.
            request = self.__dict__.pop("request", None)
            if request is not None:
                request.headers.clear()
            del self.response
