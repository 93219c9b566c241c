"""Request dependencies: database sessions, the current user (HTTP and WebSocket), the lobby broadcaster."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request, Response, WebSocket
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.requests import HTTPConnection

from app.accounts import service as accounts
from app.accounts.cookies import COOKIE_NAME, MAX_AGE, SessionSigner
from app.errors import ServiceError
from app.live.lobby import LobbyBroadcaster
from app.lobby.views import SpectatorCount
from app.settings import Settings
from app.store.models import User


def sessionmaker_of(connection: HTTPConnection) -> async_sessionmaker[AsyncSession]:
    return connection.app.state.sessionmaker


async def db_session(request: Request) -> AsyncIterator[AsyncSession]:
    async with sessionmaker_of(request)() as session:
        yield session


DB = Annotated[AsyncSession, Depends(db_session)]


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


async def optional_user(request: Request, db: DB) -> User | None:
    """The user the session cookie names, or None (no guest is created)."""
    return await accounts.user_for_claim(db, signer_of(request).read(request.cookies.get(COOKIE_NAME)))


async def current_user(request: Request, response: Response, db: DB) -> User:
    """The session's user; a first visit becomes a new guest and gets its cookie."""
    user = await optional_user(request, db)
    if user is None:
        user = await accounts.create_guest(db)
        set_session_cookie(request, response, user)
    return user


CurrentUser = Annotated[User, Depends(current_user)]
OptionalUser = Annotated[User | None, Depends(optional_user)]


async def optional_user_ws(websocket: WebSocket) -> User | None:
    """The user named by the session cookie sent with a WebSocket handshake, or None."""
    claim = signer_of(websocket).read(websocket.cookies.get(COOKIE_NAME))
    if claim is None:
        return None
    async with sessionmaker_of(websocket)() as session:
        return await accounts.user_for_claim(session, claim)


async def current_user_ws(websocket: WebSocket) -> User:
    """The WebSocket's user from the session cookie. Raises ``ServiceError`` (code ``not_authenticated``) when
    there is no valid session: WebSockets never create guests, a page visit over HTTP does that first."""
    user = await optional_user_ws(websocket)
    if user is None:
        raise ServiceError("not_authenticated", "No valid session: load the site over HTTP first.", 401)
    return user
