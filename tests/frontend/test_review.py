"""A shared review in Chromium: led in one browser connected to one instance, followed live in two others
connected to another instance (two server processes on one PostgreSQL and one Redis). The owner opens it from
the finished game's page; the followers see each move, navigation, comment and mark as it happens; control is
handed to a follower and taken back; chat reaches everyone; the game's page lists the review."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, ROOT, Person
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import Player
from tests.support.reviews import MOVES, finished_game
from tests.support.services import CHROMIUM, need_chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def _game(url: str) -> str:
    async def make() -> str:
        black, white = await Player(url).visit(), await Player(url).visit()
        try:
            return await finished_game(black, white)
        finally:
            await black.close()
            await white.close()

    # In a thread of its own: playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, make()).result()


def _wait_stone(person: Person, x: int, y: int, present: bool = True) -> None:
    selector = f'svg.board .stone[data-x="{x}"][data-y="{y}"]'
    person.page.wait_for_selector(selector, state="attached" if present else "detached")


def _wait_text(person: Person, selector: str, text: str) -> None:
    person.page.wait_for_function(
        "([sel, text]) => [...document.querySelectorAll(sel)].some((el) => el.textContent.includes(text))",
        arg=[selector, text],
    )


@POSTGRES_ONLY
def test_a_review_led_in_one_browser_is_followed_live_in_two_others_across_instances(cluster: Instances) -> None:
    cluster.env["TENGEN_FRONTEND_DIR"] = str(ROOT / "frontend")
    lead_server, follow_server = cluster.start(2)
    game_id = _game(lead_server.url)
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        teacher = Person(browser, lead_server.url)
        ana, bao = Person(browser, follow_server.url), Person(browser, follow_server.url)
        people = (teacher, ana, bao)
        try:
            teacher.open(f"#/game/{game_id}")
            teacher.page.click("button[data-action=start-review]")
            teacher.page.wait_for_url(re.compile(r"#/reviews/\w+$"))
            review_id = teacher.page.url.rsplit("/", 1)[1]
            teacher.page.wait_for_selector(".review[data-leading=true]")
            for person in (ana, bao):
                person.open(f"#/reviews/{review_id}")
                person.page.wait_for_selector(".review[data-leading=false] svg.board .pt")
            for person in people:  # everyone in the room, by name, on both instances
                person.page.wait_for_function("() => document.querySelectorAll('.review-person').length === 3")

            # The review opens at the start; the teacher steps to the end of the game, then tries a variation.
            teacher.page.click("button[data-nav=last]")
            for person in (ana, bao):
                for x, y in MOVES:
                    _wait_stone(person, x, y)
            teacher.page.click("button[data-nav=prev]")
            for person in (ana, bao):
                x, y = MOVES[-1]
                _wait_stone(person, x, y, present=False)
            teacher.click_point(4, 4)
            for person in (ana, bao):
                _wait_stone(person, 4, 4)
                _wait_text(person, ".review-move", "E5")
            teacher.page.fill("textarea.review-comment", "White should answer here")
            teacher.page.click("button[data-action=save-comment]")
            teacher.page.click("button[data-tool=triangle]")
            teacher.click_point(6, 2)
            for person in (ana, bao):
                _wait_text(person, ".review-comment-text", "White should answer here")
                person.page.wait_for_selector('svg.board .anno.triangle[data-x="6"][data-y="2"]', state="attached")
                assert person.page.locator("button[data-tool]").first.is_hidden()  # followers have no tools

            # A follower cannot move the board; control goes to Ana, then back to the teacher.
            assert ana.page.locator("button[data-nav=prev]").is_disabled()
            me = ana.api("GET", "/api/me")
            ana_id = me.get("user", me)["id"]
            teacher.page.click(f'.review-person[data-user="{ana_id}"] button[data-action=hand]')
            ana.page.wait_for_selector(".review[data-leading=true]")
            _wait_text(bao, ".review-leader", ana.page.inner_text(".user-name"))
            ana.page.click("button[data-tool=play]")
            ana.click_point(2, 4)
            for person in (teacher, bao):
                _wait_stone(person, 2, 4)
            teacher.page.click("button[data-action=take-control]")
            teacher.page.wait_for_selector(".review[data-leading=true]")
            ana.page.wait_for_selector(".review[data-leading=false]")

            # Chat beside the board reaches everyone.
            bao.page.fill(".chat-input", "why not the corner?")
            bao.page.press(".chat-input", "Enter")
            for person in (teacher, ana):
                _wait_text(person, ".chat-list", "why not the corner?")

            teacher.page.fill("textarea.review-comment", "Black cuts here instead")  # as the README shows it
            teacher.page.click("button[data-action=save-comment]")
            _wait_text(ana, ".review-comment-text", "Black cuts here instead")
            teacher.shot("review-desktop.png", DESKTOP)

            # A follower who reloads comes back to the teacher's position.
            bao.page.reload()
            _wait_stone(bao, 2, 4)
            # The game's page lists the review.
            ana.open(f"#/game/{game_id}")
            ana.page.wait_for_selector(f'.reviews-card [data-review="{review_id}"]')
            for person in people:
                assert person.errors == [], person.errors
        finally:
            for person in people:
                person.close()
            browser.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_review_page_fits_in_every_language_at_desktop_and_phone_width(browser: Browser, server: LiveServer) -> None:
    from tests.frontend.people import LANGUAGES, PHONE
    from tests.frontend.test_languages import OVERFLOWS

    game_id = _game(server.url)
    teacher, ana = Person(browser, server.url), Person(browser, server.url)
    try:
        teacher.open(f"#/game/{game_id}")
        teacher.page.click("button[data-action=start-review]")
        teacher.page.wait_for_url(re.compile(r"#/reviews/\w+$"))
        review_id = teacher.page.url.rsplit("/", 1)[1]
        ana.open(f"#/reviews/{review_id}")
        teacher.page.wait_for_function("() => document.querySelectorAll('.review-person').length === 2")
        teacher.page.click("button[data-nav=next]")
        teacher.page.wait_for_selector('.review-line .mv[aria-current="true"]')
        teacher.click_point(4, 4)  # a variation beside the game's second move: two buttons to choose from
        teacher.page.wait_for_selector("svg.board .stone[data-x='4'][data-y='4']", state="attached")
        teacher.page.click("button[data-nav=prev]")
        teacher.page.wait_for_selector(".review-variations button >> nth=1")
        found = {}
        for person, role in ((teacher, "leader"), (ana, "follower")):
            person.page.wait_for_selector(".review-variations button >> nth=1")
            for lang in LANGUAGES:
                person.language(lang)
                for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                    person.page.set_viewport_size(viewport)
                    person.page.wait_for_timeout(100)
                    found[(lang, name, role)] = person.page.evaluate(OVERFLOWS)
        assert {k: v for k, v in found.items() if v} == {}
        assert teacher.errors == [] and ana.errors == []
    finally:
        teacher.close()
        ana.close()
