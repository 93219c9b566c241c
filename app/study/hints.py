"""Engine hints for an analysis board: a GTP engine's top moves at a position.

The engine is a child process spoken to through pipes (``app.bots.gtp``), so nothing of its work runs on
the event loop. Each request starts a fresh engine, sets the position up (setup stones, then every move of
the line), asks for the best moves of the side to play and closes it; the whole exchange has a time limit,
and the engine is killed when it overruns. At most ``engines`` run at once on an instance: a request beyond
that is answered ``busy`` rather than queued. GNU Go answers ``top_moves_black``/``top_moves_white`` with
moves and values; any other GTP engine is asked ``reg_genmove`` (one move, no value).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from app.bots.gtp import Engine, GtpError
from app.bots.house import find_gnugo
from app.errors import ServiceError
from app.rules.coords import from_gtp, to_gtp
from app.settings import Settings
from app.study.tree import Setup

log = logging.getLogger(__name__)

TOP = 5  # moves returned at most


def hint_command(settings: Settings) -> str | None:
    """The configured engine (``TENGEN_HINT_ENGINE``), else GNU Go at level 8 when it is installed."""
    if settings.hint_engine:
        return settings.hint_engine
    gnugo = find_gnugo(settings.gnugo)
    return None if gnugo is None else f"{gnugo} --mode gtp --level 8"


def unavailable(message: str) -> ServiceError:
    return ServiceError("hints_unavailable", message, 503)


class HintEngine:
    def __init__(self, command: str | None, engines: int = 2, seconds: float = 20.0) -> None:
        self.command = command  # None: no engine configured or found
        self.seconds = seconds
        self.engines = engines
        self._running = 0

    async def top_moves(self, setup: Setup, moves: list[tuple[str, tuple[int, int] | None]]) -> dict[str, Any]:
        """``{"to_move": "B", "moves": [{"point": [x, y] | None, "value": float | None}, ...]}``."""
        if self.command is None:
            raise unavailable("No engine is installed on this server.")
        if self._running >= self.engines:
            raise ServiceError("study_busy", "Every engine is busy; try again in a moment.", 503)
        self._running += 1
        engine: Engine | None = None
        try:
            engine = await Engine.start(self.command)
            return await asyncio.wait_for(self._ask(engine, setup, moves), self.seconds)
        except TimeoutError:
            raise unavailable(f"The engine took longer than {self.seconds:.0f} s.") from None
        except (GtpError, OSError) as exc:
            log.warning("engine hints failed: %s", exc)
            raise unavailable("The engine could not answer.") from None
        finally:
            self._running -= 1
            if engine is not None:
                with contextlib.suppress(Exception):
                    await engine.kill()

    async def _ask(self, engine: Engine, setup: Setup, moves: list[tuple[str, tuple[int, int] | None]]) -> dict[str, Any]:
        size = setup.size
        await engine.send(f"boardsize {size}")
        await engine.send("clear_board")
        await engine.send(f"komi {setup.komi}")
        for color, stones in (("B", setup.black), ("W", setup.white)):
            for stone in stones:
                await engine.send(f"play {color} {to_gtp(stone, size)}")
        to_move = setup.to_move or ("W" if setup.handicap >= 2 and not setup.white else "B")
        for color, point in moves:
            await engine.send(f"play {color} {'pass' if point is None else to_gtp(point, size)}")
            to_move = "W" if color == "B" else "B"
        colour_word = "black" if to_move == "B" else "white"
        try:
            answer = await engine.send(f"top_moves_{colour_word}")
        except GtpError:
            answer = await engine.send(f"reg_genmove {to_move}")
        return {"to_move": to_move, "moves": _parse(answer, size)}


def _parse(answer: str, size: int) -> list[dict[str, Any]]:
    words = answer.split()
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(words) and len(out) < TOP:
        word = words[i]
        value: float | None = None
        if i + 1 < len(words):
            with contextlib.suppress(ValueError):
                value = float(words[i + 1])
        i += 2 if value is not None else 1
        if word.lower() == "pass":
            out.append({"point": None, "value": value})
            continue
        if word.lower() == "resign":
            continue
        try:
            x, y = from_gtp(word, size)
        except ValueError:
            continue
        out.append({"point": [x, y], "value": value})
    return out
