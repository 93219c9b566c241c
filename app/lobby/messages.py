"""The lobby's own messages on the lobby socket (docs/protocol.md §7): the ping, the snapshot, challenges and
games starting, finishing and changing. Automatch's messages on the same socket are
:mod:`app.automatch.messages`, moderation's :mod:`app.moderation.messages`; :mod:`app.protocol` assembles
the socket from these. Lobby messages travel between instances as the objects ``wire`` makes
(app/lobby/live/broadcaster.py); a private one carries ``_to`` beside them (``to_users``), which no client sees."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from app.transport.messages import ClientId, ServerMessage

# ---- lobby socket, client -> server ------------------------------------------------------------------


class LobbyPing(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    t: Literal["ping"]
    id: ClientId | None = None


# ---- lobby socket, server -> client (docs/protocol.md §7) -------------------------------------------------


class LobbySnapshot(ServerMessage):
    t: Literal["snapshot"] = "snapshot"
    challenges: list[dict[str, Any]]
    incoming: list[dict[str, Any]]
    games: list[dict[str, Any]]
    seek: dict[str, Any] | None
    my_games: list[dict[str, Any]]
    sanction: dict[str, Any] | None = None  # the user's suspension or ban in force: account_sanctioned's fields
    # The live game (not correspondence) this user is playing now, or None: where a search that ended while this
    # socket was away (its ``paired`` lost) has led; the client goes there rather than seeking again.
    playing: str | None = None


class LobbyPong(ServerMessage):
    t: Literal["pong"] = "pong"
    id: str | None


class LobbyResync(ServerMessage):
    """This socket fell behind and lost messages: reload the lobby."""

    t: Literal["resync"] = "resync"


class ChallengeCreated(ServerMessage):
    t: Literal["challenge_created"] = "challenge_created"
    challenge: dict[str, Any]


class ChallengeRemoved(ServerMessage):
    _omitted_when_none = ("decline_reason",)
    t: Literal["challenge_removed"] = "challenge_removed"
    id: str
    reason: str
    decline_reason: str | None = None


class GameStarted(ServerMessage):
    _omitted_when_none = ("challenge_id", "rematch_of", "automatch")
    t: Literal["game_started"] = "game_started"
    challenge_id: str | None = None
    rematch_of: str | None = None
    automatch: bool | None = None
    game_id: str
    url: str
    game: dict[str, Any]


class GameFinished(ServerMessage):
    t: Literal["game_finished"] = "game_finished"
    game_id: str
    result: str | None


class MyGame(ServerMessage):
    """One of the player's own games changed (to both players only)."""

    t: Literal["my_game"] = "my_game"
    game: dict[str, Any]
