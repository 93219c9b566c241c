"""The server of the benches that run Tengen inside their own process: a real uvicorn (``LiveServer``) serving
the app on a SQLite database created for the run in a temporary folder, with the in-process hub.

Used by ``lobby_bench.py``, ``review_bench.py`` and ``study_bench.py``; each passes the settings it raises for
a reason of its own, and says why, itself.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.settings import Settings
from app.store.migrations import upgrade_to_head
from tests.conftest import LiveServer


@contextlib.contextmanager
def sqlite_server(**extra: Any) -> Iterator[LiveServer]:
    """A started ``LiveServer`` with the test settings and ``extra``; stopped, and its folder removed, on exit."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        upgrade_to_head(url)
        settings = Settings(
            env="test",
            data_dir=Path(tmp) / "data",
            database_url=url,
            secret_key="bench-" + uuid.uuid4().hex,
            frontend_dir=Path(tmp) / "none",
            **extra,
        )
        with LiveServer(settings) as server:
            yield server
