"""The AI review end to end: a short 9x9 game played in Chromium against the real server, its review asked for on
the game page and computed by the real KataGo (two visits a position), the figures reaching the page on the game's
socket, and the page showing the server's own figures (GET /api/games/{id}/review) and nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.rules import to_gtp
from app.settings import Settings
from tests.conftest import LiveServer
from tests.frontend.people import ROOT, Person, start_game
from tests.support.katago import katago_dir  # noqa: F401 - a pytest fixture, taken by name as a test parameter

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.katago, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

MOVES = [(2, 2), (6, 6), (6, 2), (2, 6), (4, 4), (4, 6)]
WAIT_MS = 300_000  # a shared 2-core machine: KataGo may be slow to start


@pytest.fixture
def server(settings: Settings, katago_dir: Path) -> Iterator[LiveServer]:
    """The real server with its KataGo on 9x9, its analyst in process, two visits a position (quick and deep)."""
    update = {
        "frontend_dir": ROOT / "frontend",
        "katago": True,
        "engines_dir": katago_dir,
        "katago_buffers": [9],
        "katago_measure_visits": 1,
        "ai_review_quick_seconds": 0.0,
        "ai_review_deep_seconds": 0.0,
    }
    with LiveServer(settings.model_copy(update=update)) as live:
        yield live


def test_a_review_asked_for_on_the_game_page_arrives_on_its_socket_and_shows_the_servers_figures(
    browser: Browser, server: LiveServer
) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url)
    try:
        for person in (ana, bao):
            person.open()
        game_id = start_game(ana, bao)
        for n, (x, y) in enumerate(MOVES):
            mover, other = (ana, bao) if n % 2 == 0 else (bao, ana)
            mover.click_point(x, y)
            other.wait_moves(n + 1)
        assert ana.page.locator(".ai-review").is_hidden()
        bao.confirm("resign")
        ana.page.click(".ai-review[data-state=none] [data-action=ai-review]", timeout=WAIT_MS)
        # the game page asks once and then only listens: the figures and the end come on the game's socket
        ana.page.wait_for_selector(".ai-review[data-state=done] .ai-summary-table", timeout=WAIT_MS)
        review = ana.api("GET", f"/api/games/{game_id}/review")
        assert review["state"] == "done" and all(review["positions"])
        for colour in ("B", "W"):
            summary = review["summary"][colour]
            cell = ana.shown_text(f'.ai-summary-table .accuracy td[data-color="{colour}"]')
            assert cell == f"{summary['accuracy']}%"
            shown = ana.page.locator(f'.ai-mistake-col[data-color="{colour}"] .ai-mistake').all_inner_texts()
            assert shown == [
                f"{m['i']}. {to_gtp(tuple(m['point']), 9) if m['point'] else 'pass'} −{m['points_lost']:.1f}"
                for m in review["mistakes"][colour]
            ]
        # the deeper review replaces the quick one's figures; the page follows it to its end on the socket too
        ana.page.click("[data-action=ai-review-deep]")
        ana.page.wait_for_function(
            "() => document.querySelector('.ai-status').textContent === 'Reviewed by KataGo (deep).'", timeout=WAIT_MS
        )
        assert all(p["depth"] == "deep" for p in ana.api("GET", f"/api/games/{game_id}/review")["positions"])
        assert ana.errors == [] and bao.errors == []
    finally:
        ana.close()
        bao.close()
