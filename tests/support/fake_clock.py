"""A server clock the test moves by hand: pass it to ``create_app(settings, clock)``."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime

import pytest

from app.settings import Settings
from tests.conftest import LiveServer
from tests.support.room_fixtures import Servers


class FakeClock:
    """Stands still until told: ``advance(seconds)`` or ``set(t)``. Safe to read from the server's thread."""

    def __init__(self, now: float | None = None) -> None:
        self._now = time.time() if now is None else float(now)
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.now

    @property
    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        with self._lock:
            self._now += seconds
            return self._now

    def set(self, t: float) -> None:
        with self._lock:
            self._now = float(t)

    def set_iso(self, stamp: str) -> None:
        """Move to an ISO 8601 moment (as the API reports ``started_at``)."""
        self.set(datetime.fromisoformat(stamp).timestamp())


# ---- Room servers on a fake clock (import these fixtures into a test module, as with room_fixtures) ----


class ClockServers(Servers):
    """Like ``Servers``, every server charging games by the same ``FakeClock``."""

    def __init__(self, settings: Settings, clock: FakeClock) -> None:
        super().__init__(settings)
        self.clock = clock

    def start(self) -> LiveServer:
        server = LiveServer(self.settings, self.clock)
        server.start()
        self.all.append(server)
        return server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def servers(stack_settings: Settings, clock: FakeClock) -> Iterator[ClockServers]:
    group = ClockServers(stack_settings, clock)
    yield group
    group.stop_all()
