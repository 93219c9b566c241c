"""A GTP engine (GNU Go, KataGo, Leela Zero, ...) run as an asyncio subprocess: one command at a time.

Nothing here blocks the event loop: the engine is a child process spoken to through pipes, every command
has a time limit, and an engine that overruns it is killed (the caller starts a fresh one and replays the
game into it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
from typing import Protocol

log = logging.getLogger("tengen.bot.gtp")


class GtpError(Exception):
    """The engine answered ``? message`` (or died, or overran its time limit)."""


class GtpEngine(Protocol):
    """What the bridge needs of an engine: a GTP process (``Engine``) or one answered in process (``KataEngine``)."""

    @property
    def alive(self) -> bool: ...

    async def send(self, command: str, timeout: float = 30.0) -> str: ...

    async def close(self) -> None: ...

    async def kill(self) -> None: ...


class Engine:
    def __init__(self, process: asyncio.subprocess.Process, argv: list[str]) -> None:
        self.process = process
        self.argv = argv
        self._lock = asyncio.Lock()

    @classmethod
    async def start(cls, command: str) -> Engine:
        argv = shlex.split(command)
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl-C in the bridge's terminal is the bridge's to handle, not the engine's
        )
        return cls(process, argv)

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    async def send(self, command: str, timeout: float = 30.0) -> str:
        """Send one command; its answer without the ``=`` (raises ``GtpError`` on ``?``, death or timeout)."""
        async with self._lock:
            if not self.alive or self.process.stdin is None or self.process.stdout is None:
                raise GtpError("the engine is not running")
            try:
                log.debug("engine %s <- %s", self.process.pid, command)
                answer = await asyncio.wait_for(self._exchange(command), timeout)
                log.debug("engine %s -> %s", self.process.pid, answer)
                return answer
            except TimeoutError:
                await self.kill()
                raise GtpError(f"the engine took longer than {timeout:.1f} s over '{command}'") from None
            except (BrokenPipeError, ConnectionResetError) as exc:
                raise GtpError(f"the engine died: {exc}") from None

    async def _exchange(self, command: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command.encode() + b"\n")
        await self.process.stdin.drain()
        lines: list[str] = []
        while True:
            raw = await self.process.stdout.readline()
            if not raw:
                raise GtpError("the engine closed its output")
            line = raw.decode(errors="replace").rstrip("\r\n")
            if not lines and not line.strip():
                continue  # stray blank lines before an answer
            if not line.strip():
                break
            lines.append(line)
        text = "\n".join(lines)
        if text.startswith("?"):
            raise GtpError(text[1:].strip())
        if not text.startswith("="):
            raise GtpError(f"not a GTP answer: {text[:80]!r}")
        return text[1:].strip()

    async def close(self) -> None:
        """``quit``, then make sure the process is gone."""
        if self.alive:
            with contextlib.suppress(GtpError, OSError):
                await self.send("quit", timeout=2.0)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), 2.0)
        await self.kill()

    async def kill(self) -> None:
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        with contextlib.suppress(ProcessLookupError):
            await self.process.wait()
