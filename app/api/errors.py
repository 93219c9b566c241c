"""One error shape for every HTTP failure: ``{"error": {"code": ..., "message": ...}}`` with a 4xx/5xx status."""

from __future__ import annotations

from http import HTTPStatus

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic_core import ErrorDetails
import asyncpg
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.errors import RateLimited, ServiceError
from app.field_limits import refusal
from app.store.db import ConnectionLost, is_unavailable

# Seconds a client is told to wait before trying again when the database cannot be had.
UNAVAILABLE_RETRY_AFTER = 2


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None, details: dict[str, int | str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": {**(details or {}), "code": code, "message": message}}, status_code=status, headers=headers)


def _status_code_name(status: int) -> str:
    try:
        return HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        return "error"


def _describe_validation(exc: RequestValidationError) -> str:
    """Where and what, never the submitted value (it may be a password)."""
    return "; ".join(_describe(error) for error in exc.errors()[:5]) or "Invalid request."


def _describe(error: ErrorDetails) -> str:
    location = ".".join(str(item) for item in error.get("loc", ()) if item not in ("body", "query", "path"))
    message = str(error.get("msg", "invalid"))
    return f"{location}: {message}" if location else message


def _counted(request: Request, code: str) -> str:
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.error(code)
    return code


async def _service_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    _counted(request, exc.code)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
    return error_response(exc.status, exc.code, exc.message, headers=headers, details=exc.details)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else _status_code_name(exc.status_code)
    code = _counted(request, _status_code_name(exc.status_code))
    return error_response(exc.status_code, code, detail, headers=dict(exc.headers) if exc.headers else None)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 ``invalid_request``; a body whose only fault is a value past a documented limit gets that limit's
    own code (``app/field_limits.py``: ``comment_too_long``, ``tree_too_deep``, ``title_too_long``...)."""
    assert isinstance(exc, RequestValidationError)
    limit = refusal(exc.errors())
    if limit is not None:
        return error_response(422, _counted(request, limit["type"]), _describe(limit))
    return error_response(422, _counted(request, "invalid_request"), _describe_validation(exc))


async def _store_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The database cannot be had right now (unreachable, refusing connections, or no pooled connection came
    free in time): 503 ``unavailable`` with Retry-After. Any other database error stays a server error."""
    if not is_unavailable(exc):
        raise exc
    return error_response(
        503,
        _counted(request, "unavailable"),
        "The service cannot reach its database right now; try again shortly.",
        headers={"Retry-After": str(UNAVAILABLE_RETRY_AFTER)},
    )


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    for failure in (SQLAlchemyError, asyncpg.PostgresError, ConnectionLost, ConnectionError, TimeoutError):
        app.add_exception_handler(failure, _store_unavailable)
