"""Bot accounts: registered by a user who owns them, or the server's own house bots (no owner); the sparring
partner's offer to a player."""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.service import check_strength, check_username, name_key
from app.bots import sparring
from app.bots.declaration import BotAccepts, accepts_of
from app.bots.rank_pick import SPARRING
from app.errors import Conflict, Forbidden, NotFound
from app.ratings import players
from app.store.models import User
from app.store.repositories import games, users

MAX_BOTS_PER_OWNER = 10


def bot_view(bot: User, active_games: int | None = None) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": bot.id,
        "name": bot.name,
        "bot": True,
        "house": bot.owner_id is None,
        "owner_id": bot.owner_id,
        "accepts": accepts_of(bot.bot_accepts).model_dump(),
        # the house's adaptive partner: GET /api/players/{name}/handicap is its own offer to the reader
        "sparring": is_sparring_partner(bot),
    }
    if active_games is not None:
        view["active_games"] = active_games
    return view


async def create_bot(
    session: AsyncSession, owner: User | None, name: str, accepts: BotAccepts, strength: str | None = None
) -> User:
    """A bot account owned by ``owner`` (None: a house bot); ``strength`` sets its starting rating."""
    if owner is not None:
        if owner.is_guest or owner.is_bot:
            raise Forbidden("account_required", "Only a registered account can own bots.")
        if len(await users.bots_of(session, owner.id)) >= MAX_BOTS_PER_OWNER:
            raise Conflict("too_many_bots", f"An account may own {MAX_BOTS_PER_OWNER} bots.")
    name = check_username(name)
    strength = check_strength(strength)
    key = name_key(name)
    if await users.name_taken(session, key):
        raise Conflict("username_taken", f"The username '{name}' is taken.")
    try:
        bot = await users.add_bot(session, name, key, None if owner is None else owner.id, accepts.model_dump(), strength)
        await session.commit()
    except IntegrityError as exc:
        await session.rollback()
        raise Conflict("username_taken", f"The username '{name}' is taken.") from exc
    return bot


async def bot_for(session: AsyncSession, actor: User, bot_id: int) -> User:
    """A bot the actor may manage: its owner, or the bot itself (through its token)."""
    bot = await users.get(session, bot_id)
    if bot is None or not bot.is_bot or (actor.id != bot.id and actor.id != bot.owner_id):
        raise NotFound("bot_not_found", "No such bot of yours.")
    return bot


async def set_accepts(session: AsyncSession, actor: User, bot_id: int, accepts: BotAccepts) -> User:
    bot = await bot_for(session, actor, bot_id)
    await users.set_bot_accepts(session, bot.id, accepts.model_dump())
    await session.commit()
    await session.refresh(bot)
    return bot


async def listed(session: AsyncSession) -> list[dict[str, Any]]:
    """Every bot, house bots first, with how many games each is playing now."""
    bots = await users.all_bots(session)
    return [bot_view(bot, await games.count_unfinished_of(session, bot.id)) for bot in bots]


def is_sparring_partner(user: User) -> bool:
    """The house's adaptive sparring partner (app/bots/sparring.py), whose handicap is its own offer."""
    return bool(user.is_bot) and user.owner_id is None and user.name == SPARRING.name


async def sparring_offer(session: AsyncSession, partner: User, player: User, size: int) -> dict[str, Any]:
    """What the sparring partner offers ``player`` on a ``size`` board: the handicap its reach leaves, from the
    player's rank and the partner's recent results against them, read as the partner itself reads them at a
    game's start (the player's profile from the partner's side)."""
    profile = await players.profile(session, player, partner)
    rank = profile["player"]["rank"]
    if not rank:
        raise Forbidden("account_required", "Both players need an account to have ranks.")
    scores = sparring.outcomes(profile)
    chosen = sparring.offer(sparring.kyu_of(rank), scores, size)
    return {
        "handicap": chosen.handicap,
        "komi": chosen.komi,
        "you_play_black": chosen.player_black,
        "sparring": {
            # the policy rule's kyu rank (negative: dan); null: the network's own play
            "aim": None if chosen.aim.kyu is None else round(chosen.aim.kyu, 1),
            "search": chosen.aim.search,
            "results": len(scores),  # the recent games against you that count
        },
    }
