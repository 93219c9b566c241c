"""What a game channel carries through the hub: one event, serialised once, with who may read it.

A hub payload is three lines (orjson never writes a raw newline, so the split is safe)::

    header   {"v": 12, "vis": "all", "x": {...}}   v is null for ephemeral messages; x, see below
    visible  the message as those who may see it receive it
    others   the message everybody else receives (the redacted event or {"t":"hidden","v":12}), or empty

Each recipient gets one of the two texts unchanged; the texts are decoded once per instance, not per socket.

A committed event also carries ``x``: the fields of its stored payload that no client sees (the action that
produced it, the client's message id). With them, another instance holding the game rebuilds exactly the
stored payload (``committed_payload``) and applies the event without reading it back from the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from app.games.visibility import choose, stored


@dataclass(frozen=True)
class Envelope:
    v: int | None
    vis: str
    visible: str
    others: str
    private: dict[str, Any] | None = None

    def committed_payload(self) -> dict[str, Any] | None:
        """The event as the database stores it, or None when the envelope does not carry it."""
        if self.private is None or self.v is None:
            return None
        return stored(orjson.loads(self.visible), self.vis, self.private)

    def text_for(self, viewer: str | None) -> str:
        """The text ``viewer`` ("B", "W" or None for a spectator) receives."""
        return choose(self.vis, viewer, self.visible, self.others)


def pack(
    visible: bytes, *, v: int | None = None, vis: str = "all", others: bytes = b"", private: dict[str, Any] | None = None
) -> bytes:
    header: dict[str, Any] = {"v": v, "vis": vis}
    if private is not None:
        header["x"] = private
    return orjson.dumps(header) + b"\n" + visible + b"\n" + others


def unpack(data: bytes) -> Envelope:
    header, visible, others = data.split(b"\n", 2)
    head = orjson.loads(header)
    return Envelope(v=head["v"], vis=head["vis"], visible=visible.decode(), others=others.decode(), private=head.get("x"))
