"""Signed, time-limited tokens in the links the server mails: verify an address, reset a password, unsubscribe.

A token is the purpose-salted signature (itsdangerous, the server's secret key) of a small JSON object with
its expiry in server time (``x``), so tests move the server's clock rather than wait. Each purpose names what
must still hold when the link is used, and the link stops working once it no longer does:

- verify: the user and the address; the address must still be the one waiting for verification;
- reset: the user and their session version, which the reset itself bumps (so a link works once);
- unsubscribe: the user and the address it was sent to (no expiry: an old message's link keeps working).
"""

from __future__ import annotations

from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

from app.errors import ServiceError

PURPOSES = ("verify", "reset", "unsubscribe")


class MailTokens:
    def __init__(self, secret: str) -> None:
        self._serializers = {p: URLSafeSerializer(secret, salt=f"tengen-mail-{p}") for p in PURPOSES}

    def make(self, purpose: str, claims: dict[str, Any], expires_at: float | None) -> str:
        data = dict(claims)
        if expires_at is not None:
            data["x"] = int(expires_at)
        return str(self._serializers[purpose].dumps(data))

    def read(self, purpose: str, token: str, now: float) -> dict[str, Any]:
        """The claims of a valid token; ``invalid_token`` (400) when it is forged or expired."""
        try:
            data = self._serializers[purpose].loads(token)
        except BadSignature as exc:
            raise ServiceError("invalid_token", "This link is not valid.") from exc
        if not isinstance(data, dict):
            raise ServiceError("invalid_token", "This link is not valid.")
        if "x" in data and now > float(data["x"]):
            raise ServiceError("expired_token", "This link has expired; ask for a new one.")
        return data
