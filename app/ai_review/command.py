"""``tengen analyst``: a worker process of the review queue, on this machine or another (a GPU box, several
boxes), beside the web servers. It needs the servers' PostgreSQL (the queue and the figures live there) and its
own KataGo (``tengen engines install`` on its machine; TENGEN_ENGINES_DIR, TENGEN_KATAGO_BUFFERS...), and, for
the figures to reach the game sockets as they arrive, the servers' Redis (without it, pages read them with GET).
On SQLite there is nothing to share: ``tengen serve`` runs the one analyst itself (docs/review.md)."""

from __future__ import annotations

import asyncio
import logging
import signal

from app.ai_review.analyst import Analyst, Budget
from app.ai_review.jobs import ReviewQueue
from app.engines.service import EngineService
from app.settings import Settings
from app.store.db import create_engine, create_sessionmaker, is_sqlite
from app.transport.hub_factory import make_hub

log = logging.getLogger("tengen.ai_review")


def run_analyst(settings: Settings) -> int:
    """Work the review queue until SIGINT or SIGTERM."""
    url = settings.effective_database_url
    if is_sqlite(url):
        log.error(
            "tengen analyst works the queue of a PostgreSQL database (TENGEN_DATABASE_URL); on SQLite, tengen serve runs it"
        )
        return 2
    engines = EngineService.from_settings(settings)
    if engines.absent is not None:
        log.error("KataGo is %s: an analyst without KataGo has nothing to review with", engines.absent)
        return 2

    async def main() -> None:
        database = create_engine(url, pool_size=2, max_overflow=2)
        sessionmaker = create_sessionmaker(database)
        hub = make_hub(settings)
        await hub.start()
        queue = ReviewQueue(url, sessionmaker)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        try:
            engines.start()
            budget = Budget(settings.ai_review_quick_seconds, settings.ai_review_deep_seconds)
            queue.start_worker(Analyst(sessionmaker, engines, hub, budget))
            log.info("analyst started: KataGo for %s", ", ".join(f"{lane.buffer}x{lane.buffer}" for lane in engines.lanes))
            await stop.wait()
        finally:
            await queue.close()
            await engines.close()
            await hub.close()
            await database.dispose()

    asyncio.run(main())
    return 0
