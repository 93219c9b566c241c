"""Failures that are not the client's fault still answer the one error shape."""

from __future__ import annotations

import socket

import httpx

from app.limits.counters import make_counters
from app.limits.rules import Limiter
from app.main import create_app
from app.settings import Settings
from app.store.db import create_engine, create_sessionmaker
from tests.support.services import need_postgres


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_an_unreachable_database_answers_503_unavailable(settings: Settings) -> None:
    need_postgres()
    broken = settings.model_copy(update={"database_url": f"postgresql+asyncpg://postgres@127.0.0.1:{_closed_port()}/nowhere"})
    application = create_app(broken)
    # The lifespan would fail on the same database, so the app gets its engine (and the limiter a new guest
    # is counted by) here, as the lifespan does.
    engine = create_engine(broken.effective_database_url)
    application.state.engine = engine
    application.state.sessionmaker = application.state.entry_sessionmaker = create_sessionmaker(engine)
    application.state.limiter = Limiter(make_counters(None, broken.redis_prefix))
    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        response = await client.post("/api/guest")
    await engine.dispose()
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"
    assert response.headers["retry-after"] == "2"
