"""``LeanWebSocketProtocol``: uvicorn's WebSocket protocol without its per-socket queue, event and handshake.

Every socket of every other test is served through it too (``uvicorn_options``; ``TENGEN_TEST_WS=stock`` serves
them with uvicorn's own instead); here, what an open socket holds, the two small replacements' own behaviour,
that it serves only at the versions of uvicorn and websockets it was tested with, and that the sockets work the
same served either way.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import re
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path

import pytest
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.asyncio.client import connect

from websockets.frames import Frame, Opcode

from app import server
from app.lean_ws_protocol import LeanWebSocketProtocol, _Flag, _frame, _Inbox, _text_frame
from app.settings import Settings
from app.ws_protocol import FRAME_EXTENSION, STOCK_PROTOCOL, TESTED_WITH, text_sender, untested_versions
from tests.conftest import STOCK_WS, LiveServer
from tests.support.players import guests, start_game


async def test_inbox_hands_out_items_in_order_and_wakes_a_waiting_reader() -> None:
    inbox = _Inbox()
    assert inbox.empty()
    inbox.put_nowait("a")
    inbox.put_nowait("b")
    assert inbox.qsize() == 2
    assert await inbox.get() == "a" and await inbox.get() == "b" and inbox.empty()
    reader = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not reader.done()
    inbox.put_nowait("c")
    assert await asyncio.wait_for(reader, 1) == "c"
    cancelled = asyncio.ensure_future(inbox.get())  # a reader that gives up leaves nothing behind
    await asyncio.sleep(0)
    cancelled.cancel()
    await asyncio.sleep(0)
    inbox.put_nowait("d")
    assert await inbox.get() == "d"


async def test_flag_holds_writers_back_while_cleared() -> None:
    flag = _Flag()
    assert flag.is_set() and await flag.wait()
    flag.clear()
    waiters = [asyncio.ensure_future(flag.wait()) for _ in range(2)]
    await asyncio.sleep(0)
    assert not any(w.done() for w in waiters)
    flag.set()
    assert await asyncio.gather(*waiters) == [True, True]


@pytest.mark.skipif(STOCK_WS, reason="TENGEN_TEST_WS=stock: the servers use uvicorn's own protocol")
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_an_open_socket_holds_no_queue_event_or_handshake(live_server_handle: LiveServer) -> None:
    url = live_server_handle.ws_url + "/ws/lobby"
    async with connect(url, additional_headers={"X-Long-Header": "x" * 2000}) as ws:
        assert json.loads(await ws.recv())["t"] == "snapshot"
        await ws.send(json.dumps({"t": "ping", "id": "p1"}))
        while (answer := json.loads(await ws.recv()))["t"] != "pong":
            pass
        assert answer["id"] == "p1"
        protocols = [p for p in live_server_handle.server.server_state.connections if isinstance(p, LeanWebSocketProtocol)]
        assert len(protocols) == 1
        held = protocols[0]
        assert isinstance(held.queue, _Inbox) and isinstance(held.writable, _Flag)
        assert not hasattr(held, "request") and not hasattr(held, "response")
        # The parser of ``websockets`` still refers to the handshake request: its headers were let go.
        request = held.conn.parser.gi_frame.f_locals.get("request")
        assert request is not None and len(request.headers) == 0
        assert any(key == b"x-long-header" for key, _ in held.scope["headers"])  # the app's own copy stays
        assert held.scope["extensions"][FRAME_EXTENSION]["send_text_now"] == held.send_text_now


def test_a_text_is_framed_once_as_an_unmasked_text_frame() -> None:
    text = '{"t":"move","v":7}' + "x" * 200  # a length over 125 takes the two-byte length form
    frame = _frame(text)
    assert frame[:2] == b"\x81\x7e" and int.from_bytes(frame[2:4], "big") == len(text)
    assert frame[4:] == text.encode()
    assert _frame(text) is frame  # the same text again: the same bytes, not framed again
    assert _frame("other") == b"\x81\x05other"


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_is_what_websockets_would_write(length: int) -> None:
    # Each length form's edges (7 bits, 16 bits, 64 bits), against the library's own serialiser.
    data = ("é" * (length // 2) + "x" * (length % 2)).encode()
    assert _text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False)


class _FakeWebSocket:
    def __init__(self, takes_it_now: bool) -> None:
        self.now: list[str] = []
        self.through_asgi: list[str] = []
        self.takes_it_now = takes_it_now
        self.scope = {"extensions": {FRAME_EXTENSION: {"send_text_now": self.send_text_now}}}

    def send_text_now(self, text: str) -> bool:
        if self.takes_it_now:
            self.now.append(text)
        return self.takes_it_now

    async def send_text(self, text: str) -> None:
        self.through_asgi.append(text)


async def test_a_text_goes_through_asgi_when_the_socket_cannot_take_it_now() -> None:
    ready, full = _FakeWebSocket(True), _FakeWebSocket(False)
    await text_sender(ready)("a")  # type: ignore[arg-type]  # a stand-in with what text_sender reads of a WebSocket
    await text_sender(full)("b")  # type: ignore[arg-type]  # a stand-in with what text_sender reads of a WebSocket
    assert (ready.now, ready.through_asgi) == (["a"], [])
    assert (full.now, full.through_asgi) == ([], ["b"])
    plain = _FakeWebSocket(True)
    plain.scope = {"extensions": {}}  # a server without the extension
    await text_sender(plain)("c")  # type: ignore[arg-type]  # a stand-in with what text_sender reads of a WebSocket
    assert plain.through_asgi == ["c"]


class _RawClient:
    """A WebSocket client on a bare TCP stream: the frames it writes, and how they are split, are the test's."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int, path: str) -> _RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101")
        return cls(reader, writer)

    @staticmethod
    def frame(payload: bytes, opcode: int = 0x1) -> bytes:
        mask = os.urandom(4)
        n = len(payload)
        length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
        return bytes([0x80 | opcode]) + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

    async def read(self) -> tuple[int, bytes]:
        head = await self.reader.readexactly(2)
        n = head[1] & 0x7F
        if n == 126:
            n = int.from_bytes(await self.reader.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.reader.readexactly(8), "big")
        return head[0] & 0x0F, await self.reader.readexactly(n)

    async def answer_to(self, client_id: str) -> dict[str, object]:
        while True:
            opcode, payload = await asyncio.wait_for(self.read(), 10)
            assert opcode == 0x1
            message = json.loads(payload)
            if message.get("id") == client_id:
                return message


# ---- only at the versions it was tested with; uvicorn's own protocol otherwise ----------------------------


def test_the_versions_it_was_tested_with_are_the_ones_constraints_pin() -> None:
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)$", (Path(__file__).parents[1] / "constraints.txt").read_text(), re.M))
    assert {name: pins.get(name) for name in TESTED_WITH} == TESTED_WITH
    assert untested_versions() == {}  # and installed here: every other test's sockets are served by the lean one


def test_the_lean_protocol_serves_only_at_the_versions_it_was_tested_with(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(server, "_told_stock", False)
    tested = dict(TESTED_WITH)

    def installed_as(**versions: str | None) -> Callable[[str], str]:  # a stand-in for metadata.version
        def version(name: str) -> str:
            found = {**tested, **versions}[name]
            if found is None:
                raise metadata.PackageNotFoundError(name)
            return found

        return version

    assert server.websocket_protocol(installed_as()) is LeanWebSocketProtocol
    assert untested_versions(installed_as(uvicorn="0.55.0", websockets=None)) == {"uvicorn": "0.55.0", "websockets": None}
    with caplog.at_level(logging.WARNING, logger="tengen.server"):
        assert server.websocket_protocol(installed_as(uvicorn="0.55.0")) == STOCK_PROTOCOL
        assert server.websocket_protocol(installed_as(websockets="18.0")) == STOCK_PROTOCOL
    told = [record.getMessage() for record in caplog.records if record.name == "tengen.server"]
    assert len(told) == 1 and "uvicorn 0.55.0" in told[0]  # said once, whatever else differs later
    assert server.websocket_protocol(installed_as()) is LeanWebSocketProtocol  # and back when they are


@pytest.fixture(params=[LeanWebSocketProtocol, WebSocketsSansIOProtocol], ids=["lean", "stock"])
def served(
    request: pytest.FixtureRequest, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[LiveServer, type[WebSocketsSansIOProtocol]]]:
    """A real server whose sockets are served by the lean protocol, or (another uvicorn installed, as far as the
    check can tell) by uvicorn's own; with the class that serves them."""
    if STOCK_WS and request.param is LeanWebSocketProtocol:
        pytest.skip("TENGEN_TEST_WS=stock: the servers use uvicorn's own protocol")
    if request.param is WebSocketsSansIOProtocol:
        monkeypatch.setitem(TESTED_WITH, "uvicorn", "0.0.1")
        monkeypatch.setattr(server, "_told_stock", True)  # said once: by the test above
    with LiveServer(settings) as live:
        yield live, request.param


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_game_is_played_the_same_through_either_protocol(
    served: tuple[LiveServer, type[WebSocketsSansIOProtocol]],
) -> None:
    live, protocol = served
    async with guests(live.url, 2) as (black, white):
        game_id = await start_game(black, white)
        b, w = await black.socket(game_id), await white.socket(game_id)
        await b.of_type("snapshot")
        await w.of_type("snapshot")
        connections = live.server.server_state.connections
        assert {type(p) for p in connections if isinstance(p, WebSocketsSansIOProtocol)} == {protocol}
        assert (await b.ok({"t": "play", "p": [2, 2]}))["v"] == 1
        assert (await w.event(1))["p"] == [2, 2]
        assert (await w.ok({"t": "play", "p": [6, 6]}))["v"] == 2
        assert (await b.event(2))["p"] == [6, 6]
        await b.close()
        await w.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_messages_are_read_whole_however_their_frames_arrive(
    served: tuple[LiveServer, type[WebSocketsSansIOProtocol]],
) -> None:
    live_server_handle = served[0]
    client = await _RawClient.open(live_server_handle.port, "/ws/lobby")

    def ping(client_id: str, pad: int = 0) -> bytes:
        return client.frame(f'{{"t": "ping", "id": "{client_id}"{" " * pad}}}'.encode())

    client.writer.write(ping("alone"))  # one small frame in one read: the short way
    assert (await client.answer_to("alone"))["t"] == "pong"
    split = ping("split")
    client.writer.write(split[:3])  # half a frame, then the rest: the parser's way
    await client.writer.drain()
    await asyncio.sleep(0.05)
    client.writer.write(split[3:])
    assert (await client.answer_to("split"))["t"] == "pong"
    client.writer.write(ping("first") + ping("second"))  # two frames in one read
    assert (await client.answer_to("first"))["t"] == "pong"
    assert (await client.answer_to("second"))["t"] == "pong"
    client.writer.write(ping("long", pad=200))  # a 16-bit length
    assert (await client.answer_to("long"))["t"] == "pong"
    client.writer.write(ping("after"))  # and the short way again
    assert (await client.answer_to("after"))["t"] == "pong"
    client.writer.write(client.frame(b'{"t": "ping", "id": "\xff"}'))  # not UTF-8: refused as the parser does
    while True:
        opcode, payload = await asyncio.wait_for(client.read(), 10)
        if opcode == 0x8:
            break
    assert int.from_bytes(payload[:2], "big") == 1007
    client.writer.close()
