"""What a game socket and a review socket share: reading the client's frames into replies, the chat check
both make before a line reaches the room, and their last words when they are ended."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from app.errors import ServiceError
from app.limits.chat import chat_refusal
from app.metrics import Metrics
from app.moderation.standing import chat_sanction
from app.transport.connection import CLOSE_FLOODING, FLOOD_REASON, Connection

# One client frame -> the reply for this socket only (None: no reply), and whether the socket flooded.
Handler = Callable[[str | bytes], Awaitable[tuple[str | None, bool]]]


def close_through(conn: Connection, websocket: WebSocket) -> Callable[[int, str], Awaitable[None]]:
    """A socket's close (``Ticket.close``): nothing more is acted on for it, then the close."""

    async def close(code: int, reason: str) -> None:
        conn.closed = True
        await websocket.close(code, reason)

    return close


def say_through(conn: Connection) -> Callable[[str], Awaitable[None]]:
    """A socket's last words before it is ended (``Ticket.say``): through its Connection, behind what is queued
    for it, and sent before the close."""

    async def say(text: str) -> None:
        conn.push(text)
        await conn.flush()

    return say


async def serve_frames(websocket: WebSocket, conn: Connection, metrics: Metrics, handle: Handler) -> None:
    """Answer the client's frames until it goes or the socket is closed; a client that floods gets the
    refusals already answered, then the close (4029). A socket whose messages keep being refused for what they
    say is read about once a second (``Connection.read_delay``): its further frames wait in the network's buffers,
    unread. Counted among the connected sockets meanwhile."""
    metrics.connected_sockets.inc()
    try:
        while not conn.closed:
            delay = conn.read_delay()
            if delay:
                metrics.socket_reads_slowed.inc()
                await asyncio.sleep(delay)
                if conn.closed:
                    break
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            reply, flooded = await handle(raw)
            if reply is not None:
                await conn.reply(reply)
            if flooded:
                await conn.flush()  # the refusals already answered reach the client before the close
                conn.closed = True
                await websocket.close(CLOSE_FLOODING, FLOOD_REASON)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        metrics.connected_sockets.dec()


async def chat_refused(state: Any, user_id: int, room: str, text: str, new_account: bool = False) -> ServiceError | None:
    """Chat is limited per user, whatever socket or instance it comes through (lichess: 4 lines in 10 s; a
    guest's or a new account's, ``TENGEN_NEW_ACCOUNT_CHAT_LINES``), a line repeating the user's previous one in
    this room is dropped, and a muted, suspended or banned user's line is refused, as the database says now."""
    settings = state.settings
    lines = settings.new_account_chat_lines if new_account else settings.chat_lines
    refusal = await chat_refusal(state.limiter, lines, settings.chat_window, user_id, room, text)
    if refusal is None:
        refusal = await chat_sanction(state.sessionmaker, user_id)
    return refusal
