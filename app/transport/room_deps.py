"""What every live room is built from, whatever its domain: the hub, the database's session factory and the
clock. Built once where the rooms are made (app/main.py) and handed to each domain's rooms unchanged, so a
room's constructor takes one value for them instead of repeating them, and a new domain's room takes the same.
A domain adds what only its rooms need beside it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.transport.hub import Hub


@dataclass(frozen=True, slots=True)
class RoomDeps:
    hub: Hub
    sessionmaker: async_sessionmaker[AsyncSession]
    clock: Callable[[], float] = time.time  # epoch seconds; tests hand a clock they move
