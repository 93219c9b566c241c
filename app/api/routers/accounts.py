"""``/api/me``, ``/api/guest`` and ``/api/auth/*``: who am I, start a guest session, register, log in, log out."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import service as accounts
from app.api.deps import (
    DB,
    EntryDB,
    EntryOptionalUser,
    EntryVisiting,
    OptionalUser,
    clear_session_cookie,
    set_session_cookie,
)
from app.api.login_limits import check_password_limits
from app.bots.declaration import accepts_of
from app.lobby.views import user_view
from app.moderation.roles import may_moderate
from app.moderation.standing import sanction_view
from app.ratings.lookup import display_ranks
from app.store.models import User
from app.transport.sockets import announce_logout

router = APIRouter(prefix="/api", tags=["accounts"])


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=4096)


class Registration(Credentials):
    # How strong the player says they are: new, casual, club, strong, or a rank such as "12k" (see docs/ratings.md).
    strength: str | None = Field(default=None, max_length=8)


# Who a visitor without a session is: nobody stored, so no id and no name (a guest is stored only once it
# does something that needs one: docs/operations.md, "Limits").
ANONYMOUS = {"id": None, "name": None, "guest": True, "bot": False, "rank": None, "sanction": None, "moderator": False}


@router.get(
    "/me",
    summary="The current user (with the suspension or ban in force, if any); without a session, an anonymous visitor "
    "(id null), stored nowhere",
)
async def me(user: OptionalUser, db: DB) -> dict:
    if user is None:
        return dict(ANONYMOUS)
    return await _me_view(db, user)


@router.post("/guest", summary="Start a guest session (a guest is stored only if the visitor has no session)")
async def guest(visitor: EntryVisiting, db: EntryDB) -> dict:
    return await _me_view(db, await visitor.user())


async def _me_view(db: DB, user: User) -> dict:
    """The user as they see themselves: with the sanction in force, and whether they may moderate (the client
    shows the moderator page only then and asks the moderator API nothing otherwise, which checks the role on
    every request)."""
    view = user_view(user, await display_ranks(db, [user.id]))
    # A suspension or ban in force, for a player whose sockets' account_sanctioned they never read
    # (docs/moderation.md): the client tells them again, in their language.
    view["sanction"] = await sanction_view(db, user)
    view["moderator"] = await may_moderate(db, user)
    if user.is_bot:  # a bot reads what it accepts from here
        view["accepts"] = accepts_of(user.bot_accepts).model_dump()
        view["owner_id"] = user.owner_id
    return view


@router.post("/auth/register", status_code=201, summary="Create an account (a guest keeps its games)")
async def register(body: Registration, request: Request, response: Response, db: EntryDB, user: EntryOptionalUser) -> dict:
    await check_password_limits(request, None)
    registered = await accounts.register(db, request.app.state.passwords, user, body.username, body.password, body.strength)
    set_session_cookie(request, response, registered)
    return await _me_view(db, registered)


@router.post("/auth/login", summary="Log in")
async def login(body: Credentials, request: Request, response: Response, db: EntryDB) -> dict:
    await check_password_limits(request, accounts.name_key(body.username.strip()))
    found = await accounts.find_login(db, body.username)
    user = await accounts.login(db, request.app.state.passwords, found, body.password)
    set_session_cookie(request, response, user)
    return await _me_view(db, user)


@router.post("/auth/logout", summary="Log out (ends every session of this account, its open sockets too)")
async def logout(request: Request, response: Response, db: DB, user: OptionalUser) -> dict:
    if user is not None:
        await accounts.logout(db, user)
        await announce_logout(request.app.state.hub, user.id)
    clear_session_cookie(response)
    return {"ok": True}
