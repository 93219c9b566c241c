"""An account's email address (set, verified by link, removed), what it is mailed, one-click unsubscribe, and
password reset by a link sent to the verified address. The API calls these; they commit.

Every message a stranger can cause is capped here, counted in the outbox itself so the caps hold across
instances: verification and reset messages per address per hour (``TENGEN_MAIL_PER_ADDRESS_HOUR``) and
messages per account per hour (``TENGEN_MAIL_PER_USER_HOUR``). The API adds a cap per client address.
"""

from __future__ import annotations

import secrets

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts import passwords
from app.accounts.hashing import PasswordPool
from app.errors import Conflict, Forbidden, RateLimited, ServiceError
from app.mail import messages
from app.mail.addresses import address_key, check_address
from app.mail.tokens import MailTokens
from app.settings import Settings
from app.store.models import User
from app.store.repositories import mail as mail_repo
from app.store.repositories import users

MODES = ("digest", "immediate", "off")
HOUR = 3600.0
LINK_KINDS = ("verify", "reset")


def email_view(user: User) -> dict:
    return {"email": user.email, "pending": user.email_pending, "mode": user.mail_mode or "digest"}


def require_account(user: User) -> None:
    if user.is_guest or user.is_bot:
        raise Forbidden("account_required", "Register to give an email address.")


def require_mail(settings: Settings) -> None:
    if not settings.mail_enabled:
        raise ServiceError("mail_disabled", "This server sends no email.", 503)


async def _within_caps(session: AsyncSession, settings: Settings, to_key: str, user_id: int, now: float) -> bool:
    since = now - HOUR
    if await mail_repo.count_to_address(session, to_key, since, LINK_KINDS) >= settings.mail_per_address_hour:
        return False
    return await mail_repo.count_to_user(session, user_id, since) < settings.mail_per_user_hour


async def request_address(
    session: AsyncSession,
    settings: Settings,
    tokens: MailTokens,
    user: User,
    address: str,
    now: float,
    language: str | None = None,
) -> User:
    """Remember ``address`` as waiting and mail it a verification link; the verified address (if any) stays
    until the new one is confirmed. ``language`` (the site's, as the player reads it) is what they are mailed in."""
    require_account(user)
    require_mail(settings)
    address = check_address(address)
    key = address_key(address)
    if not await _within_caps(session, settings, key, user.id, now):
        raise RateLimited("Too many messages to this address; try again in an hour.", int(HOUR), code="mail_rate_limited")
    user.email_pending = address
    if language is not None:
        user.mail_language = language
    token = tokens.make("verify", {"u": user.id, "e": address}, now + settings.mail_verify_hours * HOUR)
    text = messages.verification(
        user.name, messages.Links(settings.mail_site_url).verify(token), settings.mail_verify_hours, user.mail_language
    )
    await mail_repo.queue(
        session,
        key=f"verify:{user.id}:{secrets.token_hex(8)}",
        user_id=user.id,
        to_addr=address,
        to_key=key,
        kind="verify",
        subject=text.subject,
        body=text.body,
        now=now,
    )
    await session.commit()
    return user


async def verify(session: AsyncSession, tokens: MailTokens, token: str, now: float) -> User:
    """Confirm the address a verification link was sent to, if it is still the one waiting."""
    claims = tokens.read("verify", token, now)
    user = await users.get(session, int(claims.get("u", 0)))
    address = str(claims.get("e", ""))
    if user is None:
        raise ServiceError("invalid_token", "This link is not valid.")
    if user.email_key == address_key(address) and user.email_pending is None:
        return user  # opened twice: already done
    if user.email_pending != address:
        raise ServiceError("invalid_token", "This link is for an address that is no longer waiting; ask again.")
    user.email, user.email_key, user.email_pending = address, address_key(address), None
    try:
        await session.commit()
    except IntegrityError as exc:
        await session.rollback()
        raise Conflict("email_taken", "Another account has confirmed this address.") from exc
    return user


async def remove(session: AsyncSession, user: User) -> User:
    require_account(user)
    user.email = user.email_key = user.email_pending = None
    await session.commit()
    return user


async def set_mode(session: AsyncSession, user: User, mode: str, language: str | None = None) -> User:
    require_account(user)
    if mode not in MODES:
        raise ServiceError("invalid_mail_mode", "Mail mode is digest, immediate or off.")
    user.mail_mode = mode
    if language is not None:
        user.mail_language = language
    await session.commit()
    return user


def unsubscribe_token(tokens: MailTokens, user: User) -> str:
    return tokens.make("unsubscribe", {"u": user.id, "e": user.email_key}, None)


async def unsubscribe(session: AsyncSession, tokens: MailTokens, token: str, now: float) -> None:
    """Stop every notice to the address the link was sent to (a link for an address the account no longer has
    changes nothing, and says nothing about the account)."""
    claims = tokens.read("unsubscribe", token, now)
    user = await users.get(session, int(claims.get("u", 0)))
    if user is not None and user.email_key is not None and user.email_key == claims.get("e"):
        user.mail_mode = "off"
        await session.commit()


async def request_reset(
    session: AsyncSession, settings: Settings, tokens: MailTokens, address: str, now: float, language: str | None = None
) -> None:
    """Mail a reset link to the account whose verified address this is. The caller answers the same whether
    or not there is one (and whether or not a cap held the message back), so nothing is learnt about accounts."""
    require_mail(settings)
    try:
        key = address_key(check_address(address))
    except ServiceError:
        return
    user = await users.get_by_email_key(session, key)
    if user is None or user.email is None or not await _within_caps(session, settings, key, user.id, now):
        return
    token = tokens.make("reset", {"u": user.id, "s": user.session_version}, now + settings.mail_reset_minutes * 60)
    text = messages.password_reset(
        user.name,
        messages.Links(settings.mail_site_url).reset(token),
        settings.mail_reset_minutes,
        user.mail_language or language,
    )
    await mail_repo.queue(
        session,
        key=f"reset:{user.id}:{secrets.token_hex(8)}",
        user_id=user.id,
        to_addr=user.email,
        to_key=key,
        kind="reset",
        subject=text.subject,
        body=text.body,
        now=now,
    )
    await session.commit()


async def reset_password(
    session: AsyncSession, pool: PasswordPool, tokens: MailTokens, token: str, password: str, now: float
) -> User:
    """Set a new password from a reset link. The session version moves on, so every other session and the
    link itself stop working; the caller gives the user a new session."""
    claims = tokens.read("reset", token, now)
    user = await users.get(session, int(claims.get("u", 0)))
    if user is None or user.session_version != claims.get("s") or user.email is None:
        raise ServiceError("invalid_token", "This link was used or replaced; ask for a new one.")
    passwords.check_strength(password, user.name)
    user.password_hash = await pool.hash(password)
    user.session_version += 1
    await session.commit()
    return user
