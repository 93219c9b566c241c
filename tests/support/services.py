"""Finding the real services the tests use, and skipping (or failing) clearly without them.

With ``TENGEN_REQUIRE_SERVICES=1`` (as CI sets it) a missing service fails the test instead of skipping it.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
import socket
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlparse

import pytest

POSTGRES_URL = os.environ.get("TENGEN_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("TENGEN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
GNUGO = os.environ.get("TENGEN_TEST_GNUGO", "/usr/games/gnugo")
CHROMIUM = os.environ.get("TENGEN_TEST_CHROMIUM", "/usr/bin/chromium")
NGINX = os.environ.get("TENGEN_TEST_NGINX", "/usr/sbin/nginx")
# Where the tests install KataGo once (`tengen engines install`, about 280 MB), outside the repository and kept
# between runs; the pinned version names a folder inside it (app/engines/layout.py), so a new pin installs anew.
ENGINES_DIR = Path(os.environ.get("TENGEN_TEST_ENGINES_DIR", Path.home() / ".cache" / "tengen-tests" / "engines"))


def pg_admin(*statements: str) -> None:
    """Run administrative statements (CREATE/DROP DATABASE) on the test server's maintenance database."""
    import asyncpg

    async def run() -> None:
        connection = await asyncpg.connect(POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            for statement in statements:
                await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(run())


def services_required() -> bool:
    return os.environ.get("TENGEN_REQUIRE_SERVICES", "") not in ("", "0", "false", "no")


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url.replace("+asyncpg", ""))
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port), 1):
            return True
    except OSError:
        return False


@lru_cache
def postgres_available() -> bool:
    return _reachable(POSTGRES_URL, 5432)


@lru_cache
def redis_available() -> bool:
    return _reachable(REDIS_URL, 6379)


def gnugo_available() -> bool:
    return shutil.which(GNUGO) is not None


def nginx_available() -> bool:
    return shutil.which(NGINX) is not None


def chromium_available() -> bool:
    if shutil.which(CHROMIUM) is None:
        return False
    return importlib.util.find_spec("playwright") is not None


def need(available: bool, what: str) -> None:
    """Skip the calling test with a stated reason when ``what`` is missing; fail instead under CI."""
    if available:
        return
    message = f"{what} is not available"
    if services_required():
        pytest.fail(f"{message}, and TENGEN_REQUIRE_SERVICES is set")
    pytest.skip(f"{message} (set TENGEN_REQUIRE_SERVICES=1 to make this a failure)")


def need_postgres() -> None:
    need(postgres_available(), f"PostgreSQL at {POSTGRES_URL}")


def need_redis() -> None:
    need(redis_available(), f"Redis at {REDIS_URL}")


def need_gnugo() -> None:
    need(gnugo_available(), f"GNU Go ({GNUGO}; Debian package gnugo)")


def need_chromium() -> None:
    need(chromium_available(), f"Chromium ({CHROMIUM}; Debian package chromium) with the playwright package")


def need_nginx() -> None:
    need(nginx_available(), f"nginx ({NGINX}; Debian package nginx)")


def katago_installed() -> bool:
    from app.engines.layout import Installed, Layout

    return Installed.read(Layout.under(ENGINES_DIR)) is not None


def need_katago(why: str = "") -> None:
    """KataGo installed in ``ENGINES_DIR`` (the ``katago_dir`` fixture installs it; ``why``: what went wrong)."""
    what = f"KataGo in {ENGINES_DIR} (`tengen engines install`: docs/engines.md)"
    need(katago_installed(), f"{what}: {why}" if why else what)
