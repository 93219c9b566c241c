"""The error every service raises for a client mistake: a snake_case ``code``, a human ``message`` and the
HTTP status the API answers with. The API turns it into ``{"error": {"code", "message"}}``."""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, code: str, message: str, status: int = 400, details: dict[str, int | str] | None = None) -> None:
        """``details``: facts the client acts on, beside the code (``move``: the number of the move refused)."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.details = details or {}


class NotFound(ServiceError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, 404)


class Forbidden(ServiceError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, 403)


class Conflict(ServiceError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, 409)


class RateLimited(ServiceError):
    """Over a limit: 429 with ``Retry-After`` (seconds)."""

    def __init__(self, message: str, retry_after: int, code: str = "rate_limited") -> None:
        super().__init__(code, message, 429)
        self.retry_after = retry_after
