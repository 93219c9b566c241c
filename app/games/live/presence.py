"""Who is in a game's room across instances: which seats a connected player holds and how many spectators
watch, counted from the hub's members of the game's channel (the ``presence`` message that tells it:
app/games/live/audience.py). The hub keeps each connection's role as the room gave it (``ROLES``) and reads
nothing into it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from app.transport.hub import Hub

SPECTATOR = "spectator"  # the role of a connection that holds no seat
ROLES = ("B", "W", SPECTATOR)


@dataclass(frozen=True)
class Presence:
    players: dict[str, bool] = field(default_factory=lambda: {"B": False, "W": False})
    spectators: int = 0


def role_of(seat: str | None) -> str:
    """The role a connection joins the game's channel as: its seat, or ``SPECTATOR``."""
    return SPECTATOR if seat is None else seat


def tally(entries: Iterable[tuple[str, int | str | None]]) -> Presence:
    """Presence from (role, user_id) pairs, one per connection.

    Spectators are counted once per signed-in user (several tabs count once) and once per anonymous
    connection.
    """
    players = {"B": False, "W": False}
    users: set[str] = set()
    anonymous = 0
    for role, user_id in entries:
        if role in players:
            players[role] = True
        elif user_id is None:
            anonymous += 1
        else:
            users.add(str(user_id))
    return Presence(players=players, spectators=len(users) + anonymous)


async def presence(hub: Hub, channel: str) -> Presence:
    """Who is in a game's channel across all instances."""
    return tally(await hub.members(channel))
