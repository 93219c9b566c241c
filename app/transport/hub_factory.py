"""Choosing the hub from the settings."""

from __future__ import annotations

from typing import Protocol

from app.transport.hub import DEFAULT_LOG_SIZE, Hub
from app.transport.memory_hub import MemoryHub
from app.transport.redis_hub import RedisHub


class HubSettings(Protocol):
    """What the hub is chosen by (``app.settings.Settings`` has it)."""

    @property
    def redis_url(self) -> str | None: ...
    @property
    def redis_prefix(self) -> str: ...


def make_hub(settings: HubSettings, *, log_size: int = DEFAULT_LOG_SIZE) -> Hub:
    """A ``RedisHub`` when ``TENGEN_REDIS_URL`` is set, else the in-process ``MemoryHub``. Not started."""
    if settings.redis_url:
        return RedisHub(settings.redis_url, prefix=settings.redis_prefix, log_size=log_size)
    return MemoryHub(log_size=log_size)
