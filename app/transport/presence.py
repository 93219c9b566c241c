"""Presence of a room: which seats are taken by a connected player and how many spectators watch (the message
that tells it is the room's domain's: a game's, app/games/live/audience.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

ROLES = ("B", "W", "spectator")


@dataclass(frozen=True)
class Presence:
    players: dict[str, bool] = field(default_factory=lambda: {"B": False, "W": False})
    spectators: int = 0


def check_role(role: str) -> None:
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, not {role!r}")


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
