"""The rows a committed game event writes beside itself: the move list, chat, and the game's status."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from app.lobby.my_games import turn_columns
from app.store.repositories.games import NewChat, NewEvent, NewMove

if TYPE_CHECKING:
    from app.games.authority import GameAuthority


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


def with_turn(new: list[NewEvent], auth: GameAuthority) -> list[NewEvent]:
    """Every commit's last row also stores whose turn it is and the game's next deadline (``games.to_move``,
    ``games.turn_deadline``, from ``turn_columns``: the lobby's "your turn" list reads them), as the authority
    stands after the events. Every commit, not those of some kinds: a period used up, a dead stone marked, a
    score accepted move the deadline without a move, and a list of kinds would go stale with the next kind."""
    last = new[-1]
    updates = {**(last.updates or {}), **turn_columns(auth)}
    # (not ``dataclasses.replace``: it reads the class's fields on every call, and every move comes here)
    return [
        *new[:-1],
        NewEvent(
            type=last.type,
            payload=last.payload,
            move=last.move,
            chat=last.chat,
            updates=updates,
            drop_moves_from=last.drop_moves_from,
        ),
    ]
