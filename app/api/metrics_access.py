"""Who may read ``/metrics``: the operator's monitoring networks, or whoever presents its token.

The counts it shows (sockets, games, error codes) are not for the public. Decided here, for every request,
from the instance's settings (docs/operations.md, "Health, readiness and metrics"):

- ``TENGEN_METRICS_TOKEN``: ``Authorization: Bearer <token>`` is served from any address;
- ``TENGEN_METRICS_NETWORKS``: a client whose address is in one of them is served. Unset, that is loopback
  outside production and nothing in production, where a reverse proxy on the same host makes every visitor
  look like loopback. A request relayed by a proxy the server does not trust (it carries ``X-Forwarded-For``
  or ``Forwarded`` and ``TENGEN_TRUSTED_PROXIES`` is empty) never counts as from a network: its peer address
  is the proxy's, not its client's.

Everyone else is answered 404, as if there were no such page.
"""

from __future__ import annotations

import hmac

from starlette.requests import HTTPConnection

from app.settings import Settings

FORWARDING_HEADERS = ("x-forwarded-for", "forwarded")


def may_read_metrics(connection: HTTPConnection) -> bool:
    settings: Settings = connection.app.state.settings
    if settings.metrics_token and _bearer_matches(connection, settings.metrics_token):
        return True
    if not settings.trusted_proxies and any(name in connection.headers for name in FORWARDING_HEADERS):
        return False
    client = connection.client.host if connection.client is not None else ""
    return client in connection.app.state.metrics_networks


def _bearer_matches(connection: HTTPConnection, token: str) -> bool:
    scheme, _, credential = connection.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(credential.strip().encode(), token.encode())
