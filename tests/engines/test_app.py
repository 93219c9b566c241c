"""The engine service in the application: started by the lifespan when KataGo is installed and turned on, its state
and measured speed in ``/healthz``, its processes gone when the application stops."""

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
    assert not alive(pid)
