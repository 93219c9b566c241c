"""Measuring WebSocket clients for ``room_bench.py``: the same code talks to Tengen and to the floors.

A ``Probe`` reads every message of its socket on its own task. Acks and errors resolve the future of the
message they answer; versioned messages (anything with a ``v`` that is not an ack or a snapshot) have their
first arrival time recorded, so the delay from a move's send to its delivery can be computed afterwards.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import orjson
import websockets
from websockets.asyncio.client import connect

_ids = itertools.count(1)
clock = time.perf_counter


class Probe:
    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.arrivals: dict[int, float] = {}
        self.received = 0
        self.last_received = clock()
        self.task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, url: str, cookie: str | None = None) -> "Probe":
        headers = {"Cookie": cookie} if cookie else None
        connection = await connect(url, additional_headers=headers, max_size=2**22, ping_interval=None, open_timeout=60)
        return cls(connection)

    async def _read(self) -> None:
        try:
            async for raw in self.connection:
                now = clock()
                self.received += 1
                self.last_received = now
                message = orjson.loads(raw)
                t = message.get("t")
                if t in ("ack", "error"):
                    future = self.pending.pop(message.get("id") or "", None)
                    if future is not None and not future.done():
                        future.set_result(message)
                elif t != "snapshot":
                    v = message.get("v")
                    if v is not None and v not in self.arrivals:
                        self.arrivals[v] = now
        except websockets.ConnectionClosed:
            pass
        finally:
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("socket closed"))

    async def request(self, message: dict[str, Any], timeout: float = 30.0) -> tuple[dict[str, Any], float, float]:
        """Send ``message`` with a fresh id; return (its ack or error, send time, answer time)."""
        message = dict(message)
        message["id"] = f"b{next(_ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[message["id"]] = future
        sent = clock()
        await self.connection.send(orjson.dumps(message).decode())
        answer = await asyncio.wait_for(future, timeout)
        return answer, sent, clock()

    async def close(self) -> None:
        await self.connection.close()
        self.task.cancel()
        try:
            await self.task
        except (asyncio.CancelledError, Exception):
            pass


async def open_many(url: str, count: int, batch: int = 50) -> list[Probe]:
    """``count`` anonymous sockets to ``url``, opened ``batch`` at a time."""
    probes: list[Probe] = []
    while len(probes) < count:
        n = min(batch, count - len(probes))
        probes.extend(await asyncio.gather(*(Probe.open(url) for _ in range(n))))
    return probes


async def settle(probes: list[Probe], quiet: float = 1.0, limit: float = 120.0) -> None:
    """Wait until none of ``probes`` has received anything for ``quiet`` seconds."""
    deadline = clock() + limit
    while clock() < deadline:
        newest = max((p.last_received for p in probes), default=0.0)
        if clock() - newest >= quiet:
            return
        await asyncio.sleep(quiet / 4)


async def wait_delivered(probes: list[Probe], v: int, timeout: float = 30.0) -> float:
    """The time the last of ``probes`` received version ``v``."""
    deadline = clock() + timeout
    while True:
        missing = [p for p in probes if v not in p.arrivals]
        if not missing:
            return max(p.arrivals[v] for p in probes)
        if clock() > deadline:
            raise TimeoutError(f"{len(missing)} of {len(probes)} listeners never received v={v}")
        await asyncio.sleep(0.001)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]
