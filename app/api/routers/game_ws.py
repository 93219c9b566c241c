"""``/ws/games/{game_id}``: one socket per viewer of a game. Thin: parse, rate-limit, hand to the room."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket

from app.api.deps import socket_limits
from app.api.room_socket import chat_refused, close_through, say_through, serve_frames
from app.api.socket_admission import Acting, serve_admitted, since_version
from app.games.live.outcome import Outcome
from app.games.live.room import Room
from app.logs import bind_game
from app.metrics import Metrics
from app.moderation.chat_filter import ChatFilter
from app.moderation.standing import is_new_account, restriction
from app.protocol import (
    CHAT_RATE_LIMITED_MESSAGE,
    NOT_A_PLAYER_MESSAGE,
    PLAYER_ACTION_TYPES,
    RATE_LIMITED_MESSAGE,
    Chat,
    ErrorMessage,
    Pass,
    Ping,
    Play,
    Pong,
    PongReply,
    ProtocolError,
    client_id_of,
    encode,
    parse_client_message,
    peek,
)
from app.store.models import User
from app.store.types import utcnow
from app.transport.connection import Connection
from app.transport.sockets import Ticket
from app.ws_protocol import text_sender, text_sender_now

router = APIRouter()

CLOSE_NO_GAME = 4404
_LAG_ACTIONS = ("play", "pass", "seal")
_MOVES = ("play", "pass")
_FLOODED = "flooded"  # _handle's kind for the refusal that closes the socket
# After a chat line refused over the chat limit, the socket's lines within this many seconds are refused
# without asking the limiter again (a flood of chat past the limit then costs no count, here or in Redis).
CHAT_HOLD_SECONDS = 1.0


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    bind_game(game_id)  # this task serves one socket: every line it logs is about this game
    metrics: Metrics = websocket.app.state.metrics

    async def serve(user: User | None, ticket: Ticket, chat_filter: ChatFilter | None) -> None:
        await _serve(websocket, game_id, user, ticket, metrics, chat_filter)

    await serve_admitted(websocket, serve, lambda user: socket_limits(websocket, user))


async def _serve(
    websocket: WebSocket, game_id: str, user: User | None, ticket: Ticket, metrics: Metrics, chat_filter: ChatFilter | None
) -> None:
    room = await websocket.app.state.rooms.open(game_id)
    await websocket.accept()
    if room is None:
        metrics.error("no_such_game")
        await websocket.send_text(encode(ErrorMessage(code="no_such_game", message="no such game")).decode())
        await websocket.close(CLOSE_NO_GAME, "no such game")
        return
    user_id = None if user is None else user.id
    now = utcnow()
    acting = Acting.of(websocket, ticket)
    # A suspended or banned user may watch, never sit (nor offer a rematch, which would start a game); nor a
    # token that may only watch.
    sits = acting.scoped and (user is None or restriction(user, now) is None)
    new_account = user is not None and is_new_account(user, now, websocket.app.state.settings.new_account_hours)
    send, send_now = _senders(websocket, chat_filter)
    conn = Connection(
        send,
        websocket.close,
        user_id=user_id,
        user_name=None if user is None else user.name,
        role=room.seat_of(user_id) if sits else None,
        send_now=send_now,
    )
    ticket.close = close_through(conn, websocket)
    ticket.say = say_through(conn)

    async def handle(raw: str | bytes) -> tuple[str | None, bool]:
        received = time.perf_counter()
        reply, kind = await _handle(room, conn, acting, raw, websocket.app.state, new_account)
        if isinstance(reply, Outcome):
            _observe(metrics, kind, reply, time.perf_counter() - received)
            conn.refused_for(reply.code)  # a socket that keeps being refused is read more slowly
            reply = reply.encode()
        return None if reply is None else reply.decode(), kind == _FLOODED

    await room.attach(conn, since_version(websocket.query_params.get("v")))
    try:
        await serve_frames(websocket, conn, metrics, handle)
    finally:
        await room.detach(conn)


def _senders(
    websocket: WebSocket, chat_filter: ChatFilter | None
) -> tuple[Callable[[str], Awaitable[None]], Callable[[str], bool] | None]:
    """The socket's ``send`` and ``send_now`` for its Connection: texts go straight to the transport when the
    server offers it (app/ws_protocol.py), through the viewer's chat filter either way."""
    send, send_now = text_sender(websocket), text_sender_now(websocket)
    if chat_filter is None:
        return send, send_now
    if send_now is not None:
        unfiltered = send_now

        def send_now_filtered(text: str) -> bool:
            return unfiltered(chat_filter.text(text))

        send_now = send_now_filtered
    return chat_filter.wrap(send), send_now


def _observe(metrics: Metrics, kind: str | None, outcome: Outcome, seconds: float) -> None:
    """Count a refusal by its code; time an acknowledged move (receive -> ack)."""
    if outcome.code is not None:
        metrics.error(outcome.code)
    elif kind in _MOVES:
        metrics.move_latency.observe(seconds)


async def _handle(
    room: Room, conn: Connection, acting: Acting, raw: str | bytes, state: Any, new_account: bool = False
) -> tuple[Outcome | bytes | None, str | None]:
    """The reply to one client message (an outcome, another message, or None: no reply) and the message's
    type (None: not understood)."""
    if not conn.messages.take():
        closing = conn.refuse()
        return (
            Outcome.refused(client_id_of(raw), "rate_limited", RATE_LIMITED_MESSAGE),
            _FLOODED if closing else None,
        )
    if conn.role is None or conn.chat_held_until or not acting.scoped:
        early = _refused_unparsed(conn, acting, raw)
        if early is not None:
            return early, None
    try:
        message = parse_client_message(raw)
    except ProtocolError as exc:
        return Outcome.refused(exc.client_id, exc.code, exc.message), None
    if isinstance(message, Ping):
        return encode(PongReply(id=message.id, server_time=room.clock())), message.t
    if isinstance(message, Pong):
        conn.pong_received(message.id, time.monotonic())
        return None, message.t
    refused = await acting.refusal(message.t)
    if refused is not None:
        return Outcome.refused(message.id, refused.code, refused.message), message.t
    if isinstance(message, Chat):
        refusal = await _chat_refusal(state, conn, room.game_id, message, new_account)
        if refusal is not None:
            return refusal, message.t
        action = {"t": "chat", "channel": message.channel, "text": message.text}
        return await room.act(conn, message.id, action), message.t
    action = _action_of(message)
    facts = {"lag": conn.lag} if message.t in _LAG_ACTIONS and conn.lag is not None else None
    return await room.act(conn, message.id, action, facts), message.t


def _refused_unparsed(conn: Connection, acting: Acting, raw: str | bytes) -> Outcome | None:
    """The refusals the socket alone decides, whatever the message's other fields say, made before the full
    parse and validation: any action of a token that may only watch (``insufficient_scope``), a spectator's
    game action (``not_a_player``), and a chat line within ``CHAT_HOLD_SECONDS`` of one refused over the chat
    limit. None: parse the message and go on."""
    kind, client_id = peek(raw)
    scope = acting.scope_refusal(kind)
    if scope is not None:
        return Outcome.refused(client_id, scope.code, scope.message)
    if kind in PLAYER_ACTION_TYPES and conn.role is None:
        return Outcome.refused(client_id, "not_a_player", NOT_A_PLAYER_MESSAGE)
    if kind == "chat" and conn.chat_held_until:
        if time.monotonic() < conn.chat_held_until:
            return Outcome.refused(client_id, "chat_rate_limited", CHAT_RATE_LIMITED_MESSAGE)
        conn.chat_held_until = 0.0
    return None


def _action_of(message: Any) -> dict[str, Any]:
    """The room's action for a game message: its fields but the client's id, a point as a list."""
    if isinstance(message, Play):  # every move: no dump of the model
        return {"t": "play", "p": [message.p[0], message.p[1]]}
    if isinstance(message, Pass):
        return {"t": "pass"}
    action = message.model_dump(exclude={"id"})
    if "p" in action and action["p"] is not None:
        action["p"] = list(action["p"])
    return action


async def _chat_refusal(state: Any, conn: Connection, game_id: str, message: Chat, new_account: bool) -> Outcome | None:
    if conn.user_id is None:
        return None  # the room refuses it: a name is needed to chat
    refusal = await chat_refused(state, conn.user_id, game_id, message.text, new_account)
    if refusal is None:
        return None
    if refusal.code == "chat_rate_limited":
        conn.chat_held_until = time.monotonic() + CHAT_HOLD_SECONDS
    return Outcome.refused(message.id, refusal.code, refusal.message)
