"""What a room stores of a game to rebuild its authority (configuration, creation time, action log)."""

from __future__ import annotations

from typing import Any

from app.games.authority import GameAuthority


def stored(auth: GameAuthority) -> dict[str, Any]:
    return {"config": auth.config.to_dict(), "created_at": auth.created_at, "log": list(auth.log)}


def from_stored(state: dict[str, Any]) -> GameAuthority:
    return GameAuthority.replay(state["config"], state["created_at"], state["log"])
