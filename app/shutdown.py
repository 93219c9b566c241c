"""Stopping the application: its parts closed one after another, each within a bound, the slow ones named.

A rolling restart must finish in a few seconds. The lifespan's shutdown closes the instance's parts in order
(the loops that act on their own first, then the rooms, whose committed events still go to the hub, then the
hub and the database pools). Each part gets at most ``STEP_SECONDS``: one that takes longer is logged with
its name and left behind (its task is cancelled once more) so that the next parts still close; the process is
ending anyway, and nothing a part could still be doing was promised to anyone (every acknowledged move was
committed before its ack).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger("tengen.shutdown")

STEP_SECONDS = 2.0
Step = tuple[str, Callable[[], Awaitable[object] | object]]


async def close_in_order(steps: list[Step], step_seconds: float = STEP_SECONDS) -> None:
    for name, close in steps:
        began = time.monotonic()
        try:
            result = close()
            if inspect.isawaitable(result):
                await _bounded(name, result, step_seconds)
        except Exception:  # the next parts still close
            log.exception("closing %s failed", name)
        took = time.monotonic() - began
        if took > step_seconds / 4:
            log.warning("closing %s took %.2f s", name, took)


async def _bounded(name: str, work: Awaitable[object], seconds: float) -> None:
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if task in done:
        task.result()
        return
    log.warning("closing %s did not end within %.1f s; left behind", name, seconds)
    task.cancel()
