"""Guests, registration, log-in and log-out. Callers own the session; these functions commit."""

from __future__ import annotations

import re
import secrets
import unicodedata

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts import passwords
from app.accounts.hashing import PasswordPool
from app.accounts.cookies import SessionClaim
from app.errors import Conflict, ServiceError
from app.ratings import ranks
from app.store.models import User
from app.store.repositories import users

USERNAME_RE = re.compile(r"^[^\W_][\w\-]{1,18}[^\W_]$")  # 3-20 letters/digits (any script), '_' and '-' inside
GUEST_PREFIX = "guest-"


def name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def claim_for(user: User) -> SessionClaim:
    return SessionClaim(user_id=user.id, session_version=user.session_version)


async def user_for_claim(session: AsyncSession, claim: SessionClaim | None) -> User | None:
    if claim is None:
        return None
    user = await users.get(session, claim.user_id)
    if user is None or user.session_version != claim.session_version:
        return None
    return user


async def create_guest(session: AsyncSession, *, commit: bool = True) -> User:
    """A new guest named like ``Guest-7f3a`` (longer suffixes if the short ones keep colliding).

    ``commit=False`` leaves it in the session's transaction: the action that needed a guest commits it with
    what it did, and an action that fails stores no guest. Either way it must be the transaction's first write
    (a name taken meanwhile rolls the transaction back)."""
    for attempt in range(8):
        name = f"Guest-{secrets.token_hex(2 if attempt < 4 else 4)}"
        if await users.name_taken(session, name_key(name)):
            continue
        try:
            user = await users.add_guest(session, name, name_key(name))
            if commit:
                await session.commit()
        except IntegrityError:  # another guest took the name meanwhile
            await session.rollback()
            continue
        return user
    raise ServiceError("guest_unavailable", "Could not pick a guest name; try again.", 503)


def check_username(username: str) -> str:
    username = unicodedata.normalize("NFKC", username.strip())
    if not USERNAME_RE.match(username):
        raise ServiceError(
            "invalid_username",
            "Username must be 3 to 20 letters or digits; '_' and '-' are allowed inside.",
        )
    if name_key(username).startswith(GUEST_PREFIX):
        raise ServiceError("invalid_username", "Usernames starting with 'Guest-' are reserved for guests.")
    return username


def check_strength(strength: str | None) -> str | None:
    if strength is None or not strength.strip():
        return None
    try:
        return ranks.check_strength(strength)
    except ValueError as exc:
        raise ServiceError(
            "invalid_strength", "Strength is new, casual, club, strong, or a rank from 30k to 9d (e.g. 12k, 2d)."
        ) from exc


async def register(
    session: AsyncSession,
    pool: PasswordPool,
    current: User | None,
    username: str,
    password: str,
    strength: str | None = None,
) -> User:
    """Create an account. A guest registering keeps its row (and so its games) but not its session: the
    guest's cookie stops working (a cookie planted on someone before they register is worth nothing after).
    ``strength`` (what the player says of their level) sets the starting rating."""
    if current is not None and not current.is_guest:
        raise Conflict("already_registered", "You are logged in; log out before registering a new account.")
    strength = check_strength(strength)
    username = check_username(username)
    passwords.check_strength(password, username)
    key = name_key(username)
    if await users.name_taken(session, key):
        raise Conflict("username_taken", f"The username '{username}' is taken.")
    await _release(session)
    password_hash = await pool.hash(password)
    try:
        if current is not None:
            await users.register_guest(session, current, username, key, password_hash)
            user = current
        else:
            user = await users.add_registered(session, username, key, password_hash)
        user.strength = strength
        await session.commit()
    except IntegrityError as exc:  # lost a race for the same name
        await session.rollback()
        raise Conflict("username_taken", f"The username '{username}' is taken.") from exc
    return user


async def _release(session: AsyncSession) -> None:
    """End the session's reading transaction before a password hash: the hash may wait its turn for seconds
    (``PasswordPool``), and a flood of log-ins must not hold the database pool's connections meanwhile (the
    objects read stay loaded; the next statement takes a connection again)."""
    await session.commit()


async def find_login(session: AsyncSession, username: str) -> User | None:
    """The account a log-in names (None: no such account), before any password is checked."""
    user = await users.get_by_name_key(session, name_key(username.strip()))
    if user is None or user.is_guest or not user.password_hash:
        return None
    return user


async def login(session: AsyncSession, pool: PasswordPool, user: User | None, password: str) -> User:
    """Check ``password`` for ``user`` (from ``find_login``)."""
    await _release(session)
    if user is None or not user.password_hash:
        await pool.burn_time(password)
        raise ServiceError("invalid_credentials", "Wrong username or password.", 401)
    if not await pool.verify(user.password_hash, password):
        raise ServiceError("invalid_credentials", "Wrong username or password.", 401)
    if passwords.needs_rehash(user.password_hash):
        await users.set_password_hash(session, user.id, await pool.hash(password))
        await session.commit()
    return user


async def logout(session: AsyncSession, user: User) -> None:
    """End every session of the user: cookies signed before now stop working."""
    await users.bump_session_version(session, user.id)
    await session.commit()
