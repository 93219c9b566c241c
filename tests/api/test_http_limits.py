"""Bodies, headers and exposure, through a real uvicorn: what a stranger can send and what the app reveals."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.settings import Settings
from tests.conftest import MakeLiveServer

BIG = 1024 * 1024


async def test_a_body_over_the_cap_is_refused_with_its_length_declared(live_server: str) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as client:
        response = await client.post("/api/auth/login", content=b"x" * BIG, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


async def test_a_chunked_body_is_counted_as_it_streams_in(live_server: str) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(64):
            yield b"x" * 16384

    async with httpx.AsyncClient(base_url=live_server, timeout=60) as client:
        response = await client.post("/api/auth/login", content=chunks(), headers={"Content-Type": "application/json"})
    assert "content-length" not in response.request.headers
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


async def test_a_small_body_still_works(live_server: str) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as client:
        response = await client.post("/api/auth/login", json={"username": "nobody", "password": "wrong-password"})
    assert response.status_code == 401


async def test_a_huge_websocket_frame_is_refused_by_the_server(live_server: str) -> None:
    url = live_server.replace("http://", "ws://") + "/ws/lobby"
    async with connect(url, max_size=None) as ws:
        await ws.recv()  # the snapshot
        await ws.send("x" * BIG)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(10):
                await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_security_headers_on_pages_and_api(live_server: str) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as client:
        for path in ("/api/games/live", "/healthz", "/no-such-page"):
            headers = (await client.get(path)).headers
            csp = headers["content-security-policy"]
            assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "same-origin"


def test_the_frontend_has_no_inline_script_or_style() -> None:
    """The CSP forbids inline code: the page must work without it."""
    from app.settings import REPO_ROOT

    for page in (REPO_ROOT / "frontend").rglob("*.html"):
        text = page.read_text()
        assert "<style" not in text and " style=" not in text, page
        for tag in text.split("<script")[1:]:
            assert "src=" in tag.split(">")[0], f"inline script in {page}"
            assert tag.split(">", 1)[1].lstrip().startswith("</script"), f"inline script in {page}"


async def test_docs_and_metrics_only_where_the_operator_says(make_live_server: MakeLiveServer) -> None:
    closed = make_live_server(api_docs=False, metrics_networks=["10.0.0.0/8"])
    opened = make_live_server(api_docs=True, metrics_networks=["127.0.0.0/8"])
    async with httpx.AsyncClient(base_url=closed.url, timeout=60) as client:
        for path in ("/docs", "/openapi.json", "/metrics"):
            assert (await client.get(path)).status_code == 404, path
    async with httpx.AsyncClient(base_url=opened.url, timeout=60) as client:
        for path in ("/docs", "/openapi.json", "/metrics"):
            assert (await client.get(path)).status_code == 200, path


def test_production_refuses_a_weak_secret_key() -> None:
    for weak in ("x", "secret", "a" * 64, "abcabcabcabcabcabcabcabcabcabcabcabc"):
        with pytest.raises(ValueError, match="TENGEN_SECRET_KEY"):
            Settings(env="production", secret_key=weak)
    Settings(env="production", secret_key="kq3V9xZ0-fT7pLw2_Rb8YhN4sJc6Gd1MeUa5")
    Settings(env="development", secret_key="x")  # a developer's own machine


async def test_forwarded_for_is_ignored_unless_the_proxy_is_trusted(make_live_server: MakeLiveServer) -> None:
    """The per-address log-in limit counts the socket's peer: a forged X-Forwarded-For does not reset it."""
    untrusted = make_live_server(login_limit_address=3)
    trusted = make_live_server(login_limit_address=3, trusted_proxies=["127.0.0.1"])

    async def codes(url: str) -> list[int]:
        out = []
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            for i in range(5):
                response = await client.post(
                    "/api/auth/login",
                    json={"username": f"user{i}", "password": "wrong-pass"},
                    headers={"X-Forwarded-For": f"203.0.113.{i}"},
                )
                out.append(response.status_code)
        return out

    assert await codes(untrusted.url) == [401, 401, 401, 429, 429]
    assert await codes(trusted.url) == [401] * 5  # each forwarded address is counted on its own
