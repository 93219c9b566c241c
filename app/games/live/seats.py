"""What a game's envelope (app/transport/envelope.py) says to each seat, by the rules of app/games/visibility.py:
the text a seat ("B", "W", or None for a spectator) reads, and the stored payload a committed event carries."""

from __future__ import annotations

from typing import Any

import orjson

from app.games.visibility import choose, stored
from app.transport.envelope import Envelope


def seat_text(envelope: Envelope, seat: str | None) -> str:
    """The text ``seat`` ("B", "W" or None for a spectator) receives."""
    return choose(envelope.vis, seat, envelope.visible, envelope.others)


def committed_payload(envelope: Envelope) -> dict[str, Any] | None:
    """The event as the database stores it, or None when the envelope does not carry it."""
    if envelope.private is None or envelope.v is None:
        return None
    return stored(orjson.loads(envelope.visible), envelope.vis, envelope.private)
