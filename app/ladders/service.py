"""Ladders against the database (docs/ladders.md): the views, joining and leaving, challenges and their answers,
and settling each challenge exactly once, whichever instance does it.

Each change is one transaction that begins with the ladder's lock (``ladders.lock``: its version bumped), reads
the positions and challenges under it, asks the pure rules (``app/ladders/rules.py``) and commits; the lobby
hears ``ladder_changed`` after the commit. A settlement is a compare-and-set on the challenge's status, and the
history's unique key on the challenge holds it to one event: two instances settling the same deadline or game
leave one result.

One module over 400 lines: every operation is the same lock-read-decide-commit-announce transaction over the
same rows, and the settling paths (a deadline, a decline, a game's end) must share one compare-and-set.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import Conflict, Forbidden, NotFound, ServiceError
from app.ladders import rules
from app.ladders.messages import LadderChanged
from app.lobby.live.broadcaster import LobbyBroadcaster
from app.lobby.starting import create_game, game_started
from app.lobby.views import player_ids, player_view
from app.moderation.fair_play import DEFAULT_FAIR_PLAY, FairPlay, check_may_play_rated
from app.moderation.standing import check_may_play
from app.ratings.lookup import display_ranks
from app.ratings.rate import black_score
from app.store.models import Ladder, LadderChallenge, LadderEvent, User
from app.store.repositories import games, ladders, moderation
from app.store.repositories.games import GameWithPlayers
from app.store.types import utcnow
from app.transport.hub import Hub

log = logging.getLogger(__name__)

COLORS = ("black", "white", "nigiri")
HISTORY_PAGE = 50


def policy_of(ladder: Ladder) -> rules.Policy:
    return rules.Policy(
        reach=ladder.reach,
        max_outgoing=ladder.max_outgoing,
        max_incoming=ladder.max_incoming,
        rechallenge=timedelta(hours=ladder.rechallenge_hours),
    )


def ladder_summary(ladder: Ladder, players: int) -> dict[str, Any]:
    return {
        "id": ladder.id,
        "board_size": ladder.board_size,
        "speed": ladder.speed,
        "rules": ladder.rules,
        "time_control": ladder.time_control,
        "rated": ladder.rated,
        "players": players,
        "capacity": ladder.capacity,
        "reach": ladder.reach,
        "max_outgoing": ladder.max_outgoing,
        "max_incoming": ladder.max_incoming,
        "rechallenge_hours": ladder.rechallenge_hours,
        "answer_hours": ladder.answer_hours,
        "version": ladder.version,
    }


async def list_ladders(session: AsyncSession) -> list[dict[str, Any]]:
    return [ladder_summary(ladder, n) for ladder, n in await ladders.all_ladders(session)]


async def _ladder(session: AsyncSession, ladder_id: str) -> Ladder:
    ladder = await ladders.get(session, ladder_id)
    if ladder is None:
        raise NotFound("ladder_not_found", "No such ladder.")
    return ladder


async def _locked(session: AsyncSession, ladder_id: str) -> Ladder:
    """The ladder, locked until the transaction ends (its version bumped: the news ``ladder_changed`` carries)."""
    if await ladders.lock(session, ladder_id) is None:
        raise NotFound("ladder_not_found", "No such ladder.")
    ladder = await ladders.get(session, ladder_id)
    assert ladder is not None
    await session.refresh(ladder)
    return ladder


async def _facts(session: AsyncSession, ladder_id: str, user_id: int, open_now: list[LadderChallenge]) -> rules.Facts:
    engaged = {c.defender_id for c in open_now if c.challenger_id == user_id}
    engaged |= {c.challenger_id for c in open_now if c.defender_id == user_id}
    return rules.Facts(
        outgoing=sum(1 for c in open_now if c.challenger_id == user_id),
        incoming=dict(Counter(c.defender_id for c in open_now)),
        engaged=frozenset(engaged),
        last_settled=await ladders.last_settled_with(session, ladder_id, user_id),
        blocked=await moderation.avoided(session, user_id),
    )


def challenge_view(challenge: LadderChallenge, people: dict[int, dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": challenge.id,
        "ladder": challenge.ladder_id,
        "challenger": people.get(challenge.challenger_id),
        "defender": people.get(challenge.defender_id),
        "color": challenge.color,
        "status": challenge.status,
        "outcome": challenge.outcome,
        "game_id": challenge.game_id,
        "challenger_position": challenge.challenger_position,
        "defender_position": challenge.defender_position,
        "created_at": challenge.created_at.isoformat(),
        "answer_by": challenge.answer_by.isoformat(),
        "settled_at": challenge.settled_at.isoformat() if challenge.settled_at else None,
    }


async def _people(session: AsyncSession, users: list[User]) -> dict[int, dict[str, Any]]:
    ranks = await display_ranks(session, {u.id for u in users})
    return {u.id: player_view(u, ranks) for u in users}


async def ladder_view(session: AsyncSession, ladder_id: str, user: User | None) -> dict[str, Any]:
    """The ladder with its rungs, and for each rung whether the caller may challenge it now and, when not, the
    code a challenge would be refused with (the same function decides both: ``rules.refusal``)."""
    ladder = await _ladder(session, ladder_id)
    placed = await ladders.rungs(session, ladder_id)
    order = [u.id for _, u in placed]
    open_now = await ladders.unsettled(session, ladder_id)
    named = {u.id: u for _, u in placed}
    named.update(await ladders.names(session, {c.challenger_id for c in open_now} | {c.defender_id for c in open_now}))
    people = await _people(session, list(named.values()))
    me = None if user is None or user.is_guest else user.id
    facts = await _facts(session, ladder_id, me, open_now) if me is not None else rules.Facts()
    policy, now = policy_of(ladder), utcnow()
    rows = []
    for position, player in placed:
        reason = rules.refusal(order, me, player.id, policy, facts, now)
        rows.append({"position": position, "player": people[player.id], "challengeable": reason is None, "reason": reason})
    mine = [c for c in open_now if me in (c.challenger_id, c.defender_id)]
    return {
        **ladder_summary(ladder, len(placed)),
        "rungs": rows,
        "me": {
            "position": order.index(me) + 1 if me in order else None,
            "join": _join_refusal(ladder, order, user),
            "challenges": [challenge_view(c, people) for c in mine],
        },
    }


def _join_refusal(ladder: Ladder, order: list[int], user: User | None) -> str | None:
    """Why the caller may not join (a code), or None."""
    if user is None or user.is_guest:
        return "account_required"
    if user.is_bot:
        return "bots_not_allowed"
    if user.id in order:
        return "already_on_ladder"
    if len(order) >= ladder.capacity:
        return "ladder_full"
    return None


async def _announce(lobby: LobbyBroadcaster, ladder_id: str, version: int) -> None:
    await lobby.publish(LadderChanged(ladder=ladder_id, version=version).wire())


async def join(session: AsyncSession, lobby: LobbyBroadcaster, user: User, ladder_id: str) -> int:
    """Take the bottom rung; the position."""
    ladder = await _locked(session, ladder_id)
    order = await ladders.order(session, ladder_id)
    code = _join_refusal(ladder, order, user)
    if code is not None:
        await session.rollback()
        raise _JOIN_ERRORS[code]()
    await check_may_play(session, {user.id})
    position = len(order) + 1
    await ladders.add_rung(session, ladder_id, user.id, position)
    await ladders.add_event(session, ladder_id=ladder_id, kind="joined", user_id=user.id, position=position)
    version = ladder.version
    await session.commit()
    await _announce(lobby, ladder_id, version)
    return position


_JOIN_ERRORS = {
    "account_required": lambda: Forbidden("account_required", "Register to join a ladder."),
    "bots_not_allowed": lambda: Forbidden("bots_not_allowed", "Bots do not play on ladders."),
    "already_on_ladder": lambda: Conflict("already_on_ladder", "You are on this ladder already."),
    "ladder_full": lambda: Conflict("ladder_full", "This ladder is full."),
}


async def leave(session: AsyncSession, lobby: LobbyBroadcaster, user: User, ladder_id: str) -> None:
    """Leave the ladder: everyone below moves up one; the player's open challenges are void (a game already
    started is played out, and settles as void)."""
    ladder = await _locked(session, ladder_id)
    order = await ladders.order(session, ladder_id)
    if user.id not in order:
        await session.rollback()
        raise Conflict("not_on_ladder", "You are not on this ladder.")
    now = utcnow()
    for challenge in await ladders.unsettled_of(session, ladder_id, user.id):
        if challenge.status == "open" and await ladders.settle(session, challenge.id, "open", "void", now):
            await _event(session, challenge, "void", order)
    await ladders.remove_rung(session, ladder_id, user.id)
    await ladders.rewrite(session, ladder_id, order, rules.after_leaving(order, user.id))
    await ladders.add_event(session, ladder_id=ladder_id, kind="left", user_id=user.id, position=order.index(user.id) + 1)
    version = ladder.version
    await session.commit()
    await _announce(lobby, ladder_id, version)


async def challenge(
    session: AsyncSession,
    lobby: LobbyBroadcaster,
    user: User,
    ladder_id: str,
    defender_id: int,
    color: str,
    fair_play: FairPlay = DEFAULT_FAIR_PLAY,
) -> dict[str, Any]:
    """Challenge the player ``defender_id``: refused with the code ``ladder_view`` shows for that rung."""
    if color not in COLORS:
        raise ServiceError("bad_color", "The colour is black, white or nigiri.", 422)
    if user.is_guest:
        raise Forbidden("account_required", "Register to play on a ladder.")
    ladder = await _locked(session, ladder_id)
    order = await ladders.order(session, ladder_id)
    now = utcnow()
    facts = await _facts(session, ladder_id, user.id, await ladders.unsettled(session, ladder_id))
    code = rules.refusal(order, user.id, defender_id, policy_of(ladder), facts, now)
    if code is not None:
        await session.rollback()
        raise refusal_error(code)
    await check_may_play(session, {user.id, defender_id})
    if ladder.rated:  # as any rated challenge (app/lobby/service.py): too many escapes, unrated games only
        await check_may_play_rated(session, {user.id, defender_id}, fair_play, you=user.id)
    made = await ladders.add_challenge(
        session,
        ladder_id=ladder_id,
        challenger_id=user.id,
        defender_id=defender_id,
        color=color,
        challenger_position=order.index(user.id) + 1,
        defender_position=order.index(defender_id) + 1,
        created_at=now,
        answer_by=now + timedelta(hours=ladder.answer_hours),
    )
    version = ladder.version
    await session.commit()
    await _announce(lobby, ladder_id, version)
    people = await _people(session, list((await ladders.names(session, {user.id, defender_id})).values()))
    return challenge_view(made, people)


# Each refusal ``rules.refusal`` names: (its code, the HTTP status, the message).
REFUSALS: dict[str, tuple[str, int, str]] = {
    "account_required": ("account_required", 403, "Register to play on a ladder."),
    "not_on_ladder": ("not_on_ladder", 409, "Join the ladder first."),
    "not_on_ladder_defender": ("not_on_ladder_defender", 404, "That player is not on this ladder."),
    "own_rung": ("own_rung", 400, "You cannot challenge yourself."),
    "not_above": ("not_above", 409, "You can only challenge players above you."),
    "too_far_above": ("too_far_above", 409, "That player is too far above you on the ladder."),
    "blocked": ("blocked", 403, "One of you has blocked the other."),
    "already_challenged": ("already_challenged", 409, "There is already a challenge between you two."),
    "rechallenge_too_soon": ("rechallenge_too_soon", 409, "You played this challenge too recently; try again later."),
    "too_many_ladder_challenges": ("too_many_ladder_challenges", 409, "You have as many open challenges as the ladder allows."),
    "defender_busy": ("defender_busy", 409, "That player is defending as many challenges as the ladder allows."),
}


def refusal_error(code: str) -> ServiceError:
    same, status, message = REFUSALS[code]
    return ServiceError(same, message, status)


async def _challenge_for(session: AsyncSession, user: User, challenge_id: str) -> LadderChallenge:
    found = await ladders.get_challenge(session, challenge_id)
    if found is None or user.id not in (found.challenger_id, found.defender_id):
        raise NotFound("ladder_challenge_not_found", "No such ladder challenge.")
    if found.defender_id != user.id:
        raise Forbidden("not_your_challenge", "Only the player challenged can answer a challenge.")
    return found


async def accept(
    session: AsyncSession,
    hub: Hub,
    lobby: LobbyBroadcaster,
    user: User,
    challenge_id: str,
    fair_play: FairPlay = DEFAULT_FAIR_PLAY,
) -> GameWithPlayers:
    """The defender accepts: the game starts (``starting.create_game``, the one path every game starts by), the
    challenger with the colour they chose (nigiri: drawn now)."""
    found = await _challenge_for(session, user, challenge_id)
    ladder = await _locked(session, found.ladder_id)
    await session.refresh(found)
    if found.status != "open":
        await session.rollback()
        raise Conflict("challenge_not_open", "This challenge is no longer open.")
    now = utcnow()
    if found.answer_by <= now:
        await session.rollback()
        raise Conflict("challenge_expired", "The time to answer this challenge has passed.")
    if ladder.rated:
        await check_may_play_rated(session, {found.challenger_id, found.defender_id}, fair_play, you=user.id)
    challenger_black = {"black": True, "white": False}.get(found.color)
    if challenger_black is None:
        challenger_black = secrets.randbelow(2) == 0
    black_id, white_id = found.challenger_id, found.defender_id
    if not challenger_black:
        black_id, white_id = white_id, black_id
    game = await create_game(
        session,
        board_size=ladder.board_size,
        rules=ladder.rules,
        komi=None,
        handicap=0,
        time_control=ladder.time_control,
        rated=ladder.rated,
        black_id=black_id,
        white_id=white_id,
    )
    if not await ladders.start_playing(session, found.id, game.id, now):
        await session.rollback()
        raise Conflict("challenge_not_open", "This challenge is no longer open.")
    version = ladder.version
    await session.commit()
    row = await games.get_with_players(session, game.id)
    assert row is not None
    shown = await display_ranks(session, player_ids([row]))
    await game_started(hub, lobby, row, ranks=shown)
    await _announce(lobby, found.ladder_id, version)
    return row


async def decline(session: AsyncSession, lobby: LobbyBroadcaster, user: User, challenge_id: str) -> dict[str, Any]:
    """The defender declines: it counts as a loss, the challenger takes the place (docs/ladders.md: no camping)."""
    found = await _challenge_for(session, user, challenge_id)
    settled = await _settle(session, found.id, "open", _declined)
    if settled is None:
        raise Conflict("challenge_not_open", "This challenge is no longer open.")
    await _announce(lobby, found.ladder_id, settled)
    await session.refresh(found)
    people = await _people(session, list((await ladders.names(session, {found.challenger_id, found.defender_id})).values()))
    return challenge_view(found, people)


async def _event(session: AsyncSession, challenge: LadderChallenge, outcome: str, order: list[int]) -> None:
    await ladders.add_event(
        session,
        ladder_id=challenge.ladder_id,
        kind=outcome,
        user_id=challenge.challenger_id,
        other_id=challenge.defender_id,
        challenge_id=challenge.id,
        game_id=challenge.game_id,
        position=order.index(challenge.defender_id) + 1 if challenge.defender_id in order else None,
    )


Decide = Callable[[LadderChallenge], Awaitable[str | None]]


async def _declined(_challenge: LadderChallenge) -> str:
    return "declined"


async def _expired(challenge: LadderChallenge) -> str | None:
    return "expired" if challenge.answer_by <= utcnow() else None


async def _settle(session: AsyncSession, challenge_id: str, expected: str, decide: Decide) -> int | None:
    """Settle one challenge still ``expected`` with the outcome ``decide(challenge)`` gives, under its ladder's
    lock, and commit: the ladder's new version, or None when it was not ``expected`` any more (another instance
    or request settled it first: nothing is written)."""
    found = await ladders.get_challenge(session, challenge_id)
    if found is None:
        return None
    ladder = await _locked(session, found.ladder_id)
    await session.refresh(found)
    outcome = await decide(found)
    if found.status != expected or outcome is None:
        await session.rollback()
        return None
    order = await ladders.order(session, found.ladder_id)
    if found.challenger_id not in order or found.defender_id not in order:
        outcome = "void"
    if not await ladders.settle(session, found.id, expected, outcome, utcnow()):
        await session.rollback()
        return None
    await _event(session, found, outcome, order)
    after = rules.after_outcome(order, found.challenger_id, found.defender_id, outcome)
    await ladders.rewrite(session, found.ladder_id, order, after)
    version = ladder.version
    await session.commit()
    return version


async def _game_outcome(session: AsyncSession, challenge: LadderChallenge) -> str | None:
    """The outcome of a challenge's game once it has ended (None while it is played): the challenger's colour is
    read from the game itself, never assumed."""
    if challenge.game_id is None:
        return None
    row = await games.get_with_players(session, challenge.game_id)
    if row is None or row.game.status != "finished":
        return None
    return rules.challenger_score(black_score(row.game.result), row.game.black_id == challenge.challenger_id)


async def settle_game(sessionmaker: async_sessionmaker[AsyncSession], lobby: LobbyBroadcaster, game_id: str) -> bool:
    """Settle the ladder challenge a finished game was played for, if any and not yet settled."""
    async with sessionmaker() as session:
        found = await ladders.challenge_of_game(session, game_id)
        if found is None or found.status != "playing":
            return False
        settled = await _settle(session, found.id, "playing", lambda c: _game_outcome(session, c))
        ladder_id = found.ladder_id
    if settled is None:
        return False
    await _announce(lobby, ladder_id, settled)
    return True


async def settle_expired(sessionmaker: async_sessionmaker[AsyncSession], lobby: LobbyBroadcaster, challenge_id: str) -> bool:
    """An open challenge past its deadline is lost by the defender; False when it was answered or settled first."""
    async with sessionmaker() as session:
        settled = await _settle(session, challenge_id, "open", _expired)
        found = await ladders.get_challenge(session, challenge_id)
    if settled is None or found is None:
        return False
    await _announce(lobby, found.ladder_id, settled)
    return True


async def sweep(sessionmaker: async_sessionmaker[AsyncSession], lobby: LobbyBroadcaster) -> int:
    """Settle every deadline passed and every game ended that is still unsettled: how many this call settled."""
    async with sessionmaker() as session:
        due = await ladders.overdue(session, utcnow())
        ended = await ladders.games_over(session)
    count = 0
    for challenge_id in due:
        count += await settle_expired(sessionmaker, lobby, challenge_id)
    for challenge_id in ended:
        async with sessionmaker() as session:
            found = await ladders.get_challenge(session, challenge_id)
        if found is not None and found.game_id is not None:
            count += await settle_game(sessionmaker, lobby, found.game_id)
    return count


async def history(session: AsyncSession, ladder_id: str, before: int | None, limit: int = HISTORY_PAGE) -> dict[str, Any]:
    await _ladder(session, ladder_id)
    events = await ladders.history(session, ladder_id, before, limit)
    ids = {e.user_id for e in events} | {e.other_id for e in events if e.other_id is not None}
    people = await _people(session, list((await ladders.names(session, ids)).values()))
    return {"events": [_event_view(e, people) for e in events], "more": len(events) == limit}


def _event_view(event: LadderEvent, people: dict[int, dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": event.id,
        "kind": event.kind,
        "player": people.get(event.user_id),
        "other": people.get(event.other_id) if event.other_id is not None else None,
        "challenge_id": event.challenge_id,
        "game_id": event.game_id,
        "position": event.position,
        "at": event.at.isoformat(),
    }
