"""A server's worker processes (password hashes, analysis) end with it, however it ends."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import httpx
import pytest

from tests.support.bot_processes import ServeProcess

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc to list processes")


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in map(int, task.read_text().split()):
            found |= {child} | _children(child)
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its parent's wait is missing


@pytest.mark.parametrize("how", ["terminated", "killed"])
def test_workers_end_with_the_server(tmp_path: Path, how: str) -> None:
    server = ServeProcess(tmp_path).start()
    try:
        assert server.process is not None
        with httpx.Client(base_url=server.url, timeout=30) as http:
            assert http.post("/api/guest", json={}).status_code == 200
            registered = http.post("/api/auth/register", json={"username": "stays", "password": "a long enough one"})
            assert registered.status_code == 201, registered.text  # a hash: the password worker starts
            setup = {"size": 9, "rules": "chinese", "komi": 7.5}
            estimated = http.post("/api/study/estimate", json={"setup": setup, "line": []})
            assert estimated.status_code == 200, estimated.text  # the analysis workers start
        workers = _children(server.process.pid)
        assert len(workers) >= 2, workers
        assert all(_running(pid) for pid in workers)
        if how == "killed":
            server.kill()
        else:
            server.process.send_signal(signal.SIGTERM)
            assert server.process.wait(15) is not None
        deadline = time.monotonic() + 15
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in workers if _running(pid)], "worker processes outlived their server"
    finally:
        server.stop()
