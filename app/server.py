"""``serve(host, port)``: run pending migrations, then serve the app with uvicorn."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable
from importlib import metadata
from typing import Any

import uvicorn

from app.bots.house import start_house_bots
from app.logs import configure_logging, default_format
from app.main import create_app
from app.protocol import MAX_FRAME_BYTES
from app.settings import Settings, get_settings
from app.store.migrations import upgrade_to_head
from app.ws_protocol import STOCK_PROTOCOL, TESTED_WITH, untested_versions

log = logging.getLogger("tengen.server")


def serve(host: str | None = None, port: int | None = None) -> int:
    settings = get_settings()
    host = host or settings.host
    port = port if port is not None else settings.port
    configure_logging(settings.log_format or default_format(settings.env), settings.log_level)
    log.info("running database migrations")
    upgrade_to_head(settings.effective_database_url)
    log.info("serving on http://%s:%s", host, port)
    app = create_app(settings)
    # Child processes of their own, started before serving (their bridges connect once the server answers).
    house = start_house_bots(settings, host, port)
    tune_gc()
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level=settings.log_level,
            log_config=None,  # keep the handler configured above (JSON or text), access log included
            **uvicorn_options(settings),
        )
    finally:
        if house is not None:
            house.stop()
    return 0


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn serves the app (also used by the tests' in-process server)."""
    return {
        # X-Forwarded-For/-Proto are believed only from the proxies the operator names: otherwise anyone could
        # pick the client address the per-address limits count.
        "proxy_headers": bool(settings.trusted_proxies),
        "forwarded_allow_ips": list(settings.trusted_proxies) or None,
        "timeout_keep_alive": settings.keep_alive,
        # A stop never waits on a client: requests still running after the grace are cancelled (a client in
        # the middle of sending a body would otherwise hold the process for as long as it likes).
        "timeout_graceful_shutdown": settings.shutdown_grace_seconds,
        # uvicorn's sans-I/O protocol, holding about 8 KB less per open socket (app/lean_ws_protocol.py), at the
        # versions of uvicorn and websockets it was tested with; uvicorn's own otherwise.
        "ws": websocket_protocol(),
        # A larger WebSocket frame or message is refused (close 1009) before it is buffered; never below the
        # largest frame a socket's messages may need (app/protocol.py), which a lower setting would undercut.
        "ws_max_size": max(settings.ws_max_message_bytes, MAX_FRAME_BYTES),
        # Game messages are a few hundred bytes: compressing them costs a zlib context per socket (tens of
        # KB each) and CPU per recipient for almost no saving.
        "ws_per_message_deflate": False,
    }


_told_stock = False  # whether the log has said that the server serves with uvicorn's own protocol


def websocket_protocol(installed: Callable[[str], str] = metadata.version) -> type[asyncio.Protocol] | str:
    """The WebSocket protocol uvicorn serves with: ``LeanWebSocketProtocol`` when uvicorn and websockets are
    installed at the versions it was tested with (``TESTED_WITH``; it reaches into their private internals, so
    it is not even imported otherwise), else uvicorn's own (``STOCK_PROTOCOL``), said once in the log."""
    global _told_stock
    untested = untested_versions(installed)
    if not untested:
        from app.lean_ws_protocol import LeanWebSocketProtocol

        return LeanWebSocketProtocol
    if not _told_stock:
        _told_stock = True
        log.warning(
            "serving WebSockets with uvicorn's own protocol: the lean one was tested with %s, installed are %s",
            ", ".join(f"{name} {version}" for name, version in TESTED_WITH.items()),
            ", ".join(f"{name} {version or 'none'}" for name, version in untested.items()),
        )
    return STOCK_PROTOCOL


# Allocations (net of frees) between two youngest-generation collections; CPython's default is 700.
GC_YOUNG_THRESHOLD = 5_000
# Young collections between two collections of the middle generation (CPython's default is 10), and middle
# collections between two full ones (a full one also waits until a quarter more objects are long-lived).
GC_MIDDLE_THRESHOLD = 2
GC_OLD_THRESHOLD = 300


def tune_gc() -> None:
    """Keep the garbage collector's pauses short on a server holding thousands of sockets.

    Everything built before serving (modules, the app, its routes and schemas) is moved out of the collector's
    sight with ``gc.freeze()``: a full collection no longer walks it. The youngest generation is collected
    after 5,000 net allocations instead of 700, so that the short-lived objects of a move (its events, the
    statement's parameters) mostly die before a collection sees them instead of being promoted to the old
    generations, whose growth sets off full collections (80-170 ms each with 1000 spectators on one game,
    measured with ``gc.callbacks``). Not higher: a young collection walks every object allocated since the
    last one; at 50,000 each took 25-45 ms on a busy machine, at 10,000 4-11 ms of CPU, at 5,000 3-5 ms.

    The middle generation is collected after every third young collection. It walks what the young
    collections since its last run kept alive: when a thousand sockets connect, nearly everything each of them
    allocated, so with 20 young collections of 10,000 between two middle ones (until 2026-12-01) a middle one
    walked up to 200,000 objects and stalled the loop for 60-150 ms; now at most 15,000. Full collections are
    still considered only about every 4.5 million net allocations, as before (every 301st middle one).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, GC_MIDDLE_THRESHOLD, GC_OLD_THRESHOLD)
