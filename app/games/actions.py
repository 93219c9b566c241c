"""The actions a game takes: in which phases each is allowed, and how their fields are read."""

from __future__ import annotations

from typing import Any

from app.games.errors import GameError

Point = tuple[int, int]
Action = dict[str, Any]  # an action as a client (or the room) sent it: {"t": kind, ...}
Event = dict[str, Any]  # an event as the authority returns it, without ``v`` (see app.games.visibility)
Facts = dict[str, Any]  # what the room measured itself: lag, absent_since, dead, game_id

PHASES = ("playing", "scoring", "adjourned", "finished")
OFFER_KINDS = ("undo", "draw", "adjourn", "resume", "rematch")
SYSTEM = "system"  # the actor of actions the room takes on its own (tick, server_restart, abandoned)

# action -> phases in which it is allowed
PHASES_FOR: dict[str, tuple[str, ...]] = {
    "play": ("playing",),
    "pass": ("playing",),
    "resign": ("playing", "scoring", "adjourned"),
    "abort": ("playing",),
    "undo_request": ("playing",),
    "undo_accept": ("playing",),
    "undo_decline": ("playing",),
    "draw_offer": ("playing",),
    "draw_accept": ("playing",),
    "draw_decline": ("playing",),
    "toggle_dead": ("scoring",),
    "accept_score": ("scoring",),
    "resume_play": ("scoring",),
    "ask_engine": ("scoring",),
    "adjourn_offer": ("playing",),
    "adjourn_accept": ("playing",),
    "adjourn_decline": ("playing",),
    "seal": ("adjourned",),
    "resume_offer": ("adjourned",),
    "resume_accept": ("adjourned",),
    "resume_decline": ("adjourned",),
    "claim_victory": ("playing", "scoring"),
    "rematch_offer": ("finished",),
    "rematch_accept": ("finished",),
    "rematch_decline": ("finished",),
    "tick": PHASES,
    "server_restart": PHASES,
    "abandoned": ("playing", "scoring", "adjourned"),
    "conditional": ("playing",),
    "vacation": ("playing", "scoring", "adjourned"),
}
ACTIONS = tuple(PHASES_FOR)
SYSTEM_ACTIONS = ("tick", "server_restart", "abandoned", "vacation")


def point(value: Any) -> Point:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise GameError("bad_request", "'p' must be a point [x, y] of two whole numbers")


def number(value: Any, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GameError("bad_request", f"'{name}' must be a number")
    return float(value)
