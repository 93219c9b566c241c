"""A mail stack for tests: a real SMTP sink, a real server on a fake clock, and mail workers on that clock.
Import the fixtures ``mail_stack``, ``smtp_sink`` and ``stack_settings`` into a test module.

On SQLite with the in-process hub, and on PostgreSQL with Redis (``stack_settings``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from sqlalchemy.ext.asyncio import AsyncEngine

from app.mail.worker import Mailer
from app.settings import Settings
from app.store.db import create_engine, create_sessionmaker
from tests.conftest import LiveServer
from tests.support.room_fixtures import stack_settings  # noqa: F401 - a pytest fixture, taken by name by mail_stack and by the tests that import it from here
from tests.support.fake_clock import FakeClock
from tests.support.players import Player
from tests.support.smtp_sink import SmtpSink

PASSWORD = "s3cret-Tengen-pw"
# Three days per move, marked correspondence (docs/clocks.md).
CORRESPONDENCE = {"kind": "simple", "per_move": 3 * 86400, "correspondence": True}


class MailStack:
    def __init__(self, settings: Settings, clock: FakeClock, sink: SmtpSink) -> None:
        self.settings = settings
        self.clock = clock
        self.sink = sink
        self.server: LiveServer | None = None
        self.players: list[Player] = []
        self.engines: list[AsyncEngine] = []

    def start_server(self) -> LiveServer:
        self.server = LiveServer(self.settings, self.clock)
        self.server.start()
        return self.server

    def mailer(self, **overrides: Any) -> Mailer:
        """A mail worker of its own (its own engine), as another `tengen mailer` process would be."""
        engine = create_engine(self.settings.database_url)
        self.engines.append(engine)
        return Mailer(create_sessionmaker(engine), self.settings.model_copy(update=overrides), self.clock)

    async def player(self, name: str | None = None, email: str | None = None, mailer: Mailer | None = None) -> Player:
        """A visitor; registered as ``name``; with ``email`` verified through the link mailed to it."""
        assert self.server is not None
        player = await Player(self.server.url).visit()
        self.players.append(player)
        if name:
            response = await player.http.post("/api/auth/register", json={"username": name, "password": PASSWORD})
            assert response.status_code == 201, response.text
            player.user = response.json()
        if email:
            assert mailer is not None
            response = await player.http.put("/api/me/email", json={"email": email})
            assert response.status_code == 202, response.text
            before = len(self.sink.to(email))
            await mailer.run_once()
            from tests.support.smtp_sink import link_token

            token = link_token(self.sink.wait_for(email, before + 1)[-1], "email/verify")
            verified = await player.http.post("/api/email/verify", json={"token": token})
            assert verified.status_code == 200 and verified.json()["email"] == email, verified.text
        return player

    async def close(self) -> None:
        for player in self.players:
            await player.close()
        for engine in self.engines:
            await engine.dispose()
        if self.server is not None:
            self.server.stop()


@pytest.fixture
def smtp_sink() -> Iterator[SmtpSink]:
    sink = SmtpSink().start()
    yield sink
    sink.stop()


@pytest.fixture
async def mail_stack(stack_settings: Settings, smtp_sink: SmtpSink) -> AsyncIterator[MailStack]:
    settings = stack_settings.model_copy(
        update={
            "mail_smtp_host": "127.0.0.1",
            "mail_smtp_port": smtp_sink.port,
            "mail_smtp_security": "none",
            "mail_smtp_timeout": 5.0,
            "mail_from": "Tengen <noreply@tengen.test>",
            "mail_site_url": "https://go.example.org",
            "mail_digest_hour": 8,
        }
    )
    stack = MailStack(settings, FakeClock(), smtp_sink)
    stack.start_server()
    yield stack
    await stack.close()


MakeStack = Callable[..., MailStack]
