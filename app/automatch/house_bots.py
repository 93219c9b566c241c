"""Offering a house bot to a player nobody was found for.

After ``BOT_OFFER_AFTER`` seconds of searching (the setting ``TENGEN_AUTOMATCH_BOT_AFTER``), a player is
offered the house bot (a bot account of the server, no owner) closest to them in strength among those with a
lobby socket open somewhere that accept a game the player asked for: the first board size and speed in the
player's order the bot accepts, under the player's rules (or, for "any", the first the bot plays, Chinese if
it does). Colours, handicap and komi are the pairing's (``pairing.terms``), as if the bot were one more
seeker. The offer is a ready challenge body addressed to the bot: the player's page posts it to
``/api/challenges``, the bot's bridge accepts it, and the game starts through the challenge path (the
search then ends by itself, like any game the player starts).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.automatch.pairing import Seeker, rank_gap, terms
from app.automatch.preferences import ANY_RULES, SeekPreferences
from app.automatch.strength import Strength
from app.bots.declaration import accepts_of, refusal
from app.ratings.ranks import rank_label
from app.store.models import User
from app.store.repositories import games
from app.automatch.messages import BotOffer

BOT_OFFER_AFTER = 60.0  # seconds of searching before a house bot is offered (TENGEN_AUTOMATCH_BOT_AFTER)
PREFERRED_RULES = "chinese"


async def bot_offer(
    session: AsyncSession, seeker: Seeker, bots: list[User], strength: Strength, now: float
) -> dict[str, Any] | None:
    """The ``bot_offer`` message for ``seeker`` (docs/protocol.md §7.1), or None when no bot fits."""
    best: tuple[float, User, Seeker, Any] | None = None
    for bot in bots:
        accepts = accepts_of(bot.bot_accepts)
        active = await games.count_unfinished_of(session, bot.id)
        rating = await strength(session, bot)
        if seeker.prefs.rules != ANY_RULES:
            rules = seeker.prefs.rules
        else:
            rules = PREFERRED_RULES if PREFERRED_RULES in accepts.rules else accepts.rules[0]
        for size in seeker.prefs.sizes:
            fitting = None
            for speed in seeker.prefs.speeds:
                prefs = SeekPreferences(
                    sizes=[size], speeds=[speed], rules=rules, rated=seeker.prefs.rated, handicap=seeker.prefs.handicap
                )
                as_seeker = Seeker(seek_id=f"bot-{bot.id}", user_id=bot.id, rating=rating, prefs=prefs, since=now, name=bot.name)
                agreed = terms(seeker, as_seeker)
                reason = refusal(
                    accepts,
                    board_size=size,
                    time_control=agreed.time_control,
                    rules=rules,
                    rated=agreed.rated,
                    handicap=agreed.handicap,
                    active_games=active,
                )
                if reason is None:
                    fitting = (as_seeker, agreed)
                    break
            if fitting is not None:
                gap = rank_gap(seeker, fitting[0])
                if best is None or gap < best[0]:
                    best = (gap, bot, *fitting)
                break
    if best is None:
        return None
    _gap, bot, as_seeker, agreed = best
    colour = "nigiri" if agreed.nigiri else ("black" if agreed.black.user_id == seeker.user_id else "white")
    return BotOffer(
        seeks=[seeker.seek_id],
        bot={"id": bot.id, "name": bot.name, "rank": rank_label(as_seeker.rating)},
        challenge={
            "board_size": agreed.board_size,
            "rules": agreed.rules,
            "komi": agreed.komi,
            "handicap": agreed.handicap,
            "color": colour,
            "time_control": agreed.time_control,
            "rated": agreed.rated,
            "opponent": bot.name,
        },
    ).wire()
