"""Real Tengen server processes (``python -m app.cli serve``) sharing one database and one Redis prefix.

Each instance binds its own free loopback port. ``kill()`` is a ``kill -9``: no shutdown, no cleanup, exactly
what a crashed machine looks like to the others.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support import server_process
from tests.support.server_process import REPO_ROOT, free_port

if TYPE_CHECKING:
    from tests.support.tcp_proxy import TcpProxy

START_TIMEOUT = 30.0


class Instance:
    """One ``tengen serve`` subprocess."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.process = server_process.spawn_serve(self.port, {**env, "TENGEN_PORT": str(self.port)}, log_path)

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        server_process.wait_healthy(self.process, self.port, self.log_path, timeout, poll_every=0.05)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """``kill -9``: the process dies at once, leaving its sockets, presence and claims behind."""
        server_process.kill(self.process)

    def stop(self) -> None:
        server_process.stop(self.process, grace=5)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")


class Instances:
    """Starts instances on one database and one Redis prefix; stops them all at the end."""

    def __init__(
        self, database_url: str, redis_url: str, redis_prefix: str, workdir: Path, secret_key: str = "instances-secret"
    ) -> None:
        self.workdir = workdir
        self.env = {
            **os.environ,
            "PYTHONPATH": str(REPO_ROOT),
            "PYTHONUNBUFFERED": "1",
            "TENGEN_ENV": "test",
            "TENGEN_DATABASE_URL": database_url,
            "TENGEN_REDIS_URL": redis_url,
            "TENGEN_REDIS_PREFIX": redis_prefix,
            # One secret for all: a session cookie from one instance is valid on every other.
            "TENGEN_SECRET_KEY": secret_key,
            "TENGEN_DATA_DIR": str(workdir / "data"),
            "TENGEN_FRONTEND_DIR": str(workdir / "no-frontend"),
            "TENGEN_LOG_LEVEL": "warning",
            # Several instances share one test PostgreSQL (100 connections): keep each instance's pool small.
            "TENGEN_DB_POOL_SIZE": "5",
            "TENGEN_DB_MAX_OVERFLOW": "5",
            # Every test client connects from 127.0.0.1, and with Redis the cap per address holds across the
            # instances (a killed one's slots lapse only after TENGEN_SOCKET_SLOT_SECONDS): tests of that cap
            # set their own (tests/limits/test_abuse_instances.py).
            "TENGEN_SOCKETS_PER_ADDRESS": "0",
            # Players are registered one after another: unpaced hashing, as in tests/conftest.py.
            "TENGEN_PASSWORD_HASH_SHARE": "1",
        }
        self.all: list[Instance] = []

    def start(self, count: int = 1, timeout: float = START_TIMEOUT) -> list[Instance]:
        started = []
        for _ in range(count):
            instance = Instance(self.env, self.workdir / f"instance-{len(self.all)}.log")
            self.all.append(instance)
            started.append(instance)
        for instance in started:
            instance.wait_ready(timeout)
        return started

    def stop_all(self) -> None:
        for instance in self.all:
            instance.stop()


# ---- pytest fixtures (import them into a test module) ----

# Multi-instance tests need the shared stack: PostgreSQL (a database per test) and Redis (a prefix per test).
POSTGRES_ONLY = pytest.mark.parametrize("database_url", ["postgres"], indirect=True, ids=["postgres+redis"])


def delete_redis_prefix(prefix: str) -> int:
    """Delete every key under ``prefix`` (never FLUSHALL: the Redis is shared); returns how many."""
    import redis

    from tests.support.services import REDIS_URL

    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = list(client.scan_iter(match=prefix + "*", count=500))
        if keys:
            client.delete(*keys)
        return len(keys)
    finally:
        client.close()


@pytest.fixture
def redis_cluster_prefix() -> Iterator[str]:
    from tests.support.services import need_redis

    need_redis()
    prefix = f"tengen-test-{uuid.uuid4().hex}:"
    yield prefix
    delete_redis_prefix(prefix)


@pytest.fixture
def cluster(database_url: str, redis_cluster_prefix: str, tmp_path: Path) -> Iterator[Instances]:
    """Server processes on this test's PostgreSQL database and Redis prefix (start them with ``.start(n)``)."""
    from tests.support.services import REDIS_URL

    group = Instances(database_url, REDIS_URL, redis_cluster_prefix, tmp_path)
    yield group
    group.stop_all()


@pytest.fixture
def redis_cut_cluster(
    database_url: str, redis_cluster_prefix: str, tmp_path: Path
) -> Iterator[tuple[Instances, Instances, "TcpProxy"]]:
    """Two groups of server processes on this test's database and Redis prefix: the first reaches Redis directly,
    the second only through the returned proxy, which the test cuts (``down()``/``up()``). Not started: the test
    may set their environment first."""
    from urllib.parse import urlparse

    from tests.support.services import REDIS_URL
    from tests.support.tcp_proxy import TcpProxy

    target = urlparse(REDIS_URL)
    proxy = TcpProxy(target.hostname or "127.0.0.1", target.port or 6379).start()
    proxied_url = REDIS_URL.replace(target.netloc, f"127.0.0.1:{proxy.port}")
    direct = Instances(database_url, REDIS_URL, redis_cluster_prefix, tmp_path / "direct")
    proxied = Instances(database_url, proxied_url, redis_cluster_prefix, tmp_path / "proxied")
    for group in (direct, proxied):
        group.workdir.mkdir()
    try:
        yield direct, proxied, proxy
    finally:
        proxied.stop_all()
        direct.stop_all()
        proxy.close()


@contextmanager
def serving(data_dir: Path, **env: str) -> Iterator[Instance]:
    """``tengen serve`` as a person starts it: a SQLite file in ``data_dir``, ``TENGEN_*`` settings from ``env``.

    Yields the instance once ``/healthz`` answers; stops it afterwards (its output stays in ``log_text()``).
    """
    # House bots stay off unless a test asks for them (TENGEN_HOUSE_BOTS=true): their bridges would play in
    # other tests' games and weigh on the machine.
    environ = dict(os.environ, TENGEN_DATA_DIR=str(data_dir), TENGEN_ENV="development", TENGEN_HOUSE_BOTS="false")
    environ.pop("TENGEN_DATABASE_URL", None)
    environ.update(env)
    instance = Instance(environ, data_dir / "serve.log")
    try:
        instance.wait_ready(60)
        yield instance
    finally:
        instance.stop()
