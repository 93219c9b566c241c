"""A game's speed from its time control, for records and filters: blitz, live, correspondence or untimed.

The expected time of one player is the main time plus 100 moves' worth of the per-move time (the increment,
the byo-yomi period, a Canadian period shared by its stones): up to 10 minutes is blitz, up to 6 hours live,
beyond that correspondence. A time control marked ``"correspondence": true`` (docs/clocks.md) is
correspondence whatever its times; ``simple`` counts its ``per_move`` as the per-move time.
"""

from __future__ import annotations

from typing import Any

SPEEDS = ("blitz", "live", "correspondence", "untimed")
BLITZ_SECONDS = 600
LIVE_SECONDS = 6 * 3600


def speed(time_control: dict[str, Any]) -> str:
    kind = time_control.get("kind", "none")
    if kind == "none":
        return "untimed"
    if time_control.get("correspondence"):
        return "correspondence"
    main = float(time_control.get("main", 0))
    per_move = 0.0
    if kind == "simple":
        per_move = float(time_control.get("per_move", 0))
    elif kind == "fischer":
        per_move = float(time_control.get("increment", 0))
    elif kind == "byoyomi":
        per_move = float(time_control.get("period_time", 0))
    elif kind == "chinese_countdown":
        per_move = float(time_control.get("period_time", 60))
    elif kind == "canadian":
        per_move = float(time_control.get("period_time", 0)) / max(1, int(time_control.get("stones", 1)))
    expected = main + 100 * per_move
    if expected <= BLITZ_SECONDS:
        return "blitz"
    if expected <= LIVE_SECONDS:
        return "live"
    return "correspondence"
