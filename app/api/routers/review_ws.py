"""``/ws/reviews/{review_id}``: one socket per participant of a shared review. Thin: parse, rate-limit, hand
to the review room (docs/protocol.md §9)."""

from __future__ import annotations

import time
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket

from app.api.room_socket import chat_refused, close_through, say_through, serve_frames
from app.api.socket_admission import Acting, serve_admitted, since_version
from app.errors import ServiceError
from app.metrics import Metrics
from app.moderation.chat_filter import ChatFilter
from app.protocol import (
    RATE_LIMITED_MESSAGE,
    ErrorMessage,
    Ping,
    Pong,
    PongReply,
    ProtocolError,
    ReviewChat,
    client_id_of,
    encode,
    parse_review_message,
)
from app.reviews.live.room import ReviewRoom
from app.store.models import User
from app.transport.connection import Connection
from app.transport.sockets import Ticket

router = APIRouter()

CLOSE_NO_REVIEW = 4404
CLOSE_REVIEW_FULL = 4409
CLOSE_TRY_AGAIN = 1013  # the review cannot be opened right now (its tree waits for a study worker)


@router.websocket("/ws/reviews/{review_id}")
async def review_socket(websocket: WebSocket, review_id: str) -> None:
    metrics: Metrics = websocket.app.state.metrics

    async def serve(user: User | None, ticket: Ticket, chat_filter: ChatFilter | None) -> None:
        await _serve(websocket, review_id, user, ticket, metrics, chat_filter)

    await serve_admitted(websocket, serve)


async def _refuse(websocket: WebSocket, metrics: Metrics, close: int, *, code: str, message: str) -> None:
    metrics.error(code)
    await websocket.send_text(encode(ErrorMessage(code=code, message=message)).decode())
    await websocket.close(close, code)


async def _serve(
    websocket: WebSocket, review_id: str, user: User | None, ticket: Ticket, metrics: Metrics, chat_filter: ChatFilter | None
) -> None:
    room: ReviewRoom | None = None
    try:
        if 0 < len(review_id) <= 16:
            room = await websocket.app.state.review_rooms.open(review_id)
    except ServiceError as exc:  # the study workers could not rebuild its tree now (study_busy)
        await websocket.accept()
        await _refuse(websocket, metrics, CLOSE_TRY_AGAIN, code=exc.code, message=exc.message)
        return
    await websocket.accept()
    if room is None:
        await _refuse(websocket, metrics, CLOSE_NO_REVIEW, code="no_such_review", message="no such review")
        return
    user_id = None if user is None else user.id
    if await room.is_full_for(user_id):
        await _refuse(
            websocket,
            metrics,
            CLOSE_REVIEW_FULL,
            code="review_full",
            message=f"this review already has {room.limits.participants} people in it",
        )
        return
    send = websocket.send_text if chat_filter is None else chat_filter.wrap(websocket.send_text)
    conn = Connection(send, websocket.close, user_id=user_id, user_name=None if user is None else user.name, role=None)
    ticket.close, ticket.say = close_through(conn, websocket), say_through(conn)
    acting = Acting.of(websocket, ticket)

    async def handle(raw: str | bytes) -> tuple[str | None, bool]:
        assert room is not None
        reply, flooded = await _handle(room, conn, acting, raw, websocket.app.state)
        if reply is not None and reply.startswith(b'{"t":"error"'):
            code = _code_of(reply)
            metrics.error(code)
            conn.refused_for(code)  # a socket that keeps being refused is read more slowly
        return None if reply is None else reply.decode(), flooded

    await room.attach(conn, since_version(websocket.query_params.get("v")))
    try:
        await serve_frames(websocket, conn, metrics, handle)
    finally:
        await room.detach(conn)


def _code_of(reply: bytes) -> str:
    return str(orjson.loads(reply).get("code"))


async def _handle(room: ReviewRoom, conn: Connection, acting: Acting, raw: str | bytes, state: Any) -> tuple[bytes | None, bool]:
    """The reply to one client message (None: no reply), and whether the socket flooded and must close."""
    if not conn.messages.take():
        closing = conn.refuse()
        return encode(ErrorMessage(id=client_id_of(raw), code="rate_limited", message=RATE_LIMITED_MESSAGE)), closing
    try:
        message = parse_review_message(raw)
    except ProtocolError as exc:
        return encode(ErrorMessage(id=exc.client_id, code=exc.code, message=exc.message)), False
    if isinstance(message, Ping):
        return encode(PongReply(id=message.id, server_time=time.time())), False
    if isinstance(message, Pong):
        return None, False
    refused = await acting.refusal(message.t)
    if refused is not None:
        return encode(ErrorMessage(id=message.id, code=refused.code, message=refused.message)), False
    if isinstance(message, ReviewChat) and conn.user_id is not None:
        refusal = await chat_refused(state, conn.user_id, room.channel, message.text)
        if refusal is not None:
            return encode(ErrorMessage(id=message.id, code=refusal.code, message=refusal.message)), False
    action = message.model_dump(exclude={"id"})
    if action.get("p") is not None:
        action["p"] = list(action["p"])
    return await room.act(conn, message.id, action), False
