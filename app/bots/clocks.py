"""What the engine is told about the clock, and how long the bridge lets it think.

GTP knows two commands: ``time_settings main byo_yomi_time byo_yomi_stones`` (Canadian overtime; a
``byo_yomi_time`` of 0 means absolute time) and ``time_left colour seconds stones``. Tengen's systems map so:

- absolute: ``main 0 0``; Fischer: the same (GTP has no increment: the engine is told the time it has now,
  which grows by the increment each move, before every move);
- byo-yomi: ``main period 1`` (a period is Canadian overtime of one stone; the periods after the first are a
  reserve the engine is not told of, so it never plans on spending them);
- Canadian: ``main period stones``;
- none: ``0 1 0`` (GTP's "no time limit").

The bridge never loses on time through its own overhead: the engine is told ``margin`` seconds less than it
has (the network, the server's lag quota and the bridge's own work fit in it), and if it still has not
answered when that time is up the bridge stops waiting and plays a fallback (a pass) in time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MIN_THINK = 0.2  # seconds: never ask for an answer faster than this


def time_settings(time_control: dict[str, Any]) -> str:
    kind = time_control.get("kind")
    if kind == "byoyomi":
        return f"time_settings {int(time_control['main'])} {int(time_control['period_time'])} 1"
    if kind == "canadian":
        return f"time_settings {int(time_control['main'])} {int(time_control['period_time'])} {int(time_control['stones'])}"
    if kind in ("absolute", "fischer"):
        return f"time_settings {int(time_control['main'])} 0 0"
    return "time_settings 0 1 0"


@dataclass(frozen=True)
class Budget:
    time_left: str | None  # the GTP command, None when untimed
    deadline: float  # seconds the bridge waits for the engine's answer


def budget(
    time_control: dict[str, Any], clock: dict[str, Any] | None, color: str, elapsed: float, margin: float, untimed_limit: float
) -> Budget:
    """The ``time_left`` to send and the bridge's own deadline, from the player's CLOCKS entry as the server
    last reported it and the seconds ``elapsed`` since (the clock has been running for us since then)."""
    kind = time_control.get("kind")
    if kind in (None, "none") or clock is None:
        return Budget(None, untimed_limit)
    main = max(0.0, float(clock.get("main") or 0.0) - elapsed)
    overrun = max(0.0, elapsed - float(clock.get("main") or 0.0))  # time already taken from the period
    if kind in ("absolute", "fischer"):
        usable = main - margin
        return Budget(f"time_left {color} {max(0, int(usable))} 0", max(MIN_THINK, min(usable, untimed_limit)))
    period_time = float(clock.get("period_time") or time_control.get("period_time") or 0)
    period_left = float(clock["period_left"]) if clock.get("period_left") is not None else period_time
    if main > 0:
        period_left = period_time if clock.get("period_left") is None else period_left
        usable = main + period_left - margin
        tell = f"time_left {color} {max(0, int(main - margin))} 0" if main > margin else None
    else:
        period_left = max(0.0, period_left - overrun)
        usable = period_left - margin
        tell = None
    if kind == "canadian":
        stones = int(clock.get("stones") or time_control.get("stones") or 1)
        if tell is None:
            tell = f"time_left {color} {max(0, int(period_left - margin))} {stones}"
        if main <= 0:  # this period must cover `stones` moves: this one gets its share
            usable = period_left / max(1, stones) - margin / max(1, stones)
    elif tell is None:
        tell = f"time_left {color} {max(0, int(period_left - margin))} 1"
    return Budget(tell, max(MIN_THINK, min(usable, untimed_limit)))
