"""A password check that lasts until the test lets it end, run by the server's hashing worker process.

The worker is another process: it and the test meet through files in the folder named by
``TENGEN_TEST_HASH_GATE`` (set before the worker starts; a spawned process inherits the environment).
"""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

from app.accounts.passwords import verify_password

GATE_ENV = "TENGEN_TEST_HASH_GATE"


def gated_verify(password_hash: str, password: str) -> bool:
    """``verify_password``, once the gate is open (60 s at most); says it has started first."""
    gate = Path(os.environ[GATE_ENV])
    (gate / f"entered-{uuid.uuid4().hex}").touch()
    deadline = time.monotonic() + 60
    while not (gate / "open").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return verify_password(password_hash, password)


class Gate:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def entered(self) -> int:
        """How many checks have started."""
        return len(list(self.folder.glob("entered-*")))

    def open(self) -> None:
        (self.folder / "open").touch()


def dying_verify(password_hash: str, password: str) -> bool:
    """A hashing worker that dies in the middle of a check."""
    os._exit(1)


def instant_verify(password_hash: str, password: str) -> bool:
    """A check that ends at once and always passes (for tests of what happens around the worker)."""
    return True
