"""``/ws/lobby``: a snapshot of open challenges and live games, then every change as it happens; and
automatch ("play now") for the signed-in user behind the socket.

Messages (server to client): ``{"t": "snapshot", "challenges": [...], "games": [...], "seek": ...,
"my_games": [...], "sanction": ..., "playing": ...}`` (``sanction``: the user's suspension or ban in force, or
null; ``playing``: the id of the live game the user is playing now, or null), then
``challenge_created`` (``challenge``), ``challenge_removed`` (``id``, ``reason``), ``game_started``
(``challenge_id`` or ``automatch``, ``game_id``, ``url``, ``game``), ``game_finished`` (``game_id``,
``result``), and ``resync`` when the socket fell too far behind or may have missed news (Redis reconnected, a
publish failed: app/lobby/live/hub_broadcaster.py); the client opens the socket again for a new
snapshot. Open challenges of players
this user blocked or was blocked by are left out (docs/moderation.md). To this user only:
``seeking``, ``seek_cancelled``, ``paired``, and the challenges addressed to this user (``challenge_created``,
``challenge_removed``), and ``my_game`` (one of this user's games changed: app/lobby/my_games.py); the
snapshot's ``incoming`` lists those still open. With ``?feed=mine`` the socket gets only what is addressed to
this user (the snapshot's ``challenges`` and ``games`` are empty): a page that shows only the user's own games
asks for no more. The user is the session cookie's
or the ``Authorization: Bearer`` token's. Clients may send ``{"t": "ping"}`` to get a pong, and ``seek`` /
``seek_cancel`` (answered with ``ack`` or ``error``; a token without the ``play`` scope gets
``insufficient_scope``, app/api/socket_admission.py ``Acting``). See docs/protocol.md §7 and docs/lobby.md.

Every client message counts against ``TENGEN_LOBBY_MESSAGES_PER_SECOND`` (burst 10); beyond it
``{"t": "error", "id", "code": "rate_limited"}``, and the ``FLOOD_LIMIT``-th refusal within ``FLOOD_WINDOW``
seconds closes the socket (4029), exactly as on a game socket. Seek actions
have a tighter budget of their own (``SEEK_BURST`` per ``SEEK_WINDOW`` seconds). Lobby sockets count towards
the per-address socket cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import deque
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.deps import sessionmaker_of, socket_limits
from app.api.socket_admission import Acting, serve_admitted
from app.automatch.messages import seek_view
from app.automatch.preferences import SeekPreferences
from app.automatch.service import Automatch
from app.errors import ServiceError
from app.games import visibility
from app.lobby import my_games
from app.lobby.challenge_views import people_of
from app.lobby.views import challenge_view, game_summary, player_ids
from app.moderation.chat_filter import ChatFilter
from app.moderation.standing import sanction_view
from app.protocol import (
    RATE_LIMITED_MESSAGE,
    LobbyError,
    LobbyPing,
    LobbyPong,
    LobbySnapshot,
    ProtocolError,
    Seek,
    SeekAck,
    SeekCancel,
    SeekCancelAck,
    client_id_of,
    parse_lobby_message,
)
from app.ratings.lookup import display_ranks
from app.store.db import is_unavailable
from app.store.models import User
from app.store.repositories import challenges, games
from app.transport.connection import CLOSE_FLOODING, FLOOD_REASON, Refusals, TokenBucket
from app.transport.sockets import Ticket

router = APIRouter()
log = logging.getLogger(__name__)

UNAVAILABLE_MESSAGE = "The server cannot reach its database right now; try again in a moment."

SEEK_BURST = 6  # seek actions (seek, seek_cancel) one socket may send ...
SEEK_WINDOW = 10.0  # ... within this many seconds
MY_GAMES = 500  # a player's unfinished games the snapshot lists (the newest first)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    # Lobby sockets count towards the address (a bot's, with its token, towards its own cap instead); every
    # signed-in one is held under its user too, so that logging out closes it. Open challenges of those this
    # user blocked or was blocked by are left out, now and as they come.
    async def serve(user: User | None, ticket: Ticket, blocks: ChatFilter | None) -> None:
        await _feed(websocket, user, ticket, blocks)

    await serve_admitted(websocket, serve, lambda user: socket_limits(websocket, user) or {"count_user": False})


async def _feed(websocket: WebSocket, user: User | None, ticket: Ticket, blocks: ChatFilter | None) -> None:
    await websocket.accept()
    broadcaster = websocket.app.state.lobby
    spectators = websocket.app.state.spectator_count
    automatch: Automatch = websocket.app.state.automatch
    conn_id = uuid.uuid4().hex
    sender = _Sender(websocket)
    ticket.say = sender.send_text  # a sanction's or a revoked token's last words, between the feed's messages
    public = websocket.query_params.get("feed") != "mine"  # else only what is this user's own
    async with broadcaster.subscribe(user.id if user else None, public) as subscription:
        async with sessionmaker_of(websocket)() as session:
            hiding = blocks.hidden if blocks else frozenset()
            open_challenges = await challenges.list_open(session, hiding=hiding) if public else []
            incoming = [] if user is None else await challenges.list_open_to(session, user.id)
            people = await people_of(session, open_challenges + incoming)
            live = await games.list_live(session) if public else []
            mine = [] if user is None else await games.list_for_user(session, user.id, finished=False, limit=MY_GAMES)
            mine = [row for row in mine if row.black.id != row.white.id]  # practice boards aside
            ranks = await display_ranks(session, player_ids(live) | player_ids(mine))
            sanction = None if user is None else await sanction_view(session, user)
            playing = None if user is None else await games.live_game_of(session, user.id)
        # The user's seek, placed here or on another instance; none while they play a live game (a seek of theirs
        # has become that game, or ends as it started: app/automatch/service.py).
        seeker = await automatch.live_seek(user.id) if user is not None and playing is None else None
        await sender.send(
            LobbySnapshot(
                challenges=[challenge_view(row, people) for row in open_challenges],
                incoming=[challenge_view(row, people) for row in incoming],
                games=[game_summary(row, spectators, ranks) for row in live],
                seek=seek_view(seeker) if seeker else None,
                my_games=sorted((my_games.from_row(row, ranks) for row in mine), key=my_games.sort_key(user.id if user else 0)),
                sanction=sanction,
                playing=playing,
            ).wire()
        )
        if user is not None:
            automatch.socket_opened(user.id, conn_id, bot=user.is_bot and user.owner_id is None)
        reader = asyncio.create_task(_read(websocket, sender, automatch, user, Acting.of(websocket, ticket)))
        try:
            while True:
                getter = asyncio.create_task(subscription.get())
                done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    getter.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await getter
                    return
                message = getter.result()
                if blocks is not None and visibility.hides_challenge(message, blocks.hidden):
                    continue
                await sender.send(message)
        except WebSocketDisconnect:
            return
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect):
                await reader
            if user is not None:
                await automatch.socket_closed(user.id, conn_id)


class _Sender:
    """One writer at a time on the socket (the feed and the answers to the client's own messages)."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        async with self.lock:
            await self.websocket.send_json(message)

    async def send_text(self, text: str) -> None:
        async with self.lock:
            await self.websocket.send_text(text)


async def _read(websocket: WebSocket, sender: _Sender, automatch: Automatch, user: User | None, acting: Acting) -> None:
    """Answer the client's messages until it goes away."""
    recent: deque[float] = deque()
    bucket = TokenBucket(rate=websocket.app.state.settings.lobby_messages_per_second, burst=10.0)
    refused = Refusals()
    try:
        while True:
            raw = await websocket.receive_text()
            if not bucket.take():
                await sender.send(LobbyError(id=client_id_of(raw), code="rate_limited", message=RATE_LIMITED_MESSAGE).wire())
                if refused.count():
                    await websocket.close(CLOSE_FLOODING, FLOOD_REASON)
                    return
                continue
            try:
                message = parse_lobby_message(raw)
            except ProtocolError as exc:
                await sender.send(LobbyError(id=exc.client_id, code=exc.code, message=exc.message).wire())
                continue
            if isinstance(message, LobbyPing):
                await sender.send(LobbyPong(id=message.id).wire())
                continue
            denied = await acting.refusal(message.t)  # the credential's scope and validity, at every action
            if denied is not None:
                await sender.send(LobbyError(id=message.id, code=denied.code, message=denied.message).wire())
                continue
            try:
                if user is None:
                    raise ServiceError("not_authenticated", "No valid session: load the site over HTTP first.", 401)
                now = time.monotonic()
                while recent and now - recent[0] > SEEK_WINDOW:
                    recent.popleft()
                if len(recent) >= SEEK_BURST:
                    raise ServiceError("rate_limited", "Too many seek messages; wait a moment.", 429)
                recent.append(now)
                if isinstance(message, Seek):
                    prefs = SeekPreferences.model_validate(message.model_dump(exclude={"t", "id"}))
                    seeker = await automatch.seek(user, prefs)
                    await sender.send(SeekAck(id=message.id, seek_id=seeker.seek_id).wire())
                elif isinstance(message, SeekCancel):
                    cancelled = await automatch.cancel(user.id)
                    await sender.send(SeekCancelAck(id=message.id, cancelled=cancelled).wire())
            except ServiceError as exc:
                await sender.send(LobbyError(id=message.id, code=exc.code, message=exc.message).wire())
            except Exception as exc:
                if not is_unavailable(exc):
                    raise
                # The database could not be had (no pooled connection in time, none to be made): this client
                # tries again; the socket and every other one go on.
                log.warning("a lobby action found the database unavailable: %s", exc)
                await sender.send(LobbyError(id=message.id, code="unavailable", message=UNAVAILABLE_MESSAGE).wire())
    except (WebSocketDisconnect, RuntimeError):
        return
