"""Who may see an event. Every event the authority returns has a ``visibility``:

- ``"all"``: everyone in the room;
- ``"players"``: both players, not spectators;
- ``"B"`` / ``"W"``: that player only;
- ``"spectators"``: everyone but the players (spectator chat while the game runs).

An event not visible to a viewer may carry ``others``: the redacted event everybody else gets instead
(e.g. "White sealed a move" without the point). Without ``others`` they get ``{"t": "hidden"}``, so
event numbering has no holes.

This module is the one place that decides what each viewer sees: the authority's events (``event_for``), a
committed event with its version (``public`` / ``redacted`` / ``text_for``: stored fields starting with ``_``
never reach a client), and so the texts a hub envelope carries (app/live/envelope.py).
"""

from __future__ import annotations

from typing import Any

import orjson

VISIBILITIES = ("all", "players", "B", "W", "spectators")


def can_see(visibility: str, viewer: str | None) -> bool:
    if visibility == "all":
        return True
    if visibility == "players":
        return viewer in ("B", "W")
    if visibility == "spectators":
        return viewer not in ("B", "W")
    return viewer == visibility


def event_for(event: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The event as ``viewer`` (``"B"``, ``"W"`` or ``None`` for anyone else) receives it."""
    if can_see(event.get("visibility", "all"), viewer):
        return {k: v for k, v in event.items() if k not in ("visibility", "others")}
    return dict(event.get("others") or {"t": "hidden"})


def public(event: dict[str, Any], v: int) -> dict[str, Any]:
    """Committed event ``v`` as those who may see it receive it."""
    out = {k: val for k, val in event.items() if not k.startswith("_") and k not in ("visibility", "others")}
    out["v"] = v
    return out


def redacted(event: dict[str, Any], v: int) -> dict[str, Any]:
    """Committed event ``v`` as everybody else receives it."""
    out = dict(event.get("others") or {"t": "hidden"})
    out["v"] = v
    return out


def text_for(event: dict[str, Any], v: int, viewer: str | None) -> str:
    """Committed event ``v`` as the JSON text ``viewer`` receives."""
    message = public(event, v) if can_see(event.get("visibility", "all"), viewer) else redacted(event, v)
    return orjson.dumps(message).decode()
