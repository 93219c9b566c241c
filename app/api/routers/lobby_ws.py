"""``/ws/lobby``: a snapshot of open challenges and live games, then every change as it happens.

Messages (server to client): ``{"t": "snapshot", "challenges": [...], "games": [...]}``, then
``challenge_created`` (``challenge``), ``challenge_removed`` (``id``, ``reason``), ``game_started``
(``challenge_id``, ``game_id``, ``url``, ``game``), ``game_finished`` (``game_id``, ``result``), and ``resync``
when the socket fell too far behind (reload the lists). Clients may send ``{"t": "ping"}`` to get a pong:
``TENGEN_LOBBY_MESSAGES_PER_SECOND`` (burst 10); beyond it ``{"t": "error", "code": "rate_limited"}``, and a
socket that keeps flooding is closed (4029). Lobby sockets count towards the per-address socket cap.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.deps import sessionmaker_of
from app.api.login_limits import client_address
from app.api.routers.game_ws import FLOOD_LIMIT, refuse_socket
from app.live.connection import CLOSE_FLOODING, TokenBucket
from app.lobby.views import challenge_view, game_summary
from app.store.repositories import challenges, games, users

router = APIRouter()


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    sockets = websocket.app.state.sockets
    ticket = sockets.admit(None, client_address(websocket), websocket.close)
    if ticket is None:
        await refuse_socket(websocket, websocket.app.state.metrics)
        return
    try:
        await _serve(websocket)
    finally:
        sockets.release(ticket)


async def _serve(websocket: WebSocket) -> None:
    await websocket.accept()
    broadcaster = websocket.app.state.lobby
    spectators = websocket.app.state.spectator_count
    async with broadcaster.subscribe() as subscription:
        async with sessionmaker_of(websocket)() as session:
            open_challenges = await challenges.list_open(session)
            names = await users.names(session, {row.creator_id for row in open_challenges})
            live = await games.list_live(session)
        await websocket.send_json(
            {
                "t": "snapshot",
                "challenges": [challenge_view(row, names.get(row.creator_id, "?")) for row in open_challenges],
                "games": [game_summary(row, spectators) for row in live],
            }
        )
        reader = asyncio.create_task(_read(websocket))
        try:
            while True:
                getter = asyncio.create_task(subscription.get())
                done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    getter.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await getter
                    return
                await websocket.send_json(getter.result())
        except WebSocketDisconnect:
            return
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect):
                await reader


async def _read(websocket: WebSocket) -> None:
    """Answer pings (as fast as the rate allows) until the client goes away or floods."""
    bucket = TokenBucket(rate=websocket.app.state.settings.lobby_messages_per_second, burst=10.0)
    refused = 0
    try:
        while True:
            message = await websocket.receive_json()
            if not bucket.take():
                refused += 1
                if refused > FLOOD_LIMIT:
                    await websocket.close(CLOSE_FLOODING, "too many messages: slow down and reconnect")
                    return
                await websocket.send_json({"t": "error", "code": "rate_limited",
                                           "message": "too many messages; this one was ignored"})
                continue
            if isinstance(message, dict) and message.get("t") == "ping":
                await websocket.send_json({"t": "pong", "id": message.get("id")})
    except (WebSocketDisconnect, ValueError):
        return

