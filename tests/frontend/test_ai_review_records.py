"""An uploaded record's AI review in Chromium against the real server and the real KataGo (two visits a position):
a shared review made from a pasted SGF with "also have KataGo review it" shows its uploader the review card on
the shared review's page; another visitor of that page is offered a review of their own (the button uploads the
review's record) and never sees the first one's; the #/reviews page lists the records and deletes one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.settings import Settings
from tests.conftest import LiveServer
from tests.frontend.people import ROOT, Person
from tests.support.katago import katago_dir  # noqa: F401 - a pytest fixture, taken by name as a test parameter

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.katago, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

RECORD = "(;GM[1]FF[4]SZ[9]KM[6.5]PB[Kuro]PW[Shiro];B[cc];W[gg];B[gc];W[cg];B[ee];W[eg];B[dg];W[ch])"
WAIT_MS = 300_000  # a shared 2-core machine: KataGo may be slow to start


@pytest.fixture
def server(settings: Settings, katago_dir: Path) -> Iterator[LiveServer]:
    update = {
        "frontend_dir": ROOT / "frontend",
        "katago": True,
        "engines_dir": katago_dir,
        "katago_buffers": [9],
        "katago_measure_visits": 1,
        "ai_review_quick_seconds": 0.0,
    }
    with LiveServer(settings.model_copy(update=update)) as live:
        yield live


def test_a_records_review_shows_on_its_shared_review_to_its_uploader_alone(browser: Browser, server: LiveServer) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url)
    try:
        ana.open("#/reviews")
        ana.page.fill(".sgf-paste", RECORD)
        ana.page.check("input[name=ai-review-record]")
        ana.page.click("[data-action=review-paste]")
        ana.page.wait_for_url("**/#/reviews/*")
        review_id = ana.page.url.rsplit("/", 1)[1]
        ana.page.wait_for_selector(".ai-review[data-state=done] .ai-summary-table", timeout=WAIT_MS)
        (record,) = ana.api("GET", "/api/ai-reviews/records")["records"]
        assert record["review_id"] == review_id and record["title"] == "Kuro – Shiro"
        shown = ana.api("GET", f"/api/ai-reviews/records/{record['record_id']}")
        assert shown["state"] == "done" and all(shown["positions"])
        for colour in ("B", "W"):
            cell = ana.shown_text(f'.ai-summary-table .accuracy td[data-color="{colour}"]')
            assert cell == f"{shown['summary'][colour]['accuracy']}%"

        # another visitor of the shared review: an offer of their own review, never the uploader's
        bao.open(f"#/reviews/{review_id}")
        bao.page.wait_for_selector("[data-action=ai-review-record]")
        assert bao.page.locator(".ai-review").count() == 0
        bao.page.click("[data-action=ai-review-record]")
        bao.page.wait_for_selector(".ai-review[data-state=done] .ai-summary-table", timeout=WAIT_MS)
        (theirs,) = bao.api("GET", "/api/ai-reviews/records")["records"]
        assert theirs["record_id"] != record["record_id"] and theirs["review_id"] == review_id
        assert bao.api("GET", f"/api/ai-reviews/records/{theirs['record_id']}")["moves"] == shown["moves"]

        # the uploader's records: listed with their state, deleted from the list
        ana.open("#/reviews")
        item = ana.page.wait_for_selector(f'.ai-records li[data-record="{record["record_id"]}"]')
        assert item is not None and "reviewed" in item.inner_text()
        ana.page.click(f'.ai-records li[data-record="{record["record_id"]}"] [data-action=delete-record]')
        ana.page.wait_for_selector(".ai-records li.muted")
        assert ana.api("GET", "/api/ai-reviews/records")["records"] == []
        assert ana.errors == [] and bao.errors == []
    finally:
        ana.close()
        bao.close()
