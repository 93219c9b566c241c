"""The real server (uvicorn serving the API, the sockets and frontend/) and Debian's Chromium, for the
browser tests that play against it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from app.settings import Settings
from tests.conftest import LiveServer
from tests.frontend.people import ROOT
from tests.support.services import CHROMIUM, need_chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture
def server(settings: Settings) -> Iterator[LiveServer]:
    with LiveServer(settings.model_copy(update={"frontend_dir": ROOT / "frontend"})) as live:
        yield live


@pytest.fixture
def browser(server: LiveServer) -> Iterator[Browser]:
    """Chromium, started after the server: playwright's sync API keeps an event loop running meanwhile."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        yield b
        b.close()
