"""``tengen serve`` for real: it migrates an empty database, then serves HTTP on the configured port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.settings import REPO_ROOT
from tests.support.instances import serving


def test_serve_migrates_then_serves(tmp_path: Path) -> None:
    with serving(tmp_path, TENGEN_KEEP_ALIVE="1") as run:
        assert httpx.get(f"{run.url}/healthz", timeout=2).json()["status"] == "ok"
        me = httpx.get(f"{run.url}/api/me")
        assert me.json()["guest"] is True
        assert (tmp_path / "tengen.sqlite3").exists() and (tmp_path / "secret_key").exists()
        # TENGEN_KEEP_ALIVE reaches uvicorn: an idle keep-alive connection is closed after that many seconds.
        with socket.create_connection(("127.0.0.1", run.port), timeout=10) as conn:
            conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: tengen\r\n\r\n")
            response = b""
            while not _whole(response):  # headers and body may come in separate reads
                chunk = conn.recv(4096)
                assert chunk, response
                response += chunk
            assert response.startswith(b"HTTP/1.1 200")
            idle_from = time.monotonic()
            assert conn.recv(4096) == b""  # the server closed it
            assert 0.5 < time.monotonic() - idle_from < 5
    assert "Running upgrade" in run.log_text()


def _whole(response: bytes) -> bool:
    """The headers and as much body as their Content-Length says."""
    head, blank, body = response.partition(b"\r\n\r\n")
    lengths = [line.split(b":", 1)[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
    return bool(blank) and bool(lengths) and len(body) >= int(lengths[0])


def test_serving_tunes_the_garbage_collector() -> None:
    """What is built before serving is frozen out of full collections; young objects get a larger budget, the
    middle generation a smaller one."""
    code = (
        "import gc; from app.server import tune_gc, GC_YOUNG_THRESHOLD, GC_MIDDLE_THRESHOLD, GC_OLD_THRESHOLD; "
        "import app.main; before = gc.get_freeze_count(); tune_gc(); "
        "print(before, gc.get_freeze_count(), "
        "gc.get_threshold() == (GC_YOUNG_THRESHOLD, GC_MIDDLE_THRESHOLD, GC_OLD_THRESHOLD))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    before, after, threshold_set = done.stdout.split()
    assert before == "0" and int(after) > 10_000 and threshold_set == "True"
