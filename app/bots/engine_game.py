"""A game put into a GTP engine, and a move asked of the fallback engine when the bot's own overran its budget.

The bot's engine is stopped when it has not answered within the move's budget and grace (``app/bots/clocks.py``).
The fallback engine (a faster one, e.g. GNU Go at level 0) is started for that one move: it is given the whole
game and asked for the move within what is left before the flag. The next move starts a fresh engine of the
bot's own and replays the game into it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from app.bots import clocks
from app.bots.gtp import Engine, GtpEngine, GtpError
from app.bots.position import GameMove, Position
from app.rules.coords import to_gtp

FALLBACK_MIN_SECONDS = 1.0  # the least time before the flag worth asking the fallback engine for a move
LogLine = Callable[..., Any]


async def load_game(engine: GtpEngine, pos: Position, held: list[GameMove], logline: LogLine) -> None:
    """Bring ``engine`` from ``held`` (a start of the game's moves; empty: set the game up) to every move."""
    if not held:
        await engine.send(f"boardsize {pos.size}", timeout=10)
        await engine.send("clear_board", timeout=10)
        await engine.send(f"komi {pos.komi}", timeout=5)
        await engine.send(clocks.time_settings(pos.time_control), timeout=5)
        if pos.handicap_points:
            vertices = " ".join(to_gtp(p, pos.size) for p in pos.handicap_points)
            await engine.send(f"set_free_handicap {vertices}", timeout=10)
    for colour, point in pos.moves[len(held) :]:
        vertex = "pass" if point is None else to_gtp(point, pos.size)
        try:
            await engine.send(f"play {'black' if colour == 'B' else 'white'} {vertex}", timeout=10)
        except GtpError as exc:
            # The server's rules allowed what the engine's do not (e.g. suicide): the engine's board
            # differs from here on, and it plays on as best it can.
            logline("the engine refused %s %s: %s", colour, vertex, exc)


async def fallback_move(
    command: str | None, pos: Position, colour: str, left: float, think: float, why: GtpError, logline: LogLine
) -> str | None:
    """The fallback engine's answer to ``genmove colour`` within ``left`` seconds; None: pass instead."""
    if not command or left < FALLBACK_MIN_SECONDS:
        logline("no move within the budget of %.1f s (%s): passing", think, why)
        return None
    logline("no move within the budget of %.1f s (%s): asking the fallback engine", think, why)
    began = time.monotonic()
    engine: Engine | None = None
    try:
        engine = await Engine.start(command)
        await load_game(engine, pos, [], logline)
        wait = min(left - (time.monotonic() - began), max(think, FALLBACK_MIN_SECONDS))
        answer = (await engine.send(f"genmove {colour}", timeout=max(clocks.MIN_THINK, wait))).upper()
    except (GtpError, OSError) as exc:
        logline("the fallback engine gave no move either (%s): passing", exc)
        return None
    finally:
        if engine is not None:
            await engine.close()
    logline("%s from the fallback engine in %.1f s", answer, time.monotonic() - began)
    return answer
