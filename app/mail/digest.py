"""The daily digest: once a day, at ``TENGEN_MAIL_DIGEST_HOUR`` (UTC) by the mail clock, every notice still
waiting from before that moment goes to its player in one message. A move notice the game has gone past
(answered since, or the game is over) is dropped rather than told.

A digest's outbox key is the player and the first notice in it, so two workers building the same digest
queue it once (the second insert conflicts and is rolled back); the notices it holds are marked ``mailed``
in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession

from app.mail import messages
from app.mail.notices import move_is_current
from app.store.repositories import mail as mail_repo
from app.store.repositories import users

DAY = 86400.0
MAX_NOTICES = 200  # in one digest; more wait for the next one


def last_digest_moment(now: float, hour: int) -> float:
    """The latest digest moment at or before ``now``."""
    moment = (now // DAY) * DAY + hour * 3600.0
    return moment if moment <= now else moment - DAY


async def send_digests(
    session: AsyncSession,
    now: float,
    hour: int,
    links: messages.Links,
    unsubscribe: Callable[..., str],
    limit: int = 500,
) -> int:
    """Queue the digests now due; how many. Commits after each player."""
    before = last_digest_moment(now, hour)
    queued = 0
    for user_id in await mail_repo.users_with_waiting(session, before, limit):
        notices = await mail_repo.waiting_for(session, user_id, before, MAX_NOTICES)
        ids = [notice.id for notice in notices]
        user = (await users.mail_recipients(session, {user_id})).get(user_id)
        if user is None or user.email is None or user.email_key is None:  # notices were turned off meanwhile
            await mail_repo.mark_notices(session, ids, "dropped")
            await session.commit()
            continue
        positions = await mail_repo.game_positions(session, {n.ref for n in notices if n.kind == "move"})
        stale = [n.id for n in notices if n.kind == "move" and not move_is_current(n.payload, *positions.get(n.ref, (-1, "")))]
        notices = [n for n in notices if n.id not in stale]
        if not notices:  # every move was answered since: nothing to tell
            await mail_repo.mark_notices(session, stale, "dropped")
            await session.commit()
            continue
        link = unsubscribe(user)
        text = messages.digest(
            user.name, [(n.kind, n.payload) for n in notices], links, links.unsubscribe_page(link), user.mail_language
        )
        inserted = await mail_repo.queue(
            session,
            key=f"digest:{user_id}:{min(n.id for n in notices)}",
            user_id=user_id,
            to_addr=user.email,
            to_key=user.email_key,
            kind="digest",
            subject=text.subject,
            body=text.body,
            now=now,
            unsubscribe_url=links.unsubscribe_post(link),
        )
        if inserted:
            await mail_repo.mark_notices(session, [n.id for n in notices])
            await mail_repo.mark_notices(session, stale, "dropped")
            await session.commit()
            queued += 1
        else:  # another worker queued this digest a moment ago
            await session.rollback()
    return queued
