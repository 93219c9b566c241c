"""Shared fixtures. Service-backed fixtures skip with a reason when the service is missing
(and fail under TENGEN_REQUIRE_SERVICES=1).

Database fixtures: ``database_url`` is parametrised over SQLite and PostgreSQL and gives every test a fresh,
migrated database of its own (a copy of a template migrated once per run; on PostgreSQL a uniquely named
database created from that template and dropped afterwards). ``empty_database_url`` gives an unmigrated one.
``app`` / ``client`` serve ``create_app`` through ASGI; ``live_server`` runs it in a real uvicorn on a free port,
its sockets served by the lean WebSocket protocol (app/lean_ws_protocol.py), or with ``TENGEN_TEST_WS=stock`` by
uvicorn's own, as a server with other versions of uvicorn or websockets serves them (app/ws_protocol.py).
"""

from __future__ import annotations

import os

# Tests never touch a developer's real data folder or secret.
os.environ.setdefault("TENGEN_ENV", "test")

import shutil
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.support.services import POSTGRES_URL, need_postgres, pg_admin

if TYPE_CHECKING:
    from fastapi import FastAPI
    from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

    from app.settings import Settings

DATABASES = ["sqlite", "postgres"]
START_TIMEOUT = 30.0  # seconds a test server may take to start (a loaded 2-core machine is slow)
STOCK_WS = os.environ.get("TENGEN_TEST_WS") == "stock"  # in-process servers use uvicorn's own WebSocket protocol


# ---- PostgreSQL administration (each test gets its own database) ----


def _pg_url(name: str) -> str:
    base, _, _ = POSTGRES_URL.rpartition("/")
    return f"{base}/{name}"


def create_pg_database(template: str | None = None) -> str:
    """A new uniquely named PostgreSQL database (optionally copied from ``template``); returns its name."""
    name = f"tengen_test_{uuid.uuid4().hex}"
    pg_admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return name


def drop_pg_database(name: str) -> None:
    pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class _Templates:
    """Databases migrated to head once per test run, copied for each test."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.sqlite_file: Path | None = None
        self.pg_name: str | None = None

    def sqlite(self) -> Path:
        if self.sqlite_file is None:
            from app.store.migrations import upgrade_to_head

            path = self.root / "template.sqlite3"
            upgrade_to_head(f"sqlite+aiosqlite:///{path}")
            self.sqlite_file = path
        return self.sqlite_file

    def postgres(self) -> str:
        if self.pg_name is None:
            from app.store.migrations import upgrade_to_head

            name = create_pg_database()
            try:
                upgrade_to_head(_pg_url(name))
            except BaseException:
                drop_pg_database(name)
                raise
            self.pg_name = name
        return self.pg_name

    def close(self) -> None:
        if self.pg_name is not None:
            drop_pg_database(self.pg_name)


@pytest.fixture(scope="session")
def _db_templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Templates]:
    templates = _Templates(tmp_path_factory.mktemp("db-templates"))
    yield templates
    templates.close()


def _sqlite_copy(template: Path, tmp_path: Path) -> str:
    target = tmp_path / "tengen.sqlite3"
    shutil.copyfile(template, target)
    return f"sqlite+aiosqlite:///{target}"


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path, _db_templates: _Templates) -> Iterator[str]:
    """A fresh database migrated to head, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield _sqlite_copy(_db_templates.sqlite(), tmp_path)
        return
    need_postgres()
    name = create_pg_database(template=_db_templates.postgres())
    try:
        yield _pg_url(name)
    finally:
        drop_pg_database(name)


@pytest.fixture(params=DATABASES)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database with no tables, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    need_postgres()
    name = create_pg_database()
    try:
        yield _pg_url(name)
    finally:
        drop_pg_database(name)


@pytest.fixture
async def db_engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    from app.store.db import create_engine

    engine = create_engine(database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
def db_sessionmaker(db_engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    from app.store.db import create_sessionmaker

    return create_sessionmaker(db_engine)


# ---- The application ----

MakeClient = Callable[[], httpx.AsyncClient]
"""What ``make_client`` gives: each call a new client of the ASGI app, with its own cookie jar."""


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    from app.settings import Settings

    return Settings(
        env="test",
        data_dir=tmp_path / "data",
        database_url=database_url,
        secret_key="test-secret-" + uuid.uuid4().hex,
        frontend_dir=tmp_path / "no-frontend",
        # Tests register players one after another: unpaced hashing keeps them quick. The pacing is tested by
        # itself (tests/accounts/test_hash_pacing.py) and through a server at the default share.
        password_hash_share=1.0,
    )


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[FastAPI]:
    """``create_app(settings)`` with its lifespan running."""
    from app.main import create_app

    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def make_client(app: FastAPI) -> AsyncIterator[MakeClient]:
    """Makes independent clients (each with its own cookie jar, i.e. its own user) of the ASGI app."""
    clients: list[httpx.AsyncClient] = []

    def make() -> httpx.AsyncClient:
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()


@pytest.fixture
def client(make_client: MakeClient) -> httpx.AsyncClient:
    return make_client()


class LiveServer:
    """A real uvicorn serving ``create_app(settings, clock)`` in a background thread."""

    def __init__(self, settings: Settings, clock: Callable[[], float] | None = None) -> None:
        import uvicorn

        from app.main import create_app

        self.app = create_app(settings, clock)
        self.socket = socket.socket()
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        from app.server import uvicorn_options
        from app.ws_protocol import STOCK_PROTOCOL

        options = uvicorn_options(settings)
        if STOCK_WS:
            options["ws"] = STOCK_PROTOCOL
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on", **options)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.server.started or not self.thread.is_alive():
                break
            threading.Event().wait(0.01)
        if not self.server.started:
            raise RuntimeError("uvicorn did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.socket.close()

    def __enter__(self) -> LiveServer:
        """Started; stopped when the ``with`` block ends, however it ends."""
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@pytest.fixture
def live_server_handle(settings: Settings) -> Iterator[LiveServer]:
    """A real uvicorn on a free port: ``.url``, ``.ws_url`` and ``.app`` (to reach ``app.state``)."""
    with LiveServer(settings) as server:
        yield server


@pytest.fixture
def live_server(live_server_handle: LiveServer) -> str:
    """The base URL (``http://127.0.0.1:PORT``) of a real uvicorn serving ``create_app`` on this test's database."""
    return live_server_handle.url


@pytest.fixture
def make_live_server(settings: Settings) -> Iterator[MakeLiveServer]:
    """Starts real uvicorn servers on this test's database with some settings changed: ``make(sockets_per_user=2)``."""
    servers: list[LiveServer] = []

    def make(clock: Callable[[], float] | None = None, **overrides: Any) -> LiveServer:
        server = LiveServer(settings.model_copy(update=overrides), clock)
        server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


MakeLiveServer = Callable[..., LiveServer]
"""What ``make_live_server`` gives: ``make(clock=None, **settings_overrides)`` starts a server."""
