"""What automatch tells a player: the shapes of ``seeking`` and ``paired`` (docs/protocol.md §7.1)."""

from __future__ import annotations

from typing import Any

from app.automatch.pairing import PairTerms, Seeker
from app.lobby.views import NO_RANKS, Ranks, game_summary, game_url
from app.store.repositories.games import GameWithPlayers
from app.protocol import Paired


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
