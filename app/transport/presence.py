"""Presence of a room: which players are connected and how many spectators watch."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from app.protocol import Presence as PresenceMessage

ROLES = ("B", "W", "spectator")


@dataclass(frozen=True)
class Presence:
    players: dict[str, bool] = field(default_factory=lambda: {"B": False, "W": False})
    spectators: int = 0

    def to_message(self) -> dict[str, Any]:
        """The ephemeral ``presence`` message of the protocol."""
        return PresenceMessage(players=dict(self.players), spectators=self.spectators).wire()


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
