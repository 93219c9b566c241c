"""The rows a committed game event writes beside itself: the move list, chat, and the game's status."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from app.store.repositories.games import NewChat, NewMove


def rows_for(event: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``NewEvent``: ``move``, ``chat``, ``updates`` and ``drop_moves_from``."""
    kind = event.get("t")
    out: dict[str, Any] = {}
    if kind in ("move", "pass"):
        point = event.get("p")
        out["move"] = NewMove(
            number=event["move_number"],
            color=event["color"],
            point=None if point is None else (point[0], point[1]),
            clock_after=event.get("clocks"),
        )
    elif kind == "undo":
        out["drop_moves_from"] = event["move_number"] + 1
        out["updates"] = {"move_count": event["move_number"]}
    elif kind == "phase":  # scoring, adjourned, playing again: the stored status follows every phase change
        out["updates"] = {"status": event["phase"]}
    elif kind == "chat":
        out["chat"] = NewChat(channel=event["channel"], user_id=event["from"]["id"], text=event["text"])
    elif kind == "game_over":
        result = event["result"]
        out["updates"] = {
            "status": "finished",
            "result": result["text"],
            "ended_by": result["reason"],
            "state": {"result": result},  # the full RESULT (score breakdown included) for the game's page
            "ended_at": datetime.fromtimestamp(event["server_time"], timezone.utc),
        }
    return out
