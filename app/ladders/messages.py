"""The ladders' message on the lobby socket (docs/protocol.md §7): a ladder changed; its page reads it again."""

from __future__ import annotations

from typing import Literal

from app.transport.messages import ServerMessage


class LadderChanged(ServerMessage):
    """A ladder's rungs or challenges changed (a join, a leave, a challenge made, answered or settled): every
    lobby socket hears it, and a page showing that ladder reads ``GET /api/ladders/{ladder}`` again. ``version``
    grows with each change, so a page drops news older than what it shows."""

    t: Literal["ladder_changed"] = "ladder_changed"
    ladder: str
    version: int
