"""The tournaments' message on the lobby socket (docs/protocol.md §7): ``tournament_changed``, so that a
tournament's page (and a list of them) reads the event again when something it shows has changed.
:mod:`app.protocol` puts it on the lobby socket."""

from __future__ import annotations

from typing import Literal

from app.transport.messages import ServerMessage

Change = Literal[
    "created",
    "registered",
    "withdrawn",
    "checked_in",
    "paired",
    "started",
    "result",
    "round_finished",
    "finished",
    "paused",
    "resumed",
    "repaired",
    "disqualified",
    "directors",
]


class TournamentChanged(ServerMessage):
    """Something the event's page shows changed (``what``); ``version`` goes up with every change, so a page that
    has read a later version already can skip it. The message carries no standings: the page asks for them."""

    t: Literal["tournament_changed"] = "tournament_changed"
    tournament_id: str
    version: int
    what: Change
    round: int | None
