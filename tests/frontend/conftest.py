"""The real server (uvicorn serving the API, the sockets and frontend/) and Debian's Chromium, for the
browser tests that play against it."""

from __future__ import annotations

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import ROOT
from tests.support.services import CHROMIUM, need_chromium


@pytest.fixture
def server(settings):  # type: ignore[no-untyped-def]
    live = LiveServer(settings.model_copy(update={"frontend_dir": ROOT / "frontend"}))
    live.start()
    yield live
    live.stop()


@pytest.fixture
def browser(server):  # type: ignore[no-untyped-def]
    """Chromium, started after the server: playwright's sync API keeps an event loop running meanwhile."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        yield b
        b.close()
