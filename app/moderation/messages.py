"""Moderation's messages to a player (docs/moderation.md): a warning on the lobby socket, and the sanction
every socket of the user (lobby, game, review) reads before it closes. :mod:`app.protocol` puts them on the
sockets that carry them."""

from __future__ import annotations

from typing import Literal

from app.transport.messages import ServerMessage


class ModeratorWarning(ServerMessage):
    t: Literal["moderator_warning"] = "moderator_warning"
    reason: str


class AccountSanctioned(ServerMessage):
    """Suspended or banned: every socket of the user (lobby, game, review) reads this, then closes with 4403
    (docs/moderation.md). ``until``: a suspension's end (ISO time, UTC), None for a ban; ``reason``: the
    moderator's words, shown as they are."""

    t: Literal["account_sanctioned"] = "account_sanctioned"
    action: Literal["suspend", "ban"]
    reason: str
    until: str | None
