"""What a room's channel carries through the hub: one event, serialised once, with who may read it.

A hub payload is three lines (orjson never writes a raw newline, so the split is safe)::

    header   {"v": 12, "vis": "all", "x": {...}}   v is null for ephemeral messages; x, see below
    visible  the message as those who may see it receive it
    others   the message everybody else receives (the redacted event or {"t":"hidden","v":12}), or empty

Each recipient gets one of the two texts unchanged; the texts are decoded once per instance, not per socket.

A committed event also carries ``x``: the fields of its stored payload that no client sees (the action that
produced it, the client's message id). With them, another instance holding the room rebuilds exactly the
stored payload and applies the event without reading it back from the database.

The transport does not know who may read what: ``vis`` is the room's label, and the room's domain says which
text a viewer gets (by the viewer's role, or ``visible`` for all when every reader reads alike).
``logged_texts`` reads a channel's recent-event log as texts, with the room's reading of each envelope.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from app.transport.hub import Hub

Texts = list[tuple[int, str]]


@dataclass(frozen=True)
class Envelope:
    v: int | None
    vis: str
    visible: str
    others: str
    private: dict[str, Any] | None = None


def visible(envelope: Envelope) -> str:
    """The text of a channel whose every reader reads its events alike."""
    return envelope.visible


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


async def logged_texts(
    hub: Hub, channel: str, after_v: int, upto_v: int, read: Callable[[Envelope], str] = visible
) -> Texts | None:
    """The texts of a channel's events after ``after_v`` up to ``upto_v`` as ``read`` makes them of each envelope,
    from the hub's recent-event log; None when the log cannot prove it holds every one
    of them."""
    logged = await hub.replay(channel, after_v, latest=upto_v)
    if logged is None:
        return None
    out = []
    for data in logged:
        envelope = unpack(data)
        if envelope.v is not None and envelope.v <= upto_v:
            out.append((envelope.v, read(envelope)))
    if [v for v, _ in out] != list(range(after_v + 1, upto_v + 1)):
        return None
    return out
