"""The AI review tests run the real KataGo (``katago_dir`` installs it once: tests/support/katago.py), through
servers whose settings are ``stack_settings`` here: each stack's database and hub (tests/support/room_fixtures.py),
KataGo on 9x9, measured in one visit, and two visits a position (the least)."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.settings import Settings
from tests.support.room_fixtures import stack_settings as room_settings  # noqa: F401 - the database and hub of each stack
from tests.support.katago import katago_dir

__all__ = ["katago_dir"]

KATAGO_REVIEW = {
    "katago": True,
    "katago_buffers": [9],
    "katago_measure_visits": 1,
    "ai_review_quick_seconds": 0.0,  # two visits a position (the least)
}


@pytest.fixture
async def stack_settings(room_settings: Settings, katago_dir: Path) -> AsyncIterator[Settings]:
    yield room_settings.model_copy(update={**KATAGO_REVIEW, "engines_dir": katago_dir})
