"""A server clock the test moves by hand: pass it to ``create_app(settings, clock)``."""

from __future__ import annotations

import threading
import time
from datetime import datetime


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

import pytest  # noqa: E402 - the fixtures section keeps its own imports

from tests.conftest import LiveServer  # noqa: E402 - the fixtures section keeps its own imports
from tests.live.room_fixtures import Servers  # noqa: E402 - the fixtures section keeps its own imports


class ClockServers(Servers):
    """Like ``Servers``, every server charging games by the same ``FakeClock``."""

    def __init__(self, settings, clock: FakeClock) -> None:  # type: ignore[no-untyped-def]
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
def servers(stack_settings, clock: FakeClock):  # type: ignore[no-untyped-def]
    group = ClockServers(stack_settings, clock)
    yield group
    group.stop_all()
