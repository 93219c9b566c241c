"""One ``tengen serve`` child process (``python -m app.cli serve``) on a loopback port: starting it, waiting until
``/healthz`` answers, killing (``kill -9``) or stopping it (SIGTERM, then SIGKILL after a grace period).

Shared by the multi-instance tests (``instances.Instance``) and the bot tests and bench (``bot_processes.ServeProcess``),
which each choose the settings, the port and the log file.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def spawn_serve(port: int, env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """``tengen serve`` on 127.0.0.1:``port`` with exactly ``env``, its output (both streams) in ``log_path``."""
    with open(log_path, "wb") as log:  # the child holds its own copy
        return subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


def wait_healthy(process: subprocess.Popen[bytes], port: int, log_path: Path, timeout: float, poll_every: float) -> None:
    """Return once ``/healthz`` answers 200; raise with the log's tail if the process exits or ``timeout`` passes."""
    url = f"http://127.0.0.1:{port}/healthz"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"tengen serve on port {port} exited:\n{_tail(log_path)}")
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(poll_every)
    raise RuntimeError(f"tengen serve on port {port} did not start:\n{_tail(log_path)}")


def kill(process: subprocess.Popen[bytes]) -> None:
    """``kill -9``: the process (a server, or any child such as a bot bridge) dies at once, leaving its
    sockets, presence and claims behind."""
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
        process.wait(10)


def stop(process: subprocess.Popen[bytes], grace: float) -> None:
    """SIGTERM, and ``kill`` if the process has not ended within ``grace`` seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            kill(process)


def _tail(log_path: Path) -> str:
    return log_path.read_text(errors="replace")[-3000:]
