"""``katago_dir``: KataGo for the tests that run it, installed once into a folder shared by every run
(``ENGINES_DIR``), then reused. Tests take the fixture by importing it.

The first run on a machine downloads the pinned wheel and sets KataGo up there (``tengen engines install``, the
real command); later runs find the record and install nothing. Without OpenCL, or when the install fails, the
tests skip with the reason (and fail under ``TENGEN_REQUIRE_SERVICES=1``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.server_process import REPO_ROOT
from tests.support.services import ENGINES_DIR, katago_installed, need_katago

INSTALL_SECONDS = 1800  # a first install downloads about 106 MB and starts KataGo three times


@pytest.fixture(scope="session")
def katago_dir() -> Path:
    if not katago_installed():
        from app.engines import opencl

        try:
            opencl.devices()
        except opencl.OpenClMissing as exc:
            need_katago(f"{exc} (Debian packages: {' '.join(exc.packages)})")
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", "engines", "install"],
            env={**os.environ, "TENGEN_ENGINES_DIR": str(ENGINES_DIR)},
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=INSTALL_SECONDS,
        )
        if done.returncode != 0:
            need_katago(f"`tengen engines install` failed: {(done.stdout + done.stderr).strip()[-800:]}")
    need_katago()
    return ENGINES_DIR
