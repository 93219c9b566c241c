"""What the engine is told about the clock, how long a move may take, and when the bridge stops waiting.

GTP knows two commands: ``time_settings main byo_yomi_time byo_yomi_stones`` (Canadian overtime; a
``byo_yomi_time`` of 0 means absolute time) and ``time_left colour seconds stones``. Tengen's systems map so:

- absolute: ``main 0 0``; Fischer: the same (GTP has no increment: the engine is told the time it has now,
  which grows by the increment each move, before every move);
- byo-yomi (and the Chinese countdown, byo-yomi with 60-second periods): ``main period 1`` (a period is
  Canadian overtime of one stone; the periods after the first are a reserve the engine is not told of, so it
  never plans on spending them);
- Canadian: ``main period stones``;
- simple (a fixed time per move): ``0 per_move 1``;
- none: ``0 1 0`` (GTP's "no time limit").

**Each move has a budget drawn from the clock** (:func:`think_seconds`), the time a player keeping to the
clock's pace would take, not all the time there is:

- main time is shared among the moves the bot still expects to play: half of what is left of a typical game
  on that board (``TYPICAL_GAME_MOVES``), never fewer than a sixth of a typical game, so the main time lasts
  the game;
- plus a share of the overtime each move is sure of: half a byo-yomi period, half of a Canadian period's
  share per stone, most of a Fischer increment (it comes back after the move);
- in overtime: half the byo-yomi period, or the Canadian period left shared among its stones left; simple:
  half the time per move;
- correspondence and untimed games: the bridge's ``untimed_limit`` (the clock gives no pace to keep);
- never more than ``max_think`` (the bot's own pace: a house bot plays at the speed of its level), never less
  than ``MIN_THINK``, and never past the flag.

The bridge waits for the engine for the budget and a grace (``grace_seconds``). An engine that has not
answered by then is stopped, and the bridge asks its fallback engine (a faster one, e.g. GNU Go at level 0)
for the move within what is left before the flag, or passes if there is none or it fails too. The bridge
never loses on time through its own overhead: every limit keeps ``margin`` seconds back from the clock (the
network, the server's lag quota and the bridge's own work fit in it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.bots.declaration import clock_system

MIN_THINK = 0.2  # seconds: never ask for an answer faster than this
# Moves in a typical game (both players) by board size; other sizes: 0.65 * size * size.
TYPICAL_GAME_MOVES = {9: 60, 13: 120, 19: 230}
OVERTIME_SHARE = 0.5  # of a byo-yomi period (or a Canadian share per stone) spent on one move
INCREMENT_SHARE = 0.8  # of a Fischer increment spent on the move it comes with
COUNTDOWN_PERIOD = 60.0  # the Chinese countdown's periods
GRACE_SHARE = 0.25  # the engine is stopped this share of its budget after the budget...
MIN_GRACE = 0.5  # ...but never sooner than this many seconds after it


def time_settings(time_control: dict[str, Any]) -> str:
    kind = clock_system(time_control)
    if kind == "byoyomi":
        return f"time_settings {int(time_control['main'])} {int(_period_time(time_control))} 1"
    if kind == "canadian":
        return f"time_settings {int(time_control['main'])} {int(time_control['period_time'])} {int(time_control['stones'])}"
    if kind in ("absolute", "fischer"):
        return f"time_settings {int(time_control['main'])} 0 0"
    if kind == "simple" and not time_control.get("correspondence"):
        return f"time_settings 0 {int(time_control['per_move'])} 1"
    return "time_settings 0 1 0"


def _period_time(time_control: dict[str, Any], clock: dict[str, Any] | None = None) -> float:
    if time_control.get("kind") == "chinese_countdown":
        return COUNTDOWN_PERIOD
    return float((clock or {}).get("period_time") or time_control.get("period_time") or 0)


def moves_left(board_size: int, moves_played: int) -> float:
    """The moves this bot still expects to play in the game."""
    typical = TYPICAL_GAME_MOVES.get(board_size, 0.65 * board_size * board_size)
    return max(typical / 6, (typical - moves_played) / 2)


def grace_seconds(think: float) -> float:
    return max(MIN_GRACE, think * GRACE_SHARE)


@dataclass(frozen=True)
class Budget:
    time_left: str | None  # the GTP command, None when untimed
    think: float  # seconds this move should take: the budget drawn from the clock
    wait: float  # seconds the bridge waits for the engine: the budget and a grace, never past the flag
    deadline: float  # seconds before the flag (less the margin): a fallback move must come within it


def budget(
    time_control: dict[str, Any],
    clock: dict[str, Any] | None,
    color: str,
    elapsed: float,
    margin: float,
    untimed_limit: float,
    *,
    board_size: int = 19,
    moves_played: int = 0,
    max_think: float | None = None,
) -> Budget:
    """The ``time_left`` to send, the move's budget and the bridge's limits, from the player's CLOCKS entry as
    the server last reported it and the seconds ``elapsed`` since (the clock has been running for us since then)."""
    tell, deadline = _flag(time_control, clock, color, elapsed, margin, untimed_limit)
    think = think_seconds(time_control, clock, elapsed, board_size, moves_played, untimed_limit)
    if max_think is not None:
        think = min(think, max_think)
    think = max(MIN_THINK, min(think, deadline))
    return Budget(tell, think, max(MIN_THINK, min(deadline, think + grace_seconds(think))), deadline)


def think_seconds(
    time_control: dict[str, Any],
    clock: dict[str, Any] | None,
    elapsed: float,
    board_size: int,
    moves_played: int,
    untimed_limit: float,
) -> float:
    """The budget of this move drawn from the clock (before the bot's own cap and the flag)."""
    kind = clock_system(time_control)
    if clock is None or kind in ("none", "None") or time_control.get("correspondence"):
        return untimed_limit
    main = max(0.0, float(clock.get("main") or 0.0) - elapsed)
    if kind == "simple":
        return main * OVERTIME_SHARE
    share = main / moves_left(board_size, moves_played)
    if kind == "absolute":
        return share
    if kind == "fischer":
        return share + INCREMENT_SHARE * float(time_control.get("increment") or 0)
    period_time = _period_time(time_control, clock)
    if kind == "canadian":
        stones = max(1, int(time_control.get("stones") or 1))
        if main > 0:
            return share + OVERTIME_SHARE * period_time / stones
        overrun = max(0.0, elapsed - float(clock.get("main") or 0.0))
        period_left = max(0.0, float(clock.get("period_left") or period_time) - overrun)
        return period_left / max(1, int(clock.get("stones") or stones))
    if main > 0:  # byo-yomi
        return share + OVERTIME_SHARE * period_time
    return OVERTIME_SHARE * period_time


def _flag(
    time_control: dict[str, Any], clock: dict[str, Any] | None, color: str, elapsed: float, margin: float, untimed_limit: float
) -> tuple[str | None, float]:
    """The ``time_left`` command and the seconds before the flag, less the margin."""
    kind = clock_system(time_control)
    if kind in (None, "none", "None") or clock is None:
        return None, untimed_limit
    main = max(0.0, float(clock.get("main") or 0.0) - elapsed)
    overrun = max(0.0, elapsed - float(clock.get("main") or 0.0))  # time already taken from the period
    if kind in ("absolute", "fischer", "simple"):
        usable = main - margin
        stones = 1 if kind == "simple" else 0
        return f"time_left {color} {max(0, int(usable))} {stones}", max(MIN_THINK, usable)
    period_time = _period_time(time_control, clock)
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
    return tell, max(MIN_THINK, usable)
