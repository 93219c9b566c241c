"""Email: the account's address and what it is mailed (``/api/me/email``), the links mailed to it (verify,
unsubscribe) and password reset (``/api/auth/reset-request``, ``/api/auth/reset``)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import DB, RequiredUser, set_session_cookie
from app.api.login_limits import check_password_limits, client_address
from app.errors import RateLimited
from app.limits.rules import Limiter, Rule
from app.lobby.views import user_view
from app.mail import service as mail
from app.mail.addresses import MAX_LENGTH, address_key
from app.ratings.lookup import display_ranks
from app.settings import Settings
from app.transport.sockets import announce_logout

router = APIRouter(prefix="/api", tags=["email"])
HOUR = 3600


Language = Literal["en", "zh", "vi", "es", "ja", "ko"]  # what the messages are written in (app/mail/texts.py)


class Address(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(min_length=3, max_length=MAX_LENGTH)
    language: Language | None = None


class Preferences(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["digest", "immediate", "off"]
    language: Language | None = None


class Token(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=1000)


class NewPassword(Token):
    password: str = Field(min_length=1, max_length=4096)


def _now(request: Request) -> float:
    return float(request.app.state.clock())


async def _check_requests(request: Request, address: str) -> None:
    """Verification and reset requests: per client address, and per email address (whoever asks)."""
    settings: Settings = request.app.state.settings
    limiter: Limiter = request.app.state.limiter
    per_ip = Rule("mail-ip", settings.mail_requests_per_ip_hour, HOUR)
    per_address = Rule("mail-address", settings.mail_per_address_hour, HOUR)
    if not await limiter.allow(per_ip, client_address(request)) or not await limiter.allow(per_address, address_key(address)):
        raise RateLimited("Too many email requests; try again in an hour.", HOUR, code="mail_rate_limited")


@router.get("/me/email", summary="The account's email address, the one waiting for verification, and the mail mode")
async def get_email(user: RequiredUser) -> dict:
    mail.require_account(user)
    return mail.email_view(user)


@router.put("/me/email", status_code=202, summary="Give an address: a verification link is mailed to it")
async def put_email(body: Address, request: Request, db: DB, user: RequiredUser) -> dict:
    mail.require_account(user)
    mail.require_mail(request.app.state.settings)
    await _check_requests(request, body.email)
    await mail.request_address(
        db, request.app.state.settings, request.app.state.mail_tokens, user, body.email, _now(request), body.language
    )
    return mail.email_view(user)


@router.delete("/me/email", summary="Remove the address (nothing more is mailed)")
async def delete_email(db: DB, user: RequiredUser) -> dict:
    return mail.email_view(await mail.remove(db, user))


@router.put("/me/email/preferences", summary="What is mailed: a daily digest, each notice at once, or nothing")
async def put_preferences(body: Preferences, db: DB, user: RequiredUser) -> dict:
    return mail.email_view(await mail.set_mode(db, user, body.mode, body.language))


@router.post("/email/verify", summary="Confirm an address with the token of its verification link")
async def verify(body: Token, request: Request, db: DB) -> dict:
    user = await mail.verify(db, request.app.state.mail_tokens, body.token, _now(request))
    return mail.email_view(user)


@router.post("/email/unsubscribe", summary="One-click unsubscribe (RFC 8058): no more notices to that address")
async def unsubscribe(token: str, request: Request, db: DB) -> dict:
    await mail.unsubscribe(db, request.app.state.mail_tokens, token[:1000], _now(request))
    return {"ok": True}


@router.post(
    "/auth/reset-request",
    status_code=202,
    summary="Mail a password-reset link to this verified address (the answer is the same for any address)",
)
async def reset_request(body: Address, request: Request, db: DB) -> dict:
    mail.require_mail(request.app.state.settings)
    await _check_requests(request, body.email)
    await mail.request_reset(
        db, request.app.state.settings, request.app.state.mail_tokens, body.email, _now(request), body.language
    )
    return {"ok": True}


@router.post("/auth/reset", summary="Choose a new password with a reset link's token; every other session ends")
async def reset(body: NewPassword, request: Request, response: Response, db: DB) -> dict:
    await check_password_limits(request, None)
    user = await mail.reset_password(
        db, request.app.state.passwords, request.app.state.mail_tokens, body.token, body.password, _now(request)
    )
    await announce_logout(request.app.state.hub, user.id)
    set_session_cookie(request, response, user)
    return user_view(user, await display_ranks(db, [user.id]))
