"""How every socket of the site is let in (the game, review and lobby sockets alike): the user its handshake
names (a bad API token, a bare ``Bearer``: the error, then close 4401), a place under the caps of sockets per
user and per address (over them: the error, then close 4429), and the viewer's chat filter (those they blocked,
or who blocked them), all given back when the socket ends; and what the socket may do, asked at each of its
client's messages (``Acting``) from the credential its ticket holds."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketState

from app.api.deps import credential_of, optional_user_ws
from app.api.login_limits import client_address
from app.errors import ServiceError
from app.metrics import Metrics
from app.moderation.chat_filter import ChatFilter, ChatFilters
from app.moderation.standing import sanction_key
from app.protocol import ErrorMessage, encode
from app.store.models import User
from app.store.types import utcnow
from app.transport.credential_sweep import CredentialSweep
from app.transport.sockets import CLOSE_TOO_MANY_SOCKETS, SocketRegistry, Ticket

CLOSE_BAD_TOKEN = 4401

# What a socket does once admitted: (its user or None, its place under the caps, its chat filter).
Serve = Callable[[User | None, Ticket, ChatFilter | None], Awaitable[None]]

ACT_SCOPE = "play"  # what a socket's credential needs for any message but a ping or a pong
PASSIVE = frozenset({"ping", "pong"})  # the messages that only watch: every credential may send them
INSUFFICIENT_SCOPE = ServiceError("insufficient_scope", "This API token may only watch (it lacks the 'play' scope).", 403)
UNCHECKED = ServiceError("unavailable", "Your sign-in could not be checked right now; try again.", 503)


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
    it; or refuse it, said on the socket before the close. The ticket holds the handshake's credential and the
    user's sanction in force then (app/transport/credentials.py)."""
    try:
        user = await optional_user_ws(websocket)
    except ServiceError as exc:
        await refuse_token(websocket, exc)
        return
    sockets: SocketRegistry = websocket.app.state.sockets
    ticket = await sockets.admit(
        None if user is None else user.id,
        client_address(websocket),
        websocket.close,
        credential=credential_of(websocket, user),
        sanction=None if user is None else sanction_key(user, utcnow()),
        **limits(user),
    )
    if ticket is None:
        await refuse_socket(websocket, websocket.app.state.metrics)
        return
    ticket.say = _say_once_open(websocket)  # each socket kind puts its own writer here once it has one
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


def _say_once_open(websocket: WebSocket) -> Callable[[str], Awaitable[None]]:
    async def say(text: str) -> None:
        if websocket.application_state == WebSocketState.CONNECTED:
            await websocket.send_text(text)

    return say


class Acting:
    """What one socket may do, asked at each of its client's messages from the credential its ticket holds, on
    the lobby, game and review sockets alike: a message that acts (anything but a ping or a pong) needs the
    ``play`` scope (a session has every scope; a token the ones it was made with), and a credential that still
    holds (its ticket not ended by a log-out, a revoked token or a sanction, read again recently enough:
    app/transport/credential_sweep.py). Costs no database read unless the instance's last reading of its sockets'
    credentials is overdue."""

    __slots__ = ("ticket", "sweep", "scoped")

    def __init__(self, ticket: Ticket, sweep: CredentialSweep) -> None:
        self.ticket = ticket
        self.sweep = sweep
        self.scoped = ticket.credential.allows(ACT_SCOPE)  # what the credential allows does not change

    @classmethod
    def of(cls, websocket: WebSocket, ticket: Ticket) -> Acting:
        return cls(ticket, websocket.app.state.credential_sweep)

    def scope_refusal(self, kind: str | None) -> ServiceError | None:
        """The refusal of a message of type ``kind`` for the credential's scope alone (None: not refused, or
        a frame with no type, which its parse refuses)."""
        if self.scoped or kind is None or kind in PASSIVE:
            return None
        return INSUFFICIENT_SCOPE

    async def refusal(self, kind: str | None) -> ServiceError | None:
        """Why a message of type ``kind`` may not act now (None: it may)."""
        refused = self.scope_refusal(kind)
        if refused is not None or kind in PASSIVE:
            return refused
        if self.ticket.ended is None and not self.sweep.fresh():
            try:
                await self.sweep.check()
            except Exception:
                return UNCHECKED
        ended = self.ticket.ended
        if ended is not None:
            return ServiceError(ended.code, ended.message, 401)
        return None


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
