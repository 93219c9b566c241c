"""Request dependencies: database sessions, the current user (HTTP and WebSocket), the lobby broadcaster."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, Request, Response, WebSocket
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.requests import HTTPConnection

from app.accounts import service as accounts
from app.accounts import tokens
from app.accounts.cookies import COOKIE_NAME, MAX_AGE, SessionSigner
from app.api.login_limits import client_address
from app.bots.declaration import accepts_of
from app.errors import RateLimited, ServiceError
from app.limits.rules import Limiter, Rule
from app.lobby.live.broadcaster import LobbyBroadcaster
from app.lobby.views import SpectatorCount
from app.settings import Settings
from app.store.models import User
from app.transport.credentials import ANONYMOUS, Credential


def sessionmaker_of(connection: HTTPConnection) -> async_sessionmaker[AsyncSession]:
    return connection.app.state.sessionmaker


async def db_session(request: Request) -> AsyncIterator[AsyncSession]:
    async with sessionmaker_of(request)() as session:
        yield session


DB = Annotated[AsyncSession, Depends(db_session)]


async def entry_db_session(request: Request) -> AsyncIterator[AsyncSession]:
    """A session on the entry pool (``TENGEN_DB_ENTRY_POOL_SIZE`` connections, no overflow): what strangers at
    the door use (a guest start, a log-in, a registration). A flood of them waits for those few connections, and
    past the pool's timeout is answered 503, while the players' requests keep the main pool (and their moves
    the driver's connections, ``app.store.driver``)."""
    async with request.app.state.entry_sessionmaker() as session:
        yield session


EntryDB = Annotated[AsyncSession, Depends(entry_db_session)]


def settings_of(connection: HTTPConnection) -> Settings:
    return connection.app.state.settings


def signer_of(connection: HTTPConnection) -> SessionSigner:
    return connection.app.state.signer


def lobby(request: Request) -> LobbyBroadcaster:
    return request.app.state.lobby


def spectator_count(request: Request) -> SpectatorCount:
    return request.app.state.spectator_count


Lobby = Annotated[LobbyBroadcaster, Depends(lobby)]
Spectators = Annotated[SpectatorCount, Depends(spectator_count)]


def set_session_cookie(request: Request, response: Response, user: User) -> None:
    settings = settings_of(request)
    secure = settings.cookie_secure if settings.cookie_secure is not None else settings.env == "production"
    response.set_cookie(
        COOKIE_NAME,
        signer_of(request).sign(accounts.claim_for(user)),
        max_age=MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )


def clear_session_cookie(response: Response) -> None:
    response.delete_cookie(COOKIE_NAME, path="/", httponly=True, samesite="lax")


_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


async def _token_user(connection: HTTPConnection, session: AsyncSession, *, write: bool) -> User | None:
    """The user an ``Authorization: Bearer`` token speaks for (None: no such header). A bad token, or one
    without the scope the request needs, is refused: it never falls back to the cookie or a new guest."""
    token = tokens.bearer(connection.headers.get("authorization"))
    if token is None:
        return None
    auth = await tokens.authenticate(session, token)
    if auth is None:
        raise ServiceError("invalid_token", "The API token is unknown or revoked.", 401)
    if write and not auth.allows("play"):
        raise ServiceError("insufficient_scope", "This API token may only read (it lacks the 'play' scope).", 403)
    connection.state.token = auth
    return auth.user


async def optional_user(request: Request, db: DB) -> User | None:
    """The user the bearer token or the session cookie names, or None (no guest is created)."""
    return await _user_of(request, db)


async def entry_optional_user(request: Request, db: EntryDB) -> User | None:
    """``optional_user`` read on the entry pool."""
    return await _user_of(request, db)


async def _user_of(request: Request, db: AsyncSession) -> User | None:
    user = await _token_user(request, db, write=request.method not in _READ_METHODS)
    if user is not None:
        return user
    return await accounts.user_for_claim(db, signer_of(request).read(request.cookies.get(COOKIE_NAME)))


async def session_user(request: Request, db: DB) -> User:
    """The signed-in user of a browser session: API tokens are refused (managing tokens needs the account)."""
    if tokens.bearer(request.headers.get("authorization")) is not None:
        raise ServiceError("session_required", "Sign in on the site for this; API tokens cannot do it.", 403)
    user = await accounts.user_for_claim(db, signer_of(request).read(request.cookies.get(COOKIE_NAME)))
    if user is None or user.is_guest:
        raise ServiceError("account_required", "Sign in to your account first.", 403)
    return user


async def required_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    """The session's (or bearer token's) user; without one, 401 ``not_authenticated`` (no guest is made)."""
    if user is None:
        raise ServiceError("not_authenticated", "No valid session: load the site first.", 401)
    return user


class Visitor:
    """The session's user, or a guest made only when the request does something that needs one.

    An endpoint calls ``await visitor.user()`` once its input is known to be valid, before anything else it
    writes, so a request that fails validation or only reads never stores a guest. An endpoint that commits
    its own work asks with ``commit=False``: the new guest is committed with that work, so a request the
    service refuses stores no guest either (nor gets a cookie: an error answer drops it).
    """

    def __init__(self, request: Request, response: Response, db: AsyncSession, user: User | None) -> None:
        self._request, self._response, self._db, self._user = request, response, db, user

    @property
    def known(self) -> User | None:
        return self._user

    async def user(self, *, commit: bool = True) -> User:
        if self._user is None:
            await _check_guest_limit(self._request)
            self._user = await accounts.create_guest(self._db, commit=commit)
            set_session_cookie(self._request, self._response, self._user)
        return self._user


GUEST_WINDOW = 3600  # seconds: TENGEN_GUESTS_PER_ADDRESS new guests per client address in this window


async def _check_guest_limit(request: Request) -> None:
    """New guests per client address, across instances: a stranger cannot fill the users table."""
    limiter: Limiter = request.app.state.limiter
    rule = Rule("guests-address", settings_of(request).guests_per_address, GUEST_WINDOW)
    if not await limiter.allow(rule, client_address(request)):
        raise RateLimited("Too many new guests from this address; sign in, or try again later.", GUEST_WINDOW)


async def visitor(request: Request, response: Response, db: DB) -> Visitor:
    return Visitor(request, response, db, await optional_user(request, db))


async def entry_visitor(request: Request, response: Response, db: EntryDB) -> Visitor:
    """``visitor`` on the entry pool: ``POST /api/guest``."""
    return Visitor(request, response, db, await _user_of(request, db))


OptionalUser = Annotated[User | None, Depends(optional_user)]
EntryOptionalUser = Annotated[User | None, Depends(entry_optional_user)]
EntryVisiting = Annotated[Visitor, Depends(entry_visitor)]
RequiredUser = Annotated[User, Depends(required_user)]
Visiting = Annotated[Visitor, Depends(visitor)]
SessionUser = Annotated[User, Depends(session_user)]


async def optional_user_ws(websocket: WebSocket) -> User | None:
    """The user named by the bearer token or the session cookie of a WebSocket handshake, or None.

    Raises ``ServiceError`` (``invalid_token``) for a bad token. A token without the ``play`` scope
    identifies its user; what its socket may do is asked at each message (``credential_of``)."""
    async with sessionmaker_of(websocket)() as session:
        user = await _token_user(websocket, session, write=False)
        if user is not None:
            return user
        claim = signer_of(websocket).read(websocket.cookies.get(COOKIE_NAME))
        if claim is None:
            return None
        return await accounts.user_for_claim(session, claim)


BOT_SPARE_SOCKETS = 5  # a bot's sockets beyond its game limit: its lobby socket, reconnects overlapping


def socket_limits(connection: HTTPConnection, user: User | None) -> dict[str, Any]:
    """The socket caps of a bot connecting with its token: its own game limit (plus a few), not the address's.
    Everyone else: empty (the registry's caps per user and per address)."""
    if user is None or not user.is_bot or getattr(connection.state, "token", None) is None:
        return {}
    return {"user_cap": accepts_of(user.bot_accepts).max_games + BOT_SPARE_SOCKETS, "count_address": False}


def credential_of(connection: HTTPConnection, user: User | None) -> Credential:
    """The credential a WebSocket handshake presented, after ``optional_user_ws``: its API token's id and
    scopes, or its session cookie's user and session version (the one ``user_for_claim`` matched), or nobody's.
    The socket holds it while it is open (app/transport/credentials.py)."""
    if user is None:
        return ANONYMOUS
    auth: tokens.TokenAuth | None = getattr(connection.state, "token", None)
    if auth is not None:
        return Credential(user.id, token_id=auth.token_id, scopes=auth.scopes)
    return Credential(user.id, session_version=user.session_version)


async def current_user_ws(websocket: WebSocket) -> User:
    """The WebSocket's user from the session cookie. Raises ``ServiceError`` (code ``not_authenticated``) when
    there is no valid session: WebSockets never create guests, a page visit over HTTP does that first."""
    user = await optional_user_ws(websocket)
    if user is None:
        raise ServiceError("not_authenticated", "No valid session: load the site over HTTP first.", 401)
    return user
