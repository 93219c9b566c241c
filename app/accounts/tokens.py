"""API tokens: how programs (bots, scripts) authenticate, with ``Authorization: Bearer <token>``.

A token is ``tgn_`` followed by 32 random bytes in URL-safe base64. Only its SHA-256 digest is stored (the
token has 256 bits of entropy, so a fast hash is as safe as a slow one and costs nothing per request); the
token itself is returned once, when it is made. Scopes:

- ``read``: GET requests, and watching games, reviews and the lobby over WebSockets (pings only).
- ``play``: everything a player does: challenges (create, accept, decline), and every message that acts on a
  socket (a seek on the lobby's, play, chat and offers on a game's, leading, comments and chat on a review's),
  asked at each message from the credential the socket holds (app/api/socket_admission.py ``Acting``).

Revoking a token ends it everywhere at once: requests with it get 401 ``invalid_token``, and the sockets it
opened, on every instance, read an ``invalid_token`` error and close with 4401 (app/transport/sockets.py).

Tokens are managed only from a signed-in browser session (a token cannot make or revoke tokens). A user
manages their own tokens and those of the bot accounts they own.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import NotFound, ServiceError
from app.store.models import ApiToken, User
from app.store.repositories import tokens as repo
from app.store.repositories import users
from app.store.types import utcnow

PREFIX = "tgn_"
SCOPES = ("read", "play")
MAX_TOKENS_PER_USER = 20
TOUCH_EVERY = timedelta(minutes=1)  # last_used_at is written at most this often per token


@dataclass(frozen=True)
class TokenAuth:
    """Who a request's bearer token speaks for, and what it may do."""

    user: User
    token_id: int
    scopes: frozenset[str]

    def allows(self, scope: str) -> bool:
        return scope in self.scopes


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_scopes(scopes: list[str]) -> list[str]:
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown or not scopes:
        raise ServiceError("invalid_scopes", f"Scopes must be a non-empty subset of: {', '.join(SCOPES)}.")
    return sorted(set(scopes))


async def owned_user(session: AsyncSession, owner: User, user_id: int | None) -> User:
    """``owner`` itself (``user_id`` None or its own id), or a bot account ``owner`` owns."""
    if user_id is None or user_id == owner.id:
        return owner
    user = await users.get(session, user_id)
    if user is None or user.owner_id != owner.id:
        raise NotFound("user_not_found", "No such bot of yours.")
    return user


async def create(session: AsyncSession, owner: User, name: str, scopes: list[str], user_id: int | None) -> tuple[ApiToken, str]:
    """Make a token for ``owner`` or one of its bots; returns the row and the token (shown this once)."""
    if owner.is_guest:
        raise ServiceError("account_required", "Register to make API tokens.", 403)
    target = await owned_user(session, owner, user_id)
    scopes = check_scopes(scopes)
    if len(await repo.list_for_users(session, [target.id])) >= MAX_TOKENS_PER_USER:
        raise ServiceError("too_many_tokens", f"An account may hold {MAX_TOKENS_PER_USER} tokens; revoke one first.", 409)
    token = PREFIX + new_secret()
    row = await repo.add(session, user_id=target.id, name=name, prefix=token[:10], digest=digest(token), scopes=scopes)
    await session.commit()
    return row, token


async def listed(session: AsyncSession, owner: User) -> list[ApiToken]:
    """The owner's tokens and its bots' tokens."""
    ids = [owner.id, *[bot.id for bot in await users.bots_of(session, owner.id)]]
    return await repo.list_for_users(session, ids)


async def revoke(session: AsyncSession, owner: User, token_id: int) -> int:
    """Revoke one of the owner's tokens (or their bots'); the id of the user it was for. The caller announces
    it, so that the sockets it opened close on every instance (app/transport/sockets.py)."""
    row = await repo.get(session, token_id)
    if row is None or row.revoked_at is not None:
        raise NotFound("token_not_found", "No such token.")
    user_id = row.user_id
    await owned_user(session, owner, user_id)
    await repo.revoke(session, token_id)
    await session.commit()
    return user_id


async def authenticate(session: AsyncSession, token: str) -> TokenAuth | None:
    """The token's user and scopes, or None for an unknown or revoked token."""
    if not token.startswith(PREFIX) or len(token) > 100:
        return None
    found = await repo.active_by_digest(session, digest(token))
    if found is None:
        return None
    row, user = found
    now = utcnow()
    if row.last_used_at is None or now - row.last_used_at > TOUCH_EVERY:
        await repo.touch(session, row.id, now)
        await session.commit()
    return TokenAuth(user=user, token_id=row.id, scopes=frozenset(row.scopes))


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None when the header names no bearer token at
    all (absent, or another scheme). A bare ``Bearer`` (nothing, or only whitespace, after it) gives ``""``: a
    credential was presented and is not there, which ``authenticate`` refuses like any unknown token, never a
    visitor without a session."""
    if not authorization:
        return None
    scheme, _, value = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip()


def view(row: ApiToken) -> dict[str, object]:
    return {
        "id": row.id,
        "user_id": row.user_id,
        "name": row.name,
        "prefix": row.prefix,
        "scopes": row.scopes,
        "created_at": row.created_at.isoformat(),
        "last_used_at": row.last_used_at.isoformat() if row.last_used_at else None,
    }
