"""Limits on password checks, as lichess sets them: per account, per client address, and for everyone.

Every log-in and registration costs an argon2 hash, and every log-in is a guess at a password. Counted before
the hash is computed, in Redis when the deployment has it (so the limits hold across instances):

- per account (the name tried, whether or not it exists): ``TENGEN_LOGIN_LIMIT_ACCOUNT`` per window;
- per client address: ``TENGEN_LOGIN_LIMIT_ADDRESS`` per window (registrations count too);
- all clients together: ``TENGEN_LOGIN_LIMIT_GLOBAL`` per minute.

The window is ``TENGEN_LOGIN_LIMIT_WINDOW`` seconds. Over any of them: 429 ``rate_limited`` with Retry-After.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from app.errors import RateLimited
from app.limits.rules import Limiter, Rule
from app.settings import Settings


def client_address(connection: HTTPConnection) -> str:
    """The client's address: the socket's peer, or what a trusted proxy forwarded (see app/server.py)."""
    return connection.client.host if connection.client is not None else "unknown"


async def check_password_limits(connection: HTTPConnection, account: str | None) -> None:
    settings: Settings = connection.app.state.settings
    limiter: Limiter = connection.app.state.limiter
    window = settings.login_limit_window
    checks = [
        (Rule("login-global", settings.login_limit_global, 60), "all", 60),
        (Rule("login-address", settings.login_limit_address, window), client_address(connection), window),
    ]
    if account is not None:
        checks.append((Rule("login-account", settings.login_limit_account, window), account, window))
    for rule, key, retry in checks:
        if not await limiter.allow(rule, key):
            raise RateLimited("Too many log-in attempts; wait a while before trying again.", int(retry))
