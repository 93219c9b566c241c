"""Roles: ``moderator`` acts on reports and players; ``admin`` may do all a moderator does. Roles are granted
and revoked from the command line (``tengen admin grant NAME ROLE``), and every change goes to the audit log."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.service import name_key
from app.errors import NotFound, ServiceError
from app.store.models import User
from app.store.repositories import moderation as repo
from app.store.repositories import users

ROLES = ("moderator", "admin")
MODERATING = frozenset(ROLES)  # the roles that may use the moderator API
CONSOLE = "console"  # the audit log's actor for the command line


async def find_user(session: AsyncSession, name: str) -> User:
    user = await users.get_by_name_key(session, name_key(name.strip()))
    if user is None:
        raise NotFound("user_not_found", f"No player named '{name}'.")
    return user


async def change(session: AsyncSession, name: str, role: str, *, grant: bool) -> bool:
    """Grant or revoke ``role`` for the account ``name`` (committed, with its audit entry); False when
    nothing changed."""
    if role not in ROLES:
        raise ServiceError("unknown_role", f"Roles are {', '.join(ROLES)}.")
    user = await find_user(session, name)
    if user.is_guest or user.is_bot:
        raise ServiceError("account_required", "Only a registered person's account can hold a role.")
    changed = await (repo.add_role if grant else repo.remove_role)(session, user.id, role)
    if changed:
        await repo.audit(
            session,
            actor=CONSOLE,
            action="grant_role" if grant else "revoke_role",
            target_user_id=user.id,
            target=user.name,
            reason=f"role {role}",
            details={"role": role},
        )
    await session.commit()
    return changed


async def may_moderate(session: AsyncSession, user: User) -> bool:
    """Whether ``user`` may use the moderator API: a registered account holding a moderating role. Checked on
    every moderator request; ``/api/me`` says it too, so that the client shows the moderator page only then."""
    return not user.is_guest and bool(await repo.roles_of(session, user.id) & MODERATING)
