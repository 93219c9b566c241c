"""Without KataGo the server works as before, and says so once in its log and in ``/healthz``."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.support.instances import serving


def test_a_server_without_katago_says_so_once(tmp_path: Path) -> None:
    engines = tmp_path / "no-engines"
    with serving(tmp_path, TENGEN_ENGINES_DIR=str(engines)) as run:
        health = httpx.get(f"{run.url}/healthz", timeout=5).json()
        assert httpx.get(f"{run.url}/api/me", timeout=5).json()["guest"] is True
    katago = health["engines"]["katago"]
    assert health["status"] == "ok" and katago["state"] == "missing"
    assert str(engines) in katago["message"] and "tengen engines install" in katago["message"]
    assert run.log_text().count("KataGo is not installed") == 1


def test_turned_off_it_is_not_started(tmp_path: Path) -> None:
    with serving(tmp_path, TENGEN_KATAGO="false") as run:
        katago = httpx.get(f"{run.url}/healthz", timeout=5).json()["engines"]["katago"]
    assert katago["state"] == "off" and "TENGEN_KATAGO=false" in katago["message"]
