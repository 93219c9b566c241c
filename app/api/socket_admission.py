"""How every socket of the site is let in (the game, review and lobby sockets alike): the user its handshake
names (a bad API token: the error, then close 4401), a place under the caps of sockets per user and per address
(over them: the error, then close 4429), and the viewer's chat filter (those they blocked, or who blocked them),
all given back when the socket ends."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket

from app.api.deps import optional_user_ws
from app.api.login_limits import client_address
from app.errors import ServiceError
from app.live.sockets import CLOSE_TOO_MANY_SOCKETS, SocketRegistry, Ticket
from app.metrics import Metrics
from app.moderation.chat_filter import ChatFilter, ChatFilters
from app.protocol import ErrorMessage, encode
from app.store.models import User

CLOSE_BAD_TOKEN = 4401

# What a socket does once admitted: (its user or None, its place under the caps, its chat filter).
Serve = Callable[[User | None, Ticket, ChatFilter | None], Awaitable[None]]


def since_version(raw: str | None) -> int | None:
    """The ``?v=`` a reconnecting client sends: the last version it holds (None: none, or not a number)."""
    try:
        return None if raw is None else int(raw)
    except ValueError:
        return None


async def serve_admitted(
    websocket: WebSocket, serve: Serve, limits: Callable[[User | None], dict[str, Any]] = lambda _user: {}
) -> None:
    """Admit the socket (``limits(user)``: the ``SocketRegistry.admit`` options for this user), then ``serve``
    it; or refuse it, said on the socket before the close."""
    try:
        user = await optional_user_ws(websocket)
    except ServiceError as exc:
        await refuse_token(websocket, exc)
        return
    sockets: SocketRegistry = websocket.app.state.sockets
    ticket = await sockets.admit(None if user is None else user.id, client_address(websocket), websocket.close, **limits(user))
    if ticket is None:
        await refuse_socket(websocket, websocket.app.state.metrics)
        return
    filters: ChatFilters = websocket.app.state.chat_filters
    try:
        # Read before the handshake completes: what a client sees right after connecting is its state when it
        # connected.
        chat_filter = await filters.open(None if user is None else user.id)
        try:
            await serve(user, ticket, chat_filter)
        finally:
            filters.close(chat_filter)
    finally:
        await sockets.release(ticket)


async def refuse_token(websocket: WebSocket, exc: ServiceError) -> None:
    """A handshake with a bad API token: the error, then close 4401."""
    await websocket.accept()
    await websocket.send_text(encode(ErrorMessage(code=exc.code, message=exc.message)).decode())
    await websocket.close(CLOSE_BAD_TOKEN, exc.code)


async def refuse_socket(websocket: WebSocket, metrics: Metrics) -> None:
    """Over the cap of sockets per user or per address: say so, then close (4429)."""
    await websocket.accept()
    metrics.error("too_many_sockets")
    await websocket.send_text(
        encode(ErrorMessage(code="too_many_sockets", message="too many open connections: close some tabs and reload")).decode()
    )
    await websocket.close(CLOSE_TOO_MANY_SOCKETS, "too many connections")
