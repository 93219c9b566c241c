"""What a game channel carries through the hub: one event, serialised once, with who may read it.

A hub payload is three lines (orjson never writes a raw newline, so the split is safe)::

    header   {"v": 12, "vis": "all"}            v is null for ephemeral messages
    visible  the message as those who may see it receive it
    others   the message everybody else receives (the redacted event or {"t":"hidden","v":12}), or empty

Each recipient gets one of the two texts unchanged; the texts are decoded once per instance, not per socket.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from app.games.visibility import can_see


@dataclass(frozen=True)
class Envelope:
    v: int | None
    vis: str
    visible: str
    others: str

    def text_for(self, viewer: str | None) -> str:
        """The text ``viewer`` ("B", "W" or None for a spectator) receives."""
        if not self.others or can_see(self.vis, viewer):
            return self.visible
        return self.others


def pack(visible: bytes, *, v: int | None = None, vis: str = "all", others: bytes = b"") -> bytes:
    return orjson.dumps({"v": v, "vis": vis}) + b"\n" + visible + b"\n" + others


def unpack(data: bytes) -> Envelope:
    header, visible, others = data.split(b"\n", 2)
    head = orjson.loads(header)
    return Envelope(v=head["v"], vis=head["vis"], visible=visible.decode(), others=others.decode())
