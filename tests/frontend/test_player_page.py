"""The player page, the leaderboard and the archive in a browser against the real server: rated games played
over real sockets, then the page read as a person sees it (rank, graph, figures, record, head-to-head)."""

from __future__ import annotations

import asyncio
import threading
import uuid
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, PHONE, Person, start_game, two_people
from tests.ratings.rated_play import PASSWORD, rated_game, registered, wait_games

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def _play(base_url: str) -> tuple[str, str]:
    """Two registered players and four rated games between them, played over the sockets; their names."""
    out: list[str] = []

    async def run() -> None:
        ana, bao = await registered(base_url, "club", prefix="ana"), await registered(base_url, "10k", prefix="bao")
        try:
            for n, (black, white, winner) in enumerate([(ana, bao, "B"), (bao, ana, "W"), (ana, bao, "W"), (bao, ana, "W")]):
                await rated_game(black, white, winner=winner, board_size=(9, 13, 19, 19)[n])
                await wait_games(ana, ana.user["name"], n + 1)
            out.extend([ana.user["name"], bao.user["name"]])
        finally:
            await ana.close()
            await bao.close()

    thread = threading.Thread(target=lambda: asyncio.run(run()))
    thread.start()
    thread.join(120)
    assert len(out) == 2, "the rated games were not played"
    return out[0], out[1]


def test_a_player_page_shows_rank_graph_record_and_head_to_head(browser: Browser, server: LiveServer) -> None:
    ana, bao = _play(server.url)
    viewer = Person(browser, server.url)
    try:
        viewer.open()
        viewer.api("POST", "/api/auth/login", {"username": bao, "password": PASSWORD})
        page = viewer.page
        # The header's name leads to one's own page.
        page.reload()
        page.click("a.user-name")
        page.wait_for_selector(f".player-head h1 >> text={bao}")
        # The address people share: /players/<name>.
        page.goto(f"{server.url}/players/{ana}")
        page.wait_for_selector(".player-head h1")
        profile = viewer.api("GET", f"/api/players/{ana}")
        assert page.inner_text(".player-head .big-rank") == profile["player"]["rank"]
        # The graph: the start and one point per rated game, drawn as SVG.
        page.wait_for_selector("svg.rating-graph polyline.line")
        assert page.locator("svg.rating-graph circle.dot").count() == 5
        rows = page.locator("table.figures tbody tr")
        assert rows.count() == 4
        overall = page.locator('table.figures tr[data-category="overall"] td').all_inner_texts()
        assert overall[0] == profile["ratings"]["overall"]["display"]
        assert overall[1] == str(round(profile["ratings"]["overall"]["rating"]))
        assert overall[4] == "4"
        # The 19x19 graph has two games.
        page.click('.graph-tabs button[data-category="19"]')
        page.wait_for_function("() => document.querySelectorAll('svg.rating-graph circle.dot').length === 3")
        page.click('.graph-tabs button[data-category="overall"]')
        page.wait_for_function("() => document.querySelectorAll('svg.rating-graph circle.dot').length === 5")
        assert "3" in page.inner_text(".records")  # three wins
        assert page.locator(".head-to-head .item").count() == 4
        assert page.locator(".recent-games .item .rank").count() == 8  # both names of four games carry a rank
        viewer.shot("player-desktop.png", DESKTOP)
        viewer.shot("player-phone.png", PHONE)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.set_viewport_size(DESKTOP)

        # A finished rated game shows what it did to each rating on the player cards.
        page.locator(".recent-games .item a.btn").first.click()
        page.wait_for_selector(".player-card .rating-change")
        page.wait_for_function("() => document.querySelectorAll('.player-card .rating-change').length === 2")
        cards = page.locator(".player-card").all_inner_texts()
        assert all("+" in c or "-" in c for c in cards), cards
        assert page.locator(".player-card .rank").count() == 2

        # The leaderboard per board size, and the archive searched by player and result.
        page.goto(f"{server.url}/#/leaderboard")
        page.click('.leaderboard-page button[data-category="19"]')
        page.wait_for_selector("table.leaderboard tbody tr")
        names = page.locator("table.leaderboard tbody .player-link").all_inner_texts()
        assert sorted(names) == sorted([ana, bao])
        page.goto(f"{server.url}/#/games?player={ana}")
        page.wait_for_selector(".archive-list .item")
        assert page.locator(".archive-list .item").count() == 4
        page.select_option(".archive-form select[name=result]", "loss")
        page.click(".archive-form button[type=submit]")
        page.wait_for_function("() => document.querySelectorAll('.archive-list .item').length === 1")
        # A name in a list leads to the player's page.
        page.locator(".archive-list .player-link", has_text=bao).first.click()
        page.wait_for_selector(f".player-head h1 >> text={bao}")
        # An automatic-handicap challenge shows the reader what the two ranks give them.
        strong = Person(browser, server.url)
        try:
            strong.open()
            strong.api("POST", "/api/auth/register", {"username": "kisei", "password": PASSWORD, "strength": "2d"})
            strong.api(
                "POST",
                "/api/challenges",
                {"board_size": 19, "time_control": {"kind": "none"}, "rated": True, "auto_handicap": True},
            )
            page.goto(f"{server.url}/#/")
            page.wait_for_selector(".challenge-colour >> text=handicap stones")
            text = page.locator(".challenge-colour").first.inner_text()
            assert "You play Black" in text, text
        finally:
            strong.close()
        assert not viewer.errors, viewer.errors
    finally:
        viewer.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_rated_game_resigned_at_once_says_it_was_not_rated_and_why(browser: Browser, server: LiveServer) -> None:
    with two_people(browser, server.url) as (ana, bao):
        for person, prefix in ((ana, "ana"), (bao, "bao")):
            name = f"{prefix}{uuid.uuid4().hex[:8]}"
            person.api("POST", "/api/auth/register", {"username": name, "password": PASSWORD})
            person.open()
        start_game(ana, bao, rated=True)
        for person in (ana, bao):
            assert "Rated" in person.shown_text(".game-info")
        bao.confirm("resign")
        for person in (ana, bao):
            person.page.wait_for_selector(".result-banner .unrated-reason[data-reason=too_short]")
            assert "Not rated: fewer than two stones by a side" in person.page.inner_text(".result-banner")
            assert "Not rated: fewer than two stones by a side" in person.page.inner_text(".game-info")
        # Opened afresh, the finished game's snapshot says it did not count, and why.
        ana.page.reload()
        ana.page.wait_for_selector(".result-banner .unrated-reason[data-reason=too_short]")
        assert "Not rated: fewer than two stones by a side" in ana.page.inner_text(".game-info")
        # The address of a player nobody has is not found, and the client's page says so.
        missing = ana.page.goto(f"{server.url}/players/nobody-{uuid.uuid4().hex[:8]}")
        assert missing is not None and missing.status == 404
        ana.page.goto(f"{server.url}/#/players/nobody-at-all")
        assert ana.shown_text(".player-page .card") == "No such player."
        assert ana.errors == [] and bao.errors == []
