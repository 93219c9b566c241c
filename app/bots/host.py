"""``tengen house-bots``: every house bot of a server in one process, each bot a ``Bridge`` of its own.

A bridge spends nearly all its time waiting on sockets (the engines are other processes: GNU Go's per game,
or the server's KataGo), yet as a process of its own each costs a whole Python interpreter with httpx,
websockets and the rules engine loaded: about 75 MB, so the fourteen house bots held about a gigabyte of
memory between them. Here they share one interpreter: each bot is one task on one event loop, with its own
token, HTTP client, lobby socket and game players, exactly as ``tengen bot`` runs one (``Bridge.serve``).

``tengen serve`` starts this process (``app/bots/house.py``) and writes the bots to its standard input as JSON
(a list of ``Seat``): the tokens never appear on a command line or in the environment. A bridge that fails is
started again after ``RESTART_DELAY``; one whose token the server refuses (another instance started house
bots on the same database and replaced it) is left stopped, and the process exits with ``REFUSED`` only when
every bot was refused. SIGTERM, SIGINT or the end of the server that started it stops every bridge cleanly.

Each bot's lines go to ``<log dir>/<bot>.log`` (the bot's name is carried by a context variable, which every
task a bridge starts inherits); the process's own lines go to its standard error.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from app.bots.bridge import REFUSED, Bridge, stop_on_signals

log = logging.getLogger("tengen.house_bots")

RESTART_DELAY = 5.0  # seconds before a bridge that failed is started again

BOT: contextvars.ContextVar[str | None] = contextvars.ContextVar("house_bot", default=None)


@dataclass(frozen=True)
class Seat:
    """One house bot to play: its account's token, its engine (empty for a KataGo step) and the bridge's options."""

    name: str
    token: str
    engine: str = ""
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def read_seats(text: str) -> list[Seat]:
    """The bots written to the process's standard input (ValueError when it is not a list of seats)."""
    data = json.loads(text)
    if not isinstance(data, list) or not data:
        raise ValueError("expected a non-empty JSON list of house bots")
    return [
        Seat(str(item["name"]), str(item["token"]), str(item.get("engine", "")), dict(item.get("options", {}))) for item in data
    ]


class BotLogFiles(logging.Handler):
    """Sends each record to the log file of the bot whose task wrote it; the others to ``fallback``."""

    def __init__(self, log_dir: Path, fallback: logging.Handler) -> None:
        super().__init__()
        self.log_dir = log_dir
        self.fallback = fallback
        self.files: dict[str, logging.FileHandler] = {}

    def emit(self, record: logging.LogRecord) -> None:
        name = BOT.get()
        if name is None:
            self.fallback.handle(record)
            return
        handler = self.files.get(name)
        if handler is None:
            handler = logging.FileHandler(self.log_dir / f"{name}.log", encoding="utf-8")
            handler.setFormatter(self.formatter)
            self.files[name] = handler
        handler.handle(record)

    def close(self) -> None:
        for handler in self.files.values():
            handler.close()
        self.fallback.close()
        super().close()


class Host:
    """Runs the bridges of ``seats`` against ``server`` until stopped."""

    def __init__(self, server: str, seats: list[Seat]) -> None:
        self.server = server
        self.seats = seats
        self.bridges: dict[str, Bridge] = {}
        self.stopping = asyncio.Event()

    async def run(self) -> int:
        watcher = stop_on_signals(self.stop)
        try:
            codes = await asyncio.gather(*(self._keep(seat) for seat in self.seats))
        finally:
            if watcher is not None:
                watcher.cancel()
        return REFUSED if all(code == REFUSED for code in codes) else 0

    def stop(self) -> None:
        if not self.stopping.is_set():
            log.info("stopping the house bots: closing engines and sockets (games go on on the server)")
            self.stopping.set()
            for bridge in self.bridges.values():
                bridge.stop()

    async def _keep(self, seat: Seat) -> int:
        """One bot's bridge, started again when it fails; its exit code once stopped or refused."""
        BOT.set(seat.name)  # this task's context: every task the bridge starts inherits it (the log files)
        while not self.stopping.is_set():
            try:
                bridge = Bridge(self.server, seat.token, seat.engine, **seat.options)
            except (TypeError, ValueError) as exc:  # a seat this bridge cannot take: starting it again cannot help
                log.error("house bot %s: %s", seat.name, exc)
                return REFUSED
            self.bridges[seat.name] = bridge
            try:
                code = await bridge.serve()
            except Exception:
                log.exception("house bot %s failed", seat.name)
                code = None
            if code == REFUSED:
                log.error("house bot %s: the server refused its token; not starting it again (house bots elsewhere?)", seat.name)
                return REFUSED
            if self.stopping.is_set():
                break
            log.warning("house bot %s stopped (%s); starting it again", seat.name, code)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), RESTART_DELAY)
        return 0


def run_host(server: str, log_dir: Path | None, log_level: str = "info") -> int:
    """``tengen house-bots``: the seats from standard input, each bot's log in ``log_dir`` (none: standard error)."""
    try:
        seats = read_seats(sys.stdin.read())
    except (KeyError, TypeError, ValueError) as exc:
        print(f"tengen house-bots: the bots on standard input: {exc!r}", file=sys.stderr)
        return REFUSED  # the same input again would fail the same way: not restarted
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s")
    stderr = logging.StreamHandler()
    stderr.setFormatter(formatter)
    handler: logging.Handler = stderr
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
        handler = BotLogFiles(log_dir, stderr)
    handler.setFormatter(formatter)
    logging.basicConfig(level=log_level.upper(), handlers=[handler])
    logging.getLogger("httpx").setLevel(logging.WARNING)
    log.info("house bots: %s", ", ".join(seat.name for seat in seats))
    return asyncio.run(Host(server, seats).run())
