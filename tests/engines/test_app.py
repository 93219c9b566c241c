"""The engine service in the application: started by the lifespan when KataGo is installed and turned on, its state,
measured speed and CPU policy (every thread of it under ``SCHED_IDLE``) in ``/healthz``, its processes gone when the
application stops."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from app.main import create_app
from app.settings import Settings
from tests.engines.questions import until

pytestmark = pytest.mark.katago


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def read_policy(pid: int) -> int:
    """The policy the kernel reports for ``pid`` in ``/proc/<pid>/sched``."""
    for line in Path(f"/proc/{pid}/sched").read_text().splitlines():
        if line.startswith("policy"):
            return int(line.split(":")[1])
    raise AssertionError(f"no policy in /proc/{pid}/sched")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_app_runs_katago_and_stops_it(settings: Settings, katago_dir: Path) -> None:
    changes = {"katago": True, "engines_dir": katago_dir, "katago_buffers": [9], "katago_measure_visits": 2}
    application = create_app(settings.model_copy(update=changes))
    async with application.router.lifespan_context(application):
        engines = application.state.engines
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://t") as http:
            assert (await http.get("/healthz")).json()["engines"]["katago"]["state"] in ("starting", "ready")
            await until(lambda: engines.state == "ready")
            health = (await http.get("/healthz")).json()
        assert health["status"] == "ok"
        nine = health["engines"]["katago"]["buffers"]["9x9"]
        assert nine["state"] == "ready" and nine["evals_per_second"] > 0
        pid = engines.lanes[0].pid
        assert pid is not None and alive(pid)
        # Below the web server: KataGo itself and every thread it started run only when the cores are free.
        assert nine["scheduling"] == "SCHED_IDLE"
        threads = [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
        assert len(threads) > 1 and {os.sched_getscheduler(tid) for tid in threads} == {os.SCHED_IDLE}
        assert read_policy(pid) == os.SCHED_IDLE
    assert not alive(pid)
