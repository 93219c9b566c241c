"""The application factory: /healthz, OpenAPI, the static frontend mount and the error handlers."""

from __future__ import annotations

from pathlib import Path

import httpx

from app.main import create_app
from app.settings import Settings


async def test_healthz_and_docs(client: httpx.AsyncClient) -> None:
    health = (await client.get("/healthz")).json()
    assert health["status"] == "ok" and health["engines"]["katago"]["state"] == "off"  # tests start KataGo themselves
    assert (await client.get("/docs")).status_code == 200
    paths = (await client.get("/openapi.json")).json()["paths"]
    assert {"/api/challenges", "/api/challenges/{challenge_id}/accept", "/api/games/live"} <= set(paths)


async def test_frontend_served_only_when_present(settings: Settings, tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<!doctype html><title>Tengen</title>")
    for frontend, expected in ((tmp_path / "site", 200), (tmp_path / "missing", 404)):
        application = create_app(settings.model_copy(update={"frontend_dir": frontend}))
        async with application.router.lifespan_context(application):
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://t") as http:
                response = await http.get("/")
                assert response.status_code == expected
                if expected == 200:
                    assert "<title>Tengen</title>" in response.text
                assert (await http.get("/healthz")).status_code == 200


async def test_method_not_allowed_uses_the_error_shape(client: httpx.AsyncClient) -> None:
    response = await client.put("/api/challenges")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


async def test_malformed_json_uses_the_error_shape(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/challenges", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"
