"""Real processes for the bot tests and the bot bench: ``tengen serve`` on a port that survives its restart,
and ``tengen bot`` bridges. ``kill()`` is a ``kill -9``; ``terminate()`` a SIGTERM that must end cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.support import server_process
from tests.support.server_process import REPO_ROOT, free_port
from tests.support.services import GNUGO

START_TIMEOUT = 60.0


class ServeProcess:
    """``tengen serve`` on one port with the embedded defaults (SQLite in ``data_dir``, the in-process hub)."""

    def __init__(self, data_dir: Path, port: int | None = None, **env: str) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "PYTHONPATH": str(REPO_ROOT),
            "PYTHONUNBUFFERED": "1",
            "TENGEN_ENV": "test",
            "TENGEN_DATA_DIR": str(data_dir),
            "TENGEN_SECRET_KEY": "bot-tests-secret",
            "TENGEN_LOG_LEVEL": "warning",
            "TENGEN_FRONTEND_DIR": str(REPO_ROOT / "frontend"),
            **env,
        }
        self.env.pop("TENGEN_DATABASE_URL", None)
        self.env.pop("TENGEN_REDIS_URL", None)
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> ServeProcess:
        self.starts += 1
        self.process = server_process.spawn_serve(self.port, self.env, self._log_path())
        server_process.wait_healthy(self.process, self.port, self._log_path(), START_TIMEOUT, poll_every=0.1)
        return self

    def log_text(self) -> str:
        return self._log_path().read_text(errors="replace")

    def _log_path(self) -> Path:
        return self.data_dir / f"serve-{self.starts}.log"

    def kill(self) -> None:
        if self.process is not None:
            server_process.kill(self.process)

    def stop(self) -> None:
        if self.process is not None:
            server_process.stop(self.process, grace=15)


class BridgeProcess:
    """``tengen bot`` with GNU Go (or a KataGo house bot's step, ``katago_step``), logging to ``log_path``."""

    def __init__(
        self,
        server: str,
        token: str,
        log_path: Path,
        *,
        level: int = 1,
        extra: list[str] | None = None,
        katago_step: str | None = None,
    ) -> None:
        engine = ["--gtp", f"{GNUGO} --mode gtp --level {level}"] if katago_step is None else ["--katago-step", katago_step]
        self.args = [
            sys.executable,
            "-m",
            "app.cli",
            "bot",
            *engine,
            "--token",
            token,
            "--server",
            server,
            *(extra or []),
        ]
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> BridgeProcess:
        log = open(self.log_path, "ab")  # the child holds it
        self.process = subprocess.Popen(
            self.args, cwd=REPO_ROOT, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        return self

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        if self.process is not None:
            server_process.kill(self.process)

    def terminate(self, timeout: float = 15.0) -> int:
        """SIGTERM; the exit code (the bridge must stop on its own)."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)
