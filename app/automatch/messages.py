"""Automatch's messages on the lobby socket (docs/protocol.md §7.1): a seek and its cancelling, their answers,
``seeking``, ``paired`` and the house bot's offer, declared beside automatch, and what ``seeking`` and
``paired`` hold. :mod:`app.protocol` assembles the lobby socket from these, the lobby's own
(:mod:`app.lobby.messages`) and moderation's."""

from __future__ import annotations

from typing import Any, Literal

from app.automatch.pairing import PairTerms, Seeker
from app.automatch.preferences import SeekPreferences
from app.lobby.views import NO_RANKS, Ranks, game_summary, game_url
from app.store.repositories.games import GameWithPlayers
from app.transport.messages import ClientId, ClientMessageBase, Reply, ServerMessage

# ---- lobby socket, client -> server ------------------------------------------------------------------


class Seek(SeekPreferences):
    """Play now: look for an opponent with these preferences (replaces the sender's earlier seek)."""

    t: Literal["seek"]
    id: ClientId


class SeekCancel(ClientMessageBase):
    t: Literal["seek_cancel"]


# ---- lobby socket, server -> client ------------------------------------------------------------------


class SeekAck(Reply):
    t: Literal["ack"] = "ack"
    seek_id: str


class SeekCancelAck(Reply):
    t: Literal["ack"] = "ack"
    cancelled: bool


class Seeking(ServerMessage):
    t: Literal["seeking"] = "seeking"
    seek: dict[str, Any]


class SeekCancelled(ServerMessage):
    t: Literal["seek_cancelled"] = "seek_cancelled"
    reason: Literal["cancelled", "unavailable"]


class Paired(ServerMessage):
    _omitted_when_none = ("speed", "nigiri", "seeks")
    t: Literal["paired"] = "paired"
    game_id: str | None
    url: str | None
    game: dict[str, Any] | None
    speed: str | None = None
    nigiri: bool | None = None
    seeks: list[str] | None = None


class BotOffer(ServerMessage):
    t: Literal["bot_offer"] = "bot_offer"
    seeks: list[str]
    bot: dict[str, Any]  # {id, name, rank}
    challenge: dict[str, Any]


# ---- what the messages hold ----------------------------------------------------------------------------


def seek_view(seeker: Seeker) -> dict[str, Any]:
    return {"id": seeker.seek_id, "since": seeker.since, **seeker.prefs.model_dump()}


def paired_message(row: GameWithPlayers, agreed: PairTerms | None, seeks: list[str], ranks: Ranks = NO_RANKS) -> dict[str, Any]:
    """``paired`` for the game in ``row`` (``agreed``: the terms, when a pairing made it; ``seeks``: the seeks it
    ends; ``ranks`` shown beside the names)."""
    return Paired(
        game_id=row.game.id,
        url=game_url(row.game.id),
        game=game_summary(row, ranks=ranks),
        speed=None if agreed is None else agreed.speed,
        nigiri=None if agreed is None else agreed.nigiri,
        seeks=seeks,
    ).wire()
