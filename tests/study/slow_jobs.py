"""Jobs for the worker tests (module-level, so a spawned worker process can import them)."""

import time

from app.study.tree import TreeError


def sleep_then(value: int, seconds: float) -> int:
    time.sleep(seconds)
    return value


def refuse(code: str) -> None:
    raise TreeError(code, "refused in the worker")
