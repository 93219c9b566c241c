"""The signed session cookie: it names a user and the session version it was issued for."""

from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeTimedSerializer

COOKIE_NAME = "tengen_session"
MAX_AGE = 180 * 24 * 3600  # seconds


@dataclass(frozen=True)
class SessionClaim:
    user_id: int
    session_version: int


class SessionSigner:
    def __init__(self, secret_key: str) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="tengen.session")

    def sign(self, claim: SessionClaim) -> str:
        return self._serializer.dumps([claim.user_id, claim.session_version])

    def read(self, value: str | None) -> SessionClaim | None:
        """The claim in a cookie value, or None when it is missing, forged, expired or malformed."""
        if not value:
            return None
        try:
            data = self._serializer.loads(value, max_age=MAX_AGE)
        except BadSignature:
            return None
        if (
            not isinstance(data, list)
            or len(data) != 2
            or not all(isinstance(item, int) and not isinstance(item, bool) for item in data)
        ):
            return None
        return SessionClaim(user_id=data[0], session_version=data[1])
