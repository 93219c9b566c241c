"""``/healthz`` (the process answers; KataGo's state beside it), ``/readyz`` (its database and Redis answer) and ``/metrics``."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from app.api.metrics_access import may_read_metrics
from app.errors import NotFound
from app.store.repositories import health as health_repo
from app.transport.redis_hub import RedisHub

router = APIRouter(tags=["health"])

CHECK_TIMEOUT_SECONDS = 2.0


@router.get("/healthz", summary="Liveness: the process is up and serving requests; the engines beside it")
async def healthz(request: Request) -> dict[str, Any]:
    """Always ``ok`` while the process answers; ``engines`` says whether KataGo runs here, and at what speed."""
    return {"status": "ok", "engines": {"katago": request.app.state.engines.status()}}


async def _database(request: Request) -> None:
    await health_repo.ping(request.app.state.engine)


async def _redis(request: Request) -> bool:
    """Ping Redis when this instance uses it; False when it runs the in-process hub."""
    hub = request.app.state.hub
    if not isinstance(hub, RedisHub):
        return False
    await hub.redis.ping()
    return True


@router.get("/readyz", summary="Readiness: the database and Redis (when configured) are reachable")
async def readyz(request: Request) -> JSONResponse:
    checks: dict[str, str] = {}
    failed: list[str] = []
    for name, check in (("database", _database), ("redis", _redis)):
        try:
            used = await asyncio.wait_for(check(request), CHECK_TIMEOUT_SECONDS)
        except Exception:  # any failure (refused, timeout, auth) means not ready
            checks[name] = "failed"
            failed.append(name)
        else:
            checks[name] = "not_configured" if used is False else "ok"
    if failed:
        message = f"unreachable: {', '.join(failed)}"
        return JSONResponse(
            {"status": "unavailable", "checks": checks, "error": {"code": "not_ready", "message": message}},
            status_code=503,
        )
    return JSONResponse({"status": "ready", "checks": checks})


@router.get("/metrics", summary="Prometheus metrics of this instance", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Only for the monitoring network or token the operator configured; others are told it is not here."""
    if not may_read_metrics(request):
        raise NotFound("not_found", "Not Found")
    body, content_type = request.app.state.metrics.render()
    return Response(body, media_type=content_type)
