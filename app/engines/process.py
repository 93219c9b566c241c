"""One ``katago analysis`` child process: JSON lines in on its standard input, JSON lines out on its standard output.

Nothing here blocks the event loop: the process is spoken to through asyncio's pipes, its answers are read by a
task of their own and handed on one by one (``on_answer``), and its standard error is read by another into the
last lines kept for diagnosis (``stderr_tail``), so a chatty KataGo can never stall on a full pipe. A line on the
standard output that is not a JSON object is logged and counted (``malformed``) and handed on as nothing.

It runs below the web server, so that the games go first: under Linux's ``SCHED_IDLE`` where the kernel allows
it, else at ``nice`` 19 (``lowered.py`` starts it so; ``scheduling`` reads what the running process got). It
runs in a session of its own (a Ctrl-C in the server's terminal is the server's to handle), with
``-quit-without-waiting``: when the server dies and the pipe closes, KataGo stops at once instead of finishing
its queue for nobody.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from app.engines.layout import Layout
from app.engines.opencl import library_path
from app.settings import Settings

log = logging.getLogger("tengen.engines")

STDERR_LINES = 40  # lines of KataGo's standard error kept for the log when it fails
LINE_LIMIT = 16 * 1024 * 1024  # bytes of one answer line (a 19x19 answer with ownership is tens of KB)
VERSION_QUERY = "tengen-version"
_ID = re.compile(rb'\s*\{"id":"([^"\\]*)"')
LOWERED = Path(__file__).with_name("lowered.py")


_refusal_told = False  # the kernel's refusal of SCHED_IDLE is logged once a server process


def _tell_refusal(scheduling: str, stderr: str) -> None:
    global _refusal_told
    _refusal_told = True
    log.warning(
        "KataGo could not be put under SCHED_IDLE here; it runs at %s, and the games may feel it when it is busy "
        "(docs/engines.md, CPU share). %s", scheduling, stderr,
    )  # fmt: skip


def lowered(niceness: int, idle: bool) -> list[str]:
    """The command line that runs the rest of it below the web server (``lowered.py``)."""
    return [sys.executable, "-I", "-S", str(LOWERED), str(niceness), "idle" if idle else "nice"]


_PROBE = "import os; print('SCHED_IDLE' if os.sched_getscheduler(0) == os.SCHED_IDLE else f'nice {os.nice(0)}')"


def scheduling_here(settings: Settings) -> str:
    """The CPU policy KataGo would get on this machine, found by running the launcher with a probe in its place
    (for ``tengen engines status``; blocking, a few tens of milliseconds: not for the event loop)."""
    probe = [*lowered(settings.katago_nice, settings.katago_sched_idle), sys.executable, "-I", "-S", "-c", _PROBE]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"? ({exc})"
    return done.stdout.strip() or f"? ({done.stderr.strip()[-200:]})"


class Listener(Protocol):
    """Who hears what the process writes, line by line, in order."""

    def answer(self, line: dict[str, Any]) -> None:
        """A JSON object KataGo wrote (an answer, an error, a warning, an action's acknowledgement)."""

    def malformed(self, query_id: str | None) -> None:
        """A line that is not a JSON object, with the query id it seems to begin with."""

    def closed(self) -> None:
        """The output ended: the process is gone, and nothing it had will be answered."""


class StartFailed(Exception):
    """KataGo did not start: the reason, with the end of what it wrote on its standard error."""


@dataclass(frozen=True)
class Launch:
    """How to start KataGo for one neural-net buffer size."""

    argv: list[str]
    env: dict[str, str]
    idle: bool = False  # asked for SCHED_IDLE (what it got: ``KataGoProcess.scheduling``)

    @classmethod
    def katago(cls, layout: Layout, buffer: int, parallel: int, search_threads: int, niceness: int, idle: bool = True) -> Launch:
        """KataGo's analysis engine for ``buffer``, under ``SCHED_IDLE`` if ``idle`` (where permitted) at ``niceness``."""
        overrides = (
            f"numAnalysisThreads={parallel},numSearchThreadsPerAnalysisThread={search_threads},"
            f"nnMaxBatchSize={max(parallel * search_threads, 1)}"
        )
        argv = [
            str(layout.katago),
            "analysis",
            "-config",
            str(layout.config(buffer)),
            "-model",
            str(layout.model),
            "-override-config",
            overrides,
            "-quit-without-waiting",
        ]
        return cls([*lowered(niceness, idle), *argv], {"LD_LIBRARY_PATH": library_path(layout.lib_dir)}, idle)

    @classmethod
    def configured(cls, layout: Layout, buffer: int, settings: Settings) -> Launch:
        """KataGo for ``buffer`` as the settings have it (threads, niceness, ``SCHED_IDLE``)."""
        return cls.katago(
            layout,
            buffer,
            settings.katago_parallel,
            settings.katago_search_threads,
            settings.katago_nice,
            settings.katago_sched_idle,
        )

    def wrapped(self, prefix: list[str]) -> Launch:
        """The same, started through ``prefix`` (a program that runs the rest of its command line)."""
        return Launch([*prefix, *self.argv], self.env, self.idle)


class KataGoProcess:
    def __init__(self, process: asyncio.subprocess.Process, listener: Listener) -> None:
        self.process = process
        self.listener = listener
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.malformed = 0
        self._version: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._readers = [
            asyncio.create_task(self._read_answers(), name=f"katago-{process.pid}-stdout"),
            asyncio.create_task(self._read_stderr(), name=f"katago-{process.pid}-stderr"),
        ]

    @classmethod
    async def start(cls, launch: Launch, listener: Listener, timeout: float) -> KataGoProcess:
        """Started and answering (its version), within ``timeout`` seconds; else ``StartFailed``, and nothing left running."""
        try:
            process = await asyncio.create_subprocess_exec(
                *launch.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env={**os.environ, **launch.env},
                start_new_session=True,
                limit=LINE_LIMIT,
            )
        except OSError as exc:
            raise StartFailed(f"could not run {launch.argv[0]}: {exc}") from None
        child = cls(process, listener)
        try:
            child.send({"id": VERSION_QUERY, "action": "query_version"})
            async with asyncio.timeout(timeout):
                version = await asyncio.shield(child._version)
        except (TimeoutError, ConnectionError) as exc:
            await child.kill()
            reason = f"it did not answer within {timeout:.0f} s" if isinstance(exc, TimeoutError) else str(exc)
            raise StartFailed(f"{reason}; {child.stderr_text()}") from None
        except BaseException:  # cancelled while it started (the server stopping): nothing is left running
            await child.kill()
            raise
        if version is None:
            code = await child.wait()
            raise StartFailed(f"it exited (code {code}); {child.stderr_text()}")
        scheduling = child.scheduling()
        log.info("KataGo %s started (pid %s, %s)", version, process.pid, scheduling)
        if launch.idle and scheduling != "SCHED_IDLE" and not _refusal_told:
            _tell_refusal(scheduling, child.stderr_text())
        return child

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    def scheduling(self) -> str:
        """The CPU policy the running process has: ``SCHED_IDLE``, or ``nice <n>`` (``?`` once it is gone)."""
        try:
            if os.sched_getscheduler(self.pid) == os.SCHED_IDLE:
                return "SCHED_IDLE"
            return f"nice {os.getpriority(os.PRIO_PROCESS, self.pid)}"
        except (OSError, AttributeError):
            return "?"

    def stderr_text(self) -> str:
        lines = [line for line in self.stderr_tail if line.strip()]
        return "its last words: " + " | ".join(lines[-8:]) if lines else "it wrote nothing on its standard error"

    def send(self, message: dict[str, Any]) -> None:
        """Write one query (a single line); the pipe's buffer takes it, so this never waits."""
        if self.process.stdin is None or self.process.stdin.is_closing():
            raise ConnectionError("KataGo's standard input is closed")
        self.process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    async def wait(self) -> int:
        """Until the process has ended and its output is read to the end."""
        code = await self.process.wait()
        await asyncio.gather(*self._readers, return_exceptions=True)
        return code

    async def stop(self, grace: float = 2.0) -> None:
        """Close its input (KataGo then quits), kill it after ``grace`` seconds."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace):
                await self.wait()
        await self.kill()

    async def kill(self) -> None:
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        await self.wait()

    async def _read_answers(self) -> None:
        assert self.process.stdout is not None
        while True:
            try:
                raw = await self.process.stdout.readline()
            except ValueError:  # a line over LINE_LIMIT: the rest of it is dropped by the stream
                self._malformed(b"<a line longer than the limit>")
                continue
            if not raw:
                break
            try:
                line = json.loads(raw)
            except ValueError:
                self._malformed(raw)
                continue
            if not isinstance(line, dict):
                self._malformed(raw)
                continue
            if line.get("id") == VERSION_QUERY and not self._version.done():
                self._version.set_result(str(line.get("version", "?")))
                continue
            self.listener.answer(line)
        if not self._version.done():
            self._version.set_result(None)
        self.listener.closed()

    def _malformed(self, raw: bytes) -> None:
        self.malformed += 1
        log.warning("KataGo (pid %s) wrote a line that is not an answer: %r", self.pid, raw[:200])
        found = _ID.match(raw)  # KataGo writes its keys in order, "id" first: a damaged line may still name its query
        self.listener.malformed(found.group(1).decode(errors="replace") if found else None)

    async def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        while True:
            try:
                raw = await self.process.stderr.readline()
            except ValueError:
                continue
            if not raw:
                return
            self.stderr_tail.append(raw.decode(errors="replace").rstrip())
