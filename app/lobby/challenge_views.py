"""Challenges as every view shows them (the REST answers and lists, the lobby socket's snapshot and
``challenge_created``), each with the people it names and their ranks.

The people and their ranks are loaded here together, as :class:`app.lobby.views.Person`, and
``challenge_view`` takes only those: a view of a challenge cannot be built with the names but without the
ranks (docs/ratings.md: every view that names a player carries ``rank`` beside the name).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.lobby.views import People, Person, challenge_people, challenge_view
from app.ratings.lookup import display_ranks
from app.store.models import Challenge
from app.store.repositories import users


async def people_of(session: AsyncSession, challenges: Iterable[Challenge]) -> People:
    """Everyone these challenges name, with the rank shown beside their name."""
    ids: set[int] = set().union(*(challenge_people(c) for c in challenges))
    if not ids:
        return {}
    names = await users.people(session, ids)
    ranks = await display_ranks(session, ids)
    return {uid: Person(name, bot, ranks.get(uid)) for uid, (name, bot) in names.items()}


async def challenge_views(session: AsyncSession, challenges: list[Challenge]) -> list[dict[str, Any]]:
    """The views of a list of challenges (without their tokens)."""
    people = await people_of(session, challenges)
    return [challenge_view(c, people) for c in challenges]


async def one_challenge_view(session: AsyncSession, challenge: Challenge, *, with_token: bool = False) -> dict[str, Any]:
    """One challenge's view (its token and invitation link only ``with_token``: for its creator)."""
    return challenge_view(challenge, await people_of(session, [challenge]), with_token=with_token)
