"""``tengen serve`` as a child process, the way a person starts it: a free port, a SQLite file in a folder."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from app.settings import REPO_ROOT
from tests.conftest import free_port


@dataclass
class ServeRun:
    port: int
    output: str = ""  # everything it printed, once it has stopped

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextmanager
def serving(data_dir: Path, **env: str) -> Iterator[ServeRun]:
    """Start ``tengen serve`` with ``TENGEN_*`` settings from ``env``; yield once ``/healthz`` answers 200; stop it."""
    run = ServeRun(port=free_port())
    environ = dict(os.environ, TENGEN_DATA_DIR=str(data_dir), TENGEN_PORT=str(run.port), TENGEN_ENV="development")
    environ.pop("TENGEN_DATABASE_URL", None)
    environ.update(env)
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main(['serve']))"],
        cwd=REPO_ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{run.url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, process.stdout.read().decode()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "server did not come up"
            time.sleep(0.2)
        yield run
    finally:
        process.terminate()
        run.output = process.communicate(timeout=30)[0].decode()
