"""Cross-site request protection: a state-changing request or a WebSocket handshake whose ``Origin`` names
another site is refused with 403. A request without ``Origin`` (curl, scripts, native clients) is allowed:
browsers always send it on the requests that matter here."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _netloc(scheme: str, host: str, port: int | None) -> str:
    host = host.lower()
    if port is None or _DEFAULT_PORTS.get(scheme) == port:
        return host
    return f"{host}:{port}"


def origin_netloc(origin: str) -> str | None:
    try:
        parts = urlsplit(origin)
        if not parts.scheme or not parts.hostname:
            return None
        return _netloc(parts.scheme, parts.hostname, parts.port)
    except ValueError:
        return None


def host_netloc(host: str, scheme: str) -> str | None:
    return origin_netloc(f"{scheme}://{host}")


def origin_allowed(origin: str | None, host: str | None, scheme: str, allowed: Iterable[str] = ()) -> bool:
    if origin is None:
        return True
    source = origin_netloc(origin)
    if source is None:  # "null" and other opaque origins
        return False
    if host is not None and source == host_netloc(host, "https" if scheme in ("https", "wss") else "http"):
        return True
    return source in {origin_netloc(item) for item in allowed}


class OriginCheckMiddleware:
    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = tuple(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            checked = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
            if checked and not self._allowed(scope):
                await self._refuse(scope, send)
                return
        await self.app(scope, receive, send)

    def _allowed(self, scope: Scope) -> bool:
        # In a function of its own: the headers read here are not kept alive by this middleware's frame for as
        # long as the request runs (a WebSocket's whole life).
        headers = {key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]}
        return origin_allowed(headers.get("origin"), headers.get("host"), scope.get("scheme", "http"), self.allowed)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        body = orjson.dumps({"error": {"code": "forbidden_origin", "message": "Cross-site request refused."}})
        if scope["type"] == "websocket":
            if "websocket.http.response" not in scope.get("extensions", {}):
                await send({"type": "websocket.close", "code": 1008})  # the server answers the handshake with 403
                return
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": 403,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "websocket.http.response.body", "body": body})
            return
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
