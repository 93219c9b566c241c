"""Security headers on every HTTP answer, and who may read ``/metrics``.

The frontend is plain ES modules and a stylesheet from this origin, with no inline script or style, so the
Content-Security-Policy allows nothing else: no other origin, no inline code, no framing (clickjacking).
The OpenAPI pages (served only where the operator enables them) load Swagger UI from its CDN with an inline
script, so they get only the framing rule.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_CSP = "frame-ancestors 'none'"
DOCS_PATHS = ("/docs", "/redoc", "/openapi.json")

_COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = DOCS_CSP if scope["path"].startswith(DOCS_PATHS) else CSP

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {key.lower() for key, _ in headers}
                headers += [item for item in _COMMON if item[0] not in present]
                if b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", csp.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Networks:
    """A set of IP networks (``"10.0.0.0/8"``, ``"::1"``); ``address in networks``."""

    def __init__(self, items: Iterable[str]) -> None:
        self.networks = [ipaddress.ip_network(item.strip(), strict=False) for item in items if item.strip()]

    def __contains__(self, address: object) -> bool:
        try:
            ip = ipaddress.ip_address(str(address))
        except ValueError:
            return False
        return any(ip in network for network in self.networks)
