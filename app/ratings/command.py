"""``tengen ratings rebuild``: recompute every rating from the starting ratings and the rated games."""

from __future__ import annotations

import asyncio

from app.ratings import service
from app.settings import get_settings
from app.store.db import create_engine, create_sessionmaker


def rebuild_command() -> int:
    settings = get_settings()

    async def run() -> int:
        engine = create_engine(settings.effective_database_url)
        try:
            return await service.rebuild(create_sessionmaker(engine), settings.rating_tau)
        finally:
            await engine.dispose()

    count = asyncio.run(run())
    print(f"rebuilt ratings from {count} rated game(s)")
    return 0
