"""Whether the credentials open sockets were opened with still hold, read from the database for many sockets at
once: what each instance's ``CredentialSweep`` (app/transport/credential_sweep.py) asks to find the ends the hub's
news did not bring.

A socket ends when its API token was revoked (``invalid_token``, close 4401), when its session cookie no longer
names its user's session (a log-out, a password reset, the user deleted: close 4401), or when its user is
suspended or banned under a sanction that was not yet in force when it opened (``account_sanctioned``, then
close 4403).
"""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.endings import LOGGED_OUT, TOKEN_REVOKED
from app.moderation.notices import sanction_ending
from app.moderation.standing import Sanctioned, sanction_key, sanction_notices
from app.store.repositories import moderation as moderation_repo
from app.store.repositories import tokens as tokens_repo
from app.store.repositories import users as users_repo
from app.store.types import utcnow
from app.transport.credentials import Ending
from app.transport.sockets import Ticket

CHUNK = 500  # ids per query: within every database's limit of bound parameters


def _chunks(ids: set[int]) -> Iterator[set[int]]:
    ordered = sorted(ids)
    for start in range(0, len(ordered), CHUNK):
        yield set(ordered[start : start + CHUNK])


async def endings(sessionmaker: async_sessionmaker[AsyncSession], tickets: list[Ticket]) -> list[tuple[Ticket, Ending]]:
    """The sockets among ``tickets`` whose credential no longer holds, each with why."""
    token_ids = {ticket.credential.token_id for ticket in tickets if ticket.credential.token_id is not None}
    user_ids = {ticket.credential.user_id for ticket in tickets if ticket.credential.user_id is not None}
    active: set[int] = set()
    versions: dict[int, int] = {}
    standings: dict[int, Sanctioned] = {}
    now = utcnow()
    async with sessionmaker() as session:
        for chunk in _chunks(token_ids):
            active |= await tokens_repo.active_ids(session, chunk)
        for chunk in _chunks(user_ids):
            versions.update(await users_repo.session_versions(session, chunk))
            standings.update(await moderation_repo.standings(session, chunk))
        keys = {user_id: sanction_key(standing, now) for user_id, standing in standings.items()}
        sanctioned = {
            ticket.credential.user_id
            for ticket in tickets
            if ticket.credential.user_id is not None and keys.get(ticket.credential.user_id) not in (None, ticket.sanction)
        }
        notices = await sanction_notices(session, {user_id: standings[user_id] for user_id in sanctioned}, now)
    out: list[tuple[Ticket, Ending]] = []
    for ticket in tickets:
        credential = ticket.credential
        if credential.user_id is None:
            continue
        if credential.is_token:
            if credential.token_id not in active:
                out.append((ticket, TOKEN_REVOKED))
                continue
        elif versions.get(credential.user_id) != credential.session_version:
            out.append((ticket, LOGGED_OUT))
            continue
        notice = notices.get(credential.user_id)
        if notice is not None and keys.get(credential.user_id) != ticket.sanction:
            out.append((ticket, sanction_ending(notice)))
    return out
