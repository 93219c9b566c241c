"""Serialising protocol messages: once per event, the same bytes for every recipient."""

from __future__ import annotations

from typing import Any

import orjson


def encode(message: Any) -> bytes:
    """A message as compact UTF-8 JSON bytes (send to a WebSocket with ``data.decode()`` as a text frame)."""
    return orjson.dumps(message)


def decode(data: bytes | str) -> Any:
    """The message encoded in ``data``."""
    return orjson.loads(data)
