"""``LeanWebSocketProtocol``: uvicorn's WebSocket protocol without its per-socket queue, event and handshake.

Every socket of every other test is served through it too (``uvicorn_options``); here, what an open socket
holds, and the two small replacements' own behaviour.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from app.ws_protocol import LeanWebSocketProtocol, _Flag, _Inbox


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
async def test_an_open_socket_holds_no_queue_event_or_handshake(live_server_handle) -> None:  # type: ignore[no-untyped-def]
    url = live_server_handle.ws_url + "/ws/lobby"
    async with connect(url, additional_headers={"X-Long-Header": "x" * 2000}) as ws:
        assert json.loads(await ws.recv())["t"] == "snapshot"
        await ws.send(json.dumps({"t": "ping", "id": "p1"}))
        while (answer := json.loads(await ws.recv()))["t"] != "pong":
            pass
        assert answer["id"] == "p1"
        protocols = [p for p in live_server_handle.server.server_state.connections
                     if isinstance(p, LeanWebSocketProtocol)]
        assert len(protocols) == 1
        held = protocols[0]
        assert isinstance(held.queue, _Inbox) and isinstance(held.writable, _Flag)
        assert not hasattr(held, "request") and not hasattr(held, "response")
        # The parser of ``websockets`` still refers to the handshake request: its headers were let go.
        request = held.conn.parser.gi_frame.f_locals.get("request")
        assert request is not None and len(request.headers) == 0
        assert any(key == b"x-long-header" for key, _ in held.scope["headers"])  # the app's own copy stays
