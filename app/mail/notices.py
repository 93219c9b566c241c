"""Notices from what happened: a move (or pass) in a correspondence game tells the player whose turn it is
(only the game's latest move, while the game goes on), a correspondence game's end tells both players, an open
correspondence challenge addressed to someone tells them.

The mail worker reads the game events committed since its cursor (``server_marks`` ``mail_events``, an event
id) instead of the game rooms calling it: a room's path stays as it is, and nothing is lost while no mailer
runs. Ids on PostgreSQL can commit out of order, so each pass reads again the last ``OVERLAP`` ids before the
cursor; a notice is recorded once per event and recipient (a unique key), so reading an event twice is harmless.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.lobby.speeds import speed
from app.store.models import User
from app.store.repositories import mail as mail_repo
from app.store.repositories import server_marks, users

CURSOR = "mail_events"
OVERLAP = 200
BATCH = 500
TYPES = ("move", "pass", "game_over")

# Told at once when the player wants it and is within the hourly cap; otherwise left for the digest.
Immediate = Callable[[AsyncSession, User, int, str, dict[str, Any]], Awaitable[bool]]


def is_correspondence(time_control: dict[str, Any] | None) -> bool:
    return speed(time_control or {}) == "correspondence"


def move_is_current(payload: dict[str, Any], move_count: int, status: str) -> bool:
    """Whether a move notice still says what is true: the game is still at that move, and going on. A move
    answered since (by the player, or by their conditional moves at once) or a game over is not news."""
    return status == "playing" and payload.get("move_number") == move_count


def _game_notices(row: Any, names: dict[int, str]) -> list[tuple[int, str, dict[str, Any]]]:
    """(recipient, kind, payload) for one game event; nothing for a move the game has already gone past."""
    black, white = row.black_id, row.white_id
    if row.type == "game_over":
        result = (row.payload.get("result") or {}).get("text")
        return [
            (uid, "end", {"game": row.game_id, "result": result, "opponent": names.get(other, "?")})
            for uid, other in ((black, white), (white, black))
            if uid != other
        ]
    to_move = row.payload.get("to_move")
    recipient, mover = (black, white) if to_move == "B" else (white, black)
    if to_move not in ("B", "W") or recipient == mover or not move_is_current(row.payload, row.move_count, row.status):
        return []
    return [
        (
            recipient,
            "move",
            {"game": row.game_id, "opponent": names.get(mover, "?"), "move_number": row.payload.get("move_number")},
        )
    ]


async def _record(
    session: AsyncSession, user: User, kind: str, ref: str, seq: int, payload: dict[str, Any], now: float, immediate: Immediate
) -> bool:
    notice_id = await mail_repo.add_notice(session, user_id=user.id, kind=kind, ref=ref, seq=seq, payload=payload, at=now)
    if notice_id is None:
        return False
    if user.mail_mode == "immediate" and await immediate(session, user, notice_id, kind, payload):
        await mail_repo.mark_notices(session, [notice_id])
    return True


async def collect_game_events(session: AsyncSession, now: float, immediate: Immediate) -> int:
    """Record the notices of the game events since the cursor; how many new ones. Commits."""
    cursor = await server_marks.get(session, CURSOR)
    if cursor is None:  # the first pass: start from now, nothing from the past is mailed
        await server_marks.touch(session, float(await mail_repo.max_event_id(session)), CURSOR)
        return 0
    recorded = 0
    after = max(0, int(cursor) - OVERLAP)
    while True:
        rows = await mail_repo.game_events_after(session, after, TYPES, BATCH)
        rows_of_interest = [row for row in rows if is_correspondence(row.time_control)]
        players = {uid for row in rows_of_interest for uid in (row.black_id, row.white_id)}
        recipients = await users.mail_recipients(session, players)
        names = await users.names(session, players) if recipients else {}
        for row in rows_of_interest:
            for uid, kind, payload in _game_notices(row, names):
                if uid in recipients:
                    recorded += await _record(session, recipients[uid], kind, row.game_id, row.v, payload, now, immediate)
        await session.commit()
        if rows:
            after = int(rows[-1].id)
            await server_marks.touch(session, float(after), CURSOR)
        if len(rows) < BATCH:
            return recorded


async def collect_challenges(session: AsyncSession, now: float, immediate: Immediate) -> int:
    """Record a notice for each open correspondence challenge addressed to someone not told yet. Commits."""
    rows = [row for row in await mail_repo.addressed_challenges_unnoticed(session, BATCH) if is_correspondence(row.time_control)]
    recipients = await users.mail_recipients(session, {row.opponent_id for row in rows})
    names = await users.names(session, {row.creator_id for row in rows})
    recorded = 0
    for row in rows:
        if row.opponent_id in recipients:
            payload = {"challenge": row.id, "from": names.get(row.creator_id, "?")}
            recorded += await _record(session, recipients[row.opponent_id], "challenge", row.id, 0, payload, now, immediate)
    await session.commit()
    return recorded
