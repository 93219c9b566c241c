"""``LeanWebSocketProtocol``: uvicorn's WebSocket protocol without its per-socket queue, event and handshake.

Every socket of every other test is served through it too (``uvicorn_options``); here, what an open socket
holds, and the two small replacements' own behaviour.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from app.ws_protocol import FRAME_EXTENSION, LeanWebSocketProtocol, _Flag, _frame, _Inbox, text_sender
from tests.conftest import LiveServer


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
