"""Who may see an event. Every event the authority returns has a ``visibility``:

- ``"all"``: everyone in the room;
- ``"players"``: both players, not spectators;
- ``"B"`` / ``"W"``: that player only;
- ``"spectators"``: everyone but the players (spectator chat while the game runs).

An event not visible to a viewer may carry ``others``: the redacted event everybody else gets instead
(e.g. "White sealed a move" without the point). Without ``others`` they get ``{"t": "hidden"}``, so
event numbering has no holes.
"""

from __future__ import annotations

from typing import Any

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
