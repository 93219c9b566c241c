"""``/healthz`` (liveness only), ``/readyz`` (database and Redis reachable) and the ``/metrics`` route."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator

import httpx
import pytest

from app.main import create_app
from app.settings import Settings
from tests.conftest import drop_pg_database
from tests.support.hubs import delete_prefix
from tests.support.services import REDIS_URL, need_redis


class TcpRelay:
    """A local port forwarding to Redis, which the test can shut so the port refuses connections."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self.writers += [writer, up_writer]

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def shut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.writers:
            writer.close()
        await self.server.wait_closed()


@contextlib.asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://t") as http:
            yield http


async def test_healthz_is_liveness_only(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200 and response.json()["status"] == "ok"


async def test_readyz_with_the_in_process_hub_checks_the_database(client: httpx.AsyncClient) -> None:
    response = await client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "checks": {"database": "ok", "redis": "not_configured"}}


async def test_readyz_with_real_redis(settings: Settings) -> None:
    need_redis()
    prefix = f"tengen-test-{uuid.uuid4().hex}:"
    try:
        async with serving(settings.model_copy(update={"redis_url": REDIS_URL, "redis_prefix": prefix})) as http:
            response = await http.get("/readyz")
            assert response.status_code == 200, response.text
            assert response.json()["checks"] == {"database": "ok", "redis": "ok"}
    finally:
        await delete_prefix(prefix)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_readyz_is_503_naming_redis_when_its_port_is_closed(settings: Settings) -> None:
    need_redis()
    relay = TcpRelay("127.0.0.1", int(REDIS_URL.split(":")[2].split("/")[0]))
    await relay.start()
    prefix = f"tengen-test-{uuid.uuid4().hex}:"
    url = f"redis://127.0.0.1:{relay.port}/0"
    try:
        async with serving(settings.model_copy(update={"redis_url": url, "redis_prefix": prefix})) as http:
            assert (await http.get("/readyz")).status_code == 200
            await relay.shut()
            response = await http.get("/readyz")
            assert response.status_code == 503
            body = response.json()
            assert body["checks"] == {"database": "ok", "redis": "failed"}
            assert body["error"]["code"] == "not_ready" and "redis" in body["error"]["message"]
            assert (await http.get("/healthz")).status_code == 200  # alive, just not ready
    finally:
        await delete_prefix(prefix)


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_readyz_is_503_naming_the_database_when_it_is_gone(settings: Settings, database_url: str) -> None:
    async with serving(settings) as http:
        assert (await http.get("/readyz")).status_code == 200
        await asyncio.to_thread(drop_pg_database, database_url.rpartition("/")[2])
        response = await http.get("/readyz")
        assert response.status_code == 503
        assert response.json()["checks"] == {"database": "failed", "redis": "not_configured"}
        assert "database" in response.json()["error"]["message"]


async def test_metrics_route_serves_the_prometheus_text_format(client: httpx.AsyncClient) -> None:
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert "# TYPE tengen_moves_applied_total counter" in response.text
