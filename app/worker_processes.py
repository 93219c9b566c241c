"""Worker processes that end with the server that started them.

The server runs slow work (password hashes, dead-stone proposals, analysis) in pools of spawned processes.
A pool's workers wait for their next job on a pipe, and a server that ends without shutting its pools down
(killed, or ended by the signal that uvicorn raises again once it has stopped, so that no exit handler runs)
would leave them waiting for ever. Each worker therefore starts :func:`follow_parent`: a thread that ends the
worker as soon as the process that spawned it is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from multiprocessing.context import SpawnContext

PARENT_CHECK_SECONDS = 1.0


def spawn_context() -> SpawnContext:
    """The pools' start method: a fresh interpreter, nothing of the server's state (its loop, its sockets)."""
    return multiprocessing.get_context("spawn")


def follow_parent(interval: float = PARENT_CHECK_SECONDS) -> None:
    """In a worker: end it within ``interval`` seconds of its parent's end (it is then given a new parent)."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()
