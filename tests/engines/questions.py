"""What the engine tests ask KataGo, and how they wait for the service's state to change."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from app.engines.analysis import Colour, Point, Position
from app.settings import Settings

WAIT_SECONDS = 120.0  # KataGo starting at nice 19 on a busy 2-core machine


def walls(komi: float = 7.5) -> Position:
    """9x9: a Black wall down column C, a White one down column G; Black to play."""
    moves: list[tuple[Colour, Point | None]] = []
    for y in range(9):
        moves += [("B", (2, y)), ("W", (6, y))]
    return Position(9, moves=tuple(moves), komi=komi)


def katago_settings(engines: Path, **changes: object) -> Settings:
    """The engine service on the tests' KataGo: the 9x9 buffer only, one analysis thread, a short measurement."""
    base: dict[str, object] = dict(
        env="test", katago=True, engines_dir=engines, katago_buffers=[9], katago_parallel=1, katago_measure_visits=2
    )
    return Settings(**{**base, **changes})  # type: ignore[arg-type]  # the settings' own validation checks the values


async def until(condition: Callable[[], bool], timeout: float = WAIT_SECONDS) -> None:
    """Until ``condition()`` holds (checked every 20 ms); TimeoutError after ``timeout`` seconds."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)
