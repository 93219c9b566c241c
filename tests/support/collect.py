"""Test helper: a hub subscriber that records what it receives and lets a test wait for it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

RESET = "RESET"
WAIT = 10.0  # generous bound on waiting for a delivery; never a speed assertion


class Collector:
    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.items: list[bytes | str] = []
        self.gate = gate  # when set, each delivery first waits for the gate to open
        self.entered = asyncio.Event()  # set once the first delivery has started
        self._changed = asyncio.Event()

    async def __call__(self, data: bytes) -> None:
        self.entered.set()
        if self.gate is not None:
            await self.gate.wait()
        self.items.append(data)
        self._changed.set()

    async def reset(self) -> None:
        self.items.append(RESET)
        self._changed.set()

    async def wait_for(self, predicate: Callable[[list[bytes | str]], bool], timeout: float = WAIT) -> None:
        async def loop() -> None:
            while not predicate(self.items):
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(loop(), timeout)

    async def wait_count(self, n: int, timeout: float = WAIT) -> None:
        await self.wait_for(lambda items: len(items) >= n, timeout)

    async def wait_item(self, item: bytes | str, timeout: float = WAIT) -> None:
        await self.wait_for(lambda items: item in items, timeout)
