"""Logging: one JSON object a line (production) or plain text (development), with the game id on game lines.

``game_id`` comes from a context variable: the game WebSocket endpoint binds it for everything its task logs,
and a room passes it explicitly (``extra={"game_id": ...}``) for work done outside any socket (deadlines).
Uvicorn's own loggers, access log included, go through the same handler.
"""

from __future__ import annotations

import contextvars
import logging
import sys
from datetime import datetime, timezone
from typing import Any, TextIO

import orjson

game_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("tengen_game_id", default=None)

FORMATS = ("json", "text")
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")

# Attributes every LogRecord has; anything else on a record came from ``extra`` and is logged as a field.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


def bind_game(game_id: str | None) -> contextvars.Token[str | None]:
    """Tag every log line of the current task (and tasks it starts) with ``game_id``."""
    return game_id_var.set(game_id)


class GameIdFilter(logging.Filter):
    """Sets ``record.game_id`` from the context unless the call passed one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "game_id", None) is None:
            record.game_id = game_id_var.get()
        return True


def _access_fields(record: logging.LogRecord) -> dict[str, Any]:
    """Uvicorn's access line is ``'%s - "%s %s HTTP/%s" %d'`` with (client, method, path, version, status)."""
    args = record.args
    if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
        client, method, path, version, status = args
        return {"client": client, "method": method, "path": path, "http_version": version, "status": status}
    return {}


class JsonFormatter(logging.Formatter):
    """One compact JSON object a line: time, level, logger, message, game_id, any extra fields, exc_info."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        game_id = getattr(record, "game_id", None)
        if game_id is not None:
            out["game_id"] = game_id
        out.update(_access_fields(record))
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in out and key not in ("game_id", "color_message"):
                out[key] = value
        if record.exc_info:
            out["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            out["stack_info"] = self.formatStack(record.stack_info)
        return orjson.dumps(out, default=str).decode()


class TextFormatter(logging.Formatter):
    """``LEVEL logger [game id] message`` for reading in a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s%(game)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        game_id = getattr(record, "game_id", None)
        record.game = f" [game {game_id}]" if game_id else ""
        return super().format(record)


def default_format(env: str) -> str:
    return "json" if env == "production" else "text"


def make_handler(fmt: str, stream: TextIO | None = None) -> logging.Handler:
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.addFilter(GameIdFilter())
    return handler


def configure_logging(fmt: str, level: str = "info", stream: TextIO | None = None) -> logging.Handler:
    """Route the root logger and uvicorn's loggers through one handler in ``fmt``; returns the handler.

    Pass ``log_config=None`` to ``uvicorn.run`` afterwards so uvicorn keeps this setup.
    """
    handler = make_handler(fmt, stream)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        logger.propagate = True
        logger.setLevel(level.upper())
    return handler
