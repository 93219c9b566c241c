"""Creating, cancelling and accepting challenges, and announcing lobby changes.

Each function does its database work in one transaction and publishes to the lobby only after the commit.
"""

from __future__ import annotations

import math
import secrets
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.service import name_key
from app.bots.declaration import accepts_of, refusal
from app.errors import Conflict, Forbidden, NotFound, ServiceError
from app.lobby.caps import DEFAULT_CAPS, Caps, check_open_challenges, check_untimed_games, untimed
from app.lobby.challenge_views import one_challenge_view
from app.lobby.live.broadcaster import LobbyBroadcaster
from app.lobby.messages import ChallengeCreated, ChallengeRemoved, GameFinished
from app.lobby.schemas import DECLINE_REASON_CHARS, ChallengeCreate
from app.lobby.starting import create_game, game_started
from app.lobby.views import player_ids
from app.moderation.blocks import check_not_blocked
from app.moderation.fair_play import DEFAULT_FAIR_PLAY, FairPlay, check_may_play_rated
from app.moderation.standing import check_may_play
from app.ratings import handicap as handicaps
from app.ratings import ranks
from app.ratings.lookup import display_ranks, rank_numbers
from app.store.models import Challenge, User
from app.store.repositories import challenges, games, users
from app.store.repositories.games import GameWithPlayers
from app.transport.hub import Hub
from app.transport.messages import to_users


async def create_challenge(
    session: AsyncSession,
    lobby: LobbyBroadcaster,
    user: User,
    settings: ChallengeCreate,
    caps: Caps = DEFAULT_CAPS,
    fair_play: FairPlay = DEFAULT_FAIR_PLAY,
) -> Challenge:
    if settings.rated and user.is_guest:
        raise Forbidden("account_required", "Register to play rated games.")
    await check_may_play(session, {user.id})
    if settings.rated:
        await check_may_play_rated(session, {user.id}, fair_play)
    await check_open_challenges(session, caps, user.id)
    config = settings.config  # checked by the game's rules; accepting builds the same again
    opponent = await _opponent(session, user, settings.opponent)
    if opponent is not None:
        await check_not_blocked(session, user.id, opponent.id)
    time_control = config.time_control.to_dict()
    if untimed(time_control):
        await check_untimed_games(session, caps, user.id)
    if opponent is not None and opponent.is_bot:
        await _bot_fits(
            session,
            opponent,
            board_size=config.size,
            time_control=time_control,
            rules=config.rules.name,
            rated=settings.rated,
            handicap=config.handicap,
        )
    challenge = await challenges.add(
        session,
        creator_id=user.id,
        board_size=config.size,
        rules=config.rules.name,
        komi=config.rules.komi,
        handicap=config.handicap,
        color=settings.color,
        time_control=time_control,
        rated=settings.rated,
        private=settings.private,
        opponent_id=None if opponent is None else opponent.id,
        min_rank=settings.min_rank,
        max_rank=settings.max_rank,
        auto_handicap=settings.auto_handicap,
    )
    await session.commit()
    view = await one_challenge_view(session, challenge)
    if opponent is not None:  # addressed to one player: only their lobby sockets hear of it
        await lobby.publish(to_users(ChallengeCreated(challenge=view), [opponent.id]))
    elif not challenge.private:
        await lobby.publish(ChallengeCreated(challenge=view).wire())
    return challenge


async def _opponent(session: AsyncSession, user: User, name: str | None) -> User | None:
    if name is None:
        return None
    opponent = await users.get_by_name_key(session, name_key(name.strip()))
    if opponent is None or opponent.is_guest:
        raise NotFound("user_not_found", f"No player named '{name}'.")
    if opponent.id == user.id:
        raise ServiceError("own_challenge", "You cannot challenge yourself.")
    return opponent


async def _bot_fits(
    session: AsyncSession, bot: User, *, board_size: int, time_control: dict[str, Any], rules: str, rated: bool, handicap: int
) -> None:
    """Refuse, with the bot's reason, a game outside what the bot declared it accepts."""
    reason = refusal(
        accepts_of(bot.bot_accepts),
        board_size=board_size,
        time_control=time_control,
        rules=rules,
        rated=rated,
        handicap=handicap,
        active_games=await games.count_unfinished_of(session, bot.id),
    )
    if reason is not None:
        raise ServiceError("bot_refuses", f"{bot.name} {reason}.", 422)


async def find_challenge(session: AsyncSession, user: User | None, challenge_id: str, token: str | None) -> Challenge:
    """A challenge the caller may see: open ones to all, private ones to the creator or holders of the token."""
    challenge = await challenges.get(session, challenge_id)
    if challenge is None or not _may_see(challenge, user, token):
        raise NotFound("challenge_not_found", "No such challenge.")
    return challenge


def _may_see(challenge: Challenge, user: User | None, token: str | None) -> bool:
    if not challenge.private and challenge.opponent_id is None:
        return True
    if user is not None and user.id in (challenge.creator_id, challenge.opponent_id):
        return True
    return token is not None and challenge.token is not None and secrets.compare_digest(token, challenge.token)


async def cancel_challenge(session: AsyncSession, lobby: LobbyBroadcaster, user: User, challenge_id: str) -> Challenge:
    challenge = await challenges.get(session, challenge_id)
    if challenge is None or (challenge.private and challenge.creator_id != user.id):
        raise NotFound("challenge_not_found", "No such challenge.")
    if challenge.creator_id != user.id:
        raise Forbidden("not_your_challenge", "Only the player who made a challenge can cancel it.")
    return await _close(session, lobby, challenge, "cancelled")


async def withdraw_all(session: AsyncSession, lobby: LobbyBroadcaster, user_id: int) -> int:
    """Cancel every open challenge of ``user_id`` (a suspended or banned account) and tell the lobby; how many."""
    withdrawn = []
    for challenge in await challenges.open_of(session, user_id):
        if await challenges.close(session, challenge.id, "cancelled"):
            withdrawn.append(challenge)
    await session.commit()
    for challenge in withdrawn:
        await _announce_removed(lobby, challenge, "cancelled")
    return len(withdrawn)


async def _announce_removed(lobby: LobbyBroadcaster, challenge: Challenge, reason: str) -> None:
    if challenge.opponent_id is not None:
        removed = ChallengeRemoved(id=challenge.id, reason=reason, decline_reason=challenge.decline_reason or None)
        await lobby.publish(to_users(removed, [challenge.opponent_id, challenge.creator_id]))
    elif not challenge.private:
        await lobby.publish(ChallengeRemoved(id=challenge.id, reason=reason).wire())


async def decline_challenge(
    session: AsyncSession, lobby: LobbyBroadcaster, user: User, challenge_id: str, reason: str | None
) -> Challenge:
    """The player a challenge is addressed to declines it, saying why."""
    challenge = await challenges.get(session, challenge_id)
    if challenge is None or user.id not in (challenge.creator_id, challenge.opponent_id):
        raise NotFound("challenge_not_found", "No such challenge.")
    if challenge.opponent_id != user.id:
        raise Forbidden("not_your_challenge", "Only the player a challenge is addressed to can decline it.")
    # (a longer reason was refused by the request's model, reason_too_long: the column holds no more)
    return await _close(session, lobby, challenge, "declined", reason=(reason or "declined")[:DECLINE_REASON_CHARS])


async def _close(
    session: AsyncSession, lobby: LobbyBroadcaster, challenge: Challenge, status: str, reason: str | None = None
) -> Challenge:
    """Close an open challenge as ``status`` (409 ``challenge_not_open`` when it is not open any more), commit,
    and tell the lobby."""
    if not await challenges.close(session, challenge.id, status, reason=reason):
        await session.rollback()
        raise Conflict("challenge_not_open", "This challenge is no longer open.")
    await session.commit()
    await session.refresh(challenge)
    await _announce_removed(lobby, challenge, status)
    return challenge


async def accept_challenge(
    session: AsyncSession,
    hub: Hub,
    lobby: LobbyBroadcaster,
    user: User,
    challenge_id: str,
    token: str | None,
    caps: Caps = DEFAULT_CAPS,
    fair_play: FairPlay = DEFAULT_FAIR_PLAY,
) -> GameWithPlayers:
    challenge = await find_challenge(session, user, challenge_id, token)
    if challenge.creator_id == user.id:
        raise ServiceError("own_challenge", "You cannot accept your own challenge.")
    if challenge.rated and user.is_guest:
        raise Forbidden("account_required", "Register to play rated games.")
    if challenge.opponent_id is not None and challenge.opponent_id != user.id:
        raise Forbidden("not_your_challenge", "This challenge is addressed to another player.")
    if challenge.status != "open":
        raise Conflict("challenge_not_open", "This challenge is no longer open.")
    await check_not_blocked(session, challenge.creator_id, user.id)
    if challenge.rated:
        await check_may_play_rated(session, {challenge.creator_id, user.id}, fair_play, you=user.id)
    if user.is_bot:
        await _bot_fits(
            session,
            user,
            board_size=challenge.board_size,
            time_control=challenge.time_control,
            rules=challenge.rules,
            rated=challenge.rated,
            handicap=challenge.handicap,
        )
    numbers = await rank_numbers(session, [challenge.creator_id, user.id])
    _check_rank_range(challenge, numbers.get(user.id))
    if untimed(challenge.time_control):
        await check_untimed_games(session, caps, user.id)
        await check_untimed_games(session, caps, challenge.creator_id, you=False)
    black_id, white_id = _colours(challenge, user.id)
    handicap = challenge.handicap
    komi: float | None = challenge.komi
    if challenge.auto_handicap:  # komi None: the rules' usual komi
        black_id, white_id, handicap, komi = _automatic(challenge, user.id, numbers)
    game = await create_game(
        session,
        board_size=challenge.board_size,
        rules=challenge.rules,
        komi=komi,
        handicap=handicap,
        time_control=challenge.time_control,
        rated=challenge.rated,
        black_id=black_id,
        white_id=white_id,
    )
    if not await challenges.close(session, challenge.id, "accepted", game_id=game.id):
        await session.rollback()  # someone else accepted (or it was cancelled) first: no game is kept
        raise Conflict("challenge_not_open", "This challenge is no longer open.")
    await session.commit()
    row = await games.get_with_players(session, game.id)
    assert row is not None
    await session.refresh(challenge)
    await _announce_removed(lobby, challenge, "accepted")
    shown = await display_ranks(session, player_ids([row]))
    await game_started(hub, lobby, row, ranks=shown, challenge_id=challenge.id)
    return row


def _check_rank_range(challenge: Challenge, number: float | None) -> None:
    if challenge.min_rank is None and challenge.max_rank is None:
        return
    if number is None:
        raise Forbidden("account_required", "Register to accept a challenge limited to ranks.")
    low = ranks.parse_rank(challenge.min_rank) if challenge.min_rank else None
    high = ranks.parse_rank(challenge.max_rank) if challenge.max_rank else None
    whole = math.floor(number)
    if (low is not None and whole < math.floor(low)) or (high is not None and whole > math.floor(high)):
        span = f"{challenge.min_rank or '30k'} to {challenge.max_rank or '9d'}"
        raise Forbidden("rank_out_of_range", f"This challenge is for players ranked {span}.")


def _automatic(challenge: Challenge, acceptor_id: int, numbers: dict[int, float | None]) -> tuple[int, int, int, float | None]:
    """Black, white, handicap and komi from the two ranks: the weaker player takes Black and the handicap."""
    mine, theirs = numbers.get(challenge.creator_id), numbers.get(acceptor_id)
    if mine is None or theirs is None:  # a guest: an even game, colours as the challenge says
        black_id, white_id = _colours(challenge, acceptor_id)
        return black_id, white_id, 0, None
    suggestion = handicaps.suggest(mine - theirs, challenge.board_size)
    weaker, stronger = (challenge.creator_id, acceptor_id) if mine < theirs else (acceptor_id, challenge.creator_id)
    if not suggestion.weaker_is_black:
        black_id, white_id = _colours(challenge, acceptor_id)
    else:
        black_id, white_id = weaker, stronger
    return black_id, white_id, suggestion.handicap, suggestion.komi  # None: the rules' usual komi


def _colours(challenge: Challenge, acceptor_id: int) -> tuple[int, int]:
    creator_black = {"black": True, "white": False}.get(challenge.color)
    if creator_black is None:  # nigiri
        creator_black = secrets.randbelow(2) == 0
    if creator_black:
        return challenge.creator_id, acceptor_id
    return acceptor_id, challenge.creator_id


async def announce_game_finished(lobby: LobbyBroadcaster, game_id: str, result: str | None) -> None:
    """For the live room to call once a game's final event is committed."""
    await lobby.publish(GameFinished(game_id=game_id, result=result).wire())
