"""State-changing requests from a foreign Origin are refused with 403 and the error shape."""

from __future__ import annotations

import httpx
import pytest

from app.api.origin import origin_allowed


async def test_foreign_origin_is_refused_and_nothing_changes(client: httpx.AsyncClient) -> None:
    await client.post("/api/guest")
    response = await client.post("/api/challenges", json={}, headers={"Origin": "https://evil.example"})
    assert response.status_code == 403
    assert response.json() == {"error": {"code": "forbidden_origin", "message": "Cross-site request refused."}}
    assert (await client.get("/api/challenges")).json()["challenges"] == []
    for origin in ("null", "http://testserver.evil.example", "http://testserver:9999"):
        assert (await client.post("/api/auth/logout", headers={"Origin": origin})).status_code == 403


async def test_same_origin_and_missing_origin_are_allowed(client: httpx.AsyncClient) -> None:
    same = await client.post("/api/challenges", json={}, headers={"Origin": "http://testserver"})
    assert same.status_code == 201
    missing = await client.post("/api/challenges", json={})
    assert missing.status_code == 201
    # Reads are never refused: a foreign page may link to them.
    assert (await client.get("/api/challenges", headers={"Origin": "https://evil.example"})).status_code == 200


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "allowed", "ok"),
    [
        ("https://go.example.org", "go.example.org", "http", (), True),  # TLS ended at a proxy
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "http", (), True),
        ("http://localhost:8000", "127.0.0.1:8000", "http", (), False),
        ("https://app.example.org", "api.example.org", "https", ("https://app.example.org",), True),
        ("null", "a", "http", (), False),
        (None, "a", "http", (), True),
    ],
)
def test_origin_allowed(origin: str | None, host: str, scheme: str, allowed: tuple[str, ...], ok: bool) -> None:
    assert origin_allowed(origin, host, scheme, allowed) is ok
