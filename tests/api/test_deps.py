"""The session cookie identifies the user on WebSockets too (``current_user_ws``)."""

from __future__ import annotations

import json

import httpx
from fastapi import WebSocket
from websockets.asyncio.client import connect

from app.accounts.cookies import COOKIE_NAME
from app.api.deps import current_user_ws
from app.errors import ServiceError
from app.settings import Settings
from tests.conftest import LiveServer


async def test_current_user_ws_reads_the_session_cookie(settings: Settings) -> None:
    server = LiveServer(settings)

    @server.app.websocket("/ws/whoami")
    async def whoami(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            user = await current_user_ws(websocket)
        except ServiceError as error:
            await websocket.send_json({"error": error.code})
        else:
            await websocket.send_json({"id": user.id, "name": user.name})
        await websocket.close()

    with server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            me = (await http.post("/api/guest")).json()
            cookie = f"{COOKIE_NAME}={http.cookies[COOKIE_NAME]}"
        async with connect(server.ws_url + "/ws/whoami", additional_headers={"Cookie": cookie}) as ws:
            assert json.loads(await ws.recv()) == {"id": me["id"], "name": me["name"]}
        async with connect(server.ws_url + "/ws/whoami") as ws:
            assert json.loads(await ws.recv()) == {"error": "not_authenticated"}
        async with connect(server.ws_url + "/ws/whoami", additional_headers={"Cookie": cookie + "x"}) as ws:
            assert json.loads(await ws.recv()) == {"error": "not_authenticated"}
