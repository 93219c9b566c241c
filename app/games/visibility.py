"""What each viewer sees: the one place that decides it, for game events, chat lines and hub envelopes.

Every event the authority returns has a ``visibility``:

- ``"all"``: everyone in the room;
- ``"players"``: both players, not spectators;
- ``"B"`` / ``"W"``: that player only;
- ``"spectators"``: everyone but the players (spectator chat while the game runs).

An event not visible to a viewer may carry ``others``: the redacted event everybody else gets instead
(e.g. "White sealed a move" without the point). Without ``others`` they get ``{"t": "hidden"}``, so
event numbering has no holes. Stored fields starting with ``_`` never reach a client.

Used by the authority (``event_for``), the room's outbox (``split``: the texts a hub envelope carries), the game's
reading of a hub envelope (app/games/live/seats.py: ``stored``, ``choose``), catching up from the database
(``text_for``), the snapshot's and the HTTP chat pages (``chat_visible``), the chat filter of a viewer who blocks
someone or is blocked (``author_of``, ``hidden``), and the lobby socket of such a viewer (``hides_challenge``,
given the users its filter hides). A review has no seats: every follower gets the one text its events carry, and
only the chat filter tells one viewer from another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from app.games.events import build

VISIBILITIES = ("all", "players", "B", "W", "spectators")


def can_see(visibility: str, viewer: str | None) -> bool:
    if visibility == "all":
        return True
    if visibility == "players":
        return viewer in ("B", "W")
    if visibility == "spectators":
        return viewer not in ("B", "W")
    return viewer == visibility


def hidden(v: int | None = None) -> dict[str, Any]:
    """The placeholder a viewer gets for an event it may not see (with its version, once committed)."""
    return build("hidden", {} if v is None else {"v": v})


def event_for(event: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The event as ``viewer`` (``"B"``, ``"W"`` or ``None`` for anyone else) receives it."""
    if can_see(event.get("visibility", "all"), viewer):
        return {k: v for k, v in event.items() if k not in ("visibility", "others")}
    return dict(event.get("others") or hidden())


def public(event: dict[str, Any], v: int) -> dict[str, Any]:
    """Committed event ``v`` as those who may see it receive it."""
    out = {k: val for k, val in event.items() if not k.startswith("_") and k not in ("visibility", "others")}
    out["v"] = v
    return out


def redacted(event: dict[str, Any], v: int) -> dict[str, Any]:
    """Committed event ``v`` as everybody else receives it."""
    out = dict(event.get("others") or hidden())
    out["v"] = v
    return out


def text_for(event: dict[str, Any], v: int, viewer: str | None) -> str:
    """Committed event ``v`` as the JSON text ``viewer`` receives."""
    message = public(event, v) if can_see(event.get("visibility", "all"), viewer) else redacted(event, v)
    return orjson.dumps(message).decode()


@dataclass(frozen=True, slots=True)
class Split:
    """A committed event cut by who sees what: the texts every recipient gets unchanged."""

    visibility: str
    visible: bytes  # as those who may see it receive it
    others: bytes  # as everybody else receives it; empty when everybody sees ``visible``
    private: dict[str, Any]  # the stored fields no client sees (``_...``, ``others``)


def split(event: dict[str, Any], v: int) -> Split:
    """Committed event ``v`` serialised once for those who may see it and once for everybody else."""
    visibility = event.get("visibility", "all")
    others = b"" if visibility == "all" else orjson.dumps(redacted(event, v))
    private = {k: val for k, val in event.items() if k.startswith("_") or k == "others"}
    return Split(visibility, orjson.dumps(public(event, v)), others, private)


def stored(visible: dict[str, Any], visibility: str, private: dict[str, Any]) -> dict[str, Any]:
    """The stored payload back from what ``split`` made of it (``visible`` parsed; its ``v`` is dropped)."""
    payload = {k: val for k, val in visible.items() if k != "v"}
    if visibility != "all":
        payload["visibility"] = visibility
    payload.update(private)
    return payload


def choose(visibility: str, viewer: str | None, visible: str, others: str) -> str:
    """Of an event's two texts, the one ``viewer`` receives (no ``others``: everybody gets ``visible``)."""
    if not others or can_see(visibility, viewer):
        return visible
    return others


def chat_visible(line: dict[str, Any], viewer: str | None, finished: bool) -> bool:
    """Whether ``viewer`` reads a stored chat line in a snapshot or a page of older chat: once the game is
    over, every line (the spectators' chat is kept from the players only while the game runs)."""
    return finished or can_see(line.get("visibility", "all"), viewer)


def author_of(line: dict[str, Any]) -> object:
    """The user id of a chat line's author (None when the line has none), for the chat filter of blocks."""
    return (line.get("from") or {}).get("id")


def hides_challenge(message: dict[str, Any], hidden: frozenset[int]) -> bool:
    """Whether a lobby message announces a challenge by one of ``hidden`` (the users a viewer blocked or was
    blocked by, as the viewer's chat filter holds them), which that viewer's lobby socket does not send."""
    if message.get("t") != "challenge_created":
        return False
    return (message["challenge"].get("creator") or {}).get("id") in hidden
