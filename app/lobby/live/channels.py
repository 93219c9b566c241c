"""The lobby's channels on the hub: the public one every instance reads, and one per user for the lobby
messages only that user's sockets see. The names are those the hub gave them before it knew no lobby, so
instances of either version share them during an upgrade."""

from __future__ import annotations

LOBBY_CHANNEL = "lobby"


def user_channel(user_id: int) -> str:
    """The channel of the lobby messages addressed to one user (subscribed only where that user has a lobby socket)."""
    return f"user:{user_id}"
