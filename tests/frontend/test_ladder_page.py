"""The ladder page in a browser against the real server: a player joins, sees the rungs they may not challenge
greyed out with the server's own reason (in their language), challenges one, watches the ladder change as the
defender declines elsewhere (``ladder_changed``, no reload), and accepts a challenge, which opens the game."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, LANGUAGES, PHONE, Person
from tests.frontend.test_languages import OVERFLOWS

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180), pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

LADDER = "9x9-live"


class Account:
    """A registered player driven over HTTP (the people the browser's player meets on the ladder)."""

    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url)
        self.http.post("/api/guest").raise_for_status()
        self.name = "lad" + uuid.uuid4().hex[:9]
        registered = self.http.post("/api/auth/register", json={"username": self.name, "password": "s3cret-" + uuid.uuid4().hex})
        registered.raise_for_status()
        self.id = registered.json()["id"]

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.http.post(path, json=body)
        assert response.status_code < 400, response.text
        return dict(response.json())


def _rung(position: int) -> str:
    return f'table.ladder tr[data-position="{position}"]'


def test_the_ladder_page_greys_out_what_it_would_refuse_and_follows_the_ladder(browser: Browser, server: LiveServer) -> None:
    others = [Account(server.url) for _ in range(4)]
    for account in others:
        account.post(f"/api/ladders/{LADDER}/join")
    me = Person(browser, server.url)
    try:
        me.open()
        page = me.page
        short = "me" + uuid.uuid4().hex[:6]  # a name the header shows whole on a phone
        me.api("POST", "/api/auth/register", {"username": short, "password": "s3cret-" + uuid.uuid4().hex})
        page.reload()
        page.wait_for_selector(".user-name")
        me.follow("#/ladders")
        page.wait_for_selector("table.ladder")
        assert page.locator(".ladder-page .segmented button").all_inner_texts() == ["9×9 Live", "19×19 Live"]
        page.click("button.ladder-join")
        page.wait_for_selector('table.ladder tr.ladder-me[data-position="5"]')
        assert me.shown_text(".ladder-position") == "You are #5"
        # #1 is out of reach: greyed out, saying why in the server's own words; #2 to #4 are offered.
        top = page.locator(f"{_rung(1)} button")
        assert top.is_disabled() and top.get_attribute("data-reason") == "too_far_above"
        assert page.inner_text(f"{_rung(1)} .ladder-reason") == "Too far above you on the ladder."
        for position in (2, 3, 4):
            assert page.locator(f"{_rung(position)} button").is_enabled()
            assert page.locator(f"{_rung(position)} .ladder-reason").count() == 0
        view = me.api("GET", f"/api/ladders/{LADDER}")
        shown = [page.locator(f"{_rung(r['position'])} button").get_attribute("data-reason") or None for r in view["rungs"][:4]]
        assert shown == [r["reason"] for r in view["rungs"][:4]]
        # In another language the same reason in its words.
        me.language("ja")
        reason = "document.querySelector('table.ladder tr[data-position=\"1\"] .ladder-reason').textContent"
        page.wait_for_function(f"() => {reason} === '順位が離れすぎています。'")
        me.language("en")
        # A challenge to #4 as White: the other rungs are greyed out now, each with its reason.
        page.select_option("select.ladder-color", "white")
        page.click(f"{_rung(4)} button")
        page.wait_for_selector(f"{_rung(4)} button[data-reason='already_challenged']")
        assert page.locator(f"{_rung(2)} button").get_attribute("data-reason") == "too_many_ladder_challenges"
        assert me.shown_text(".ladder-challenge").startswith(f"You challenge {others[3].name} (#4)")
        challenge = me.api("GET", f"/api/ladders/{LADDER}")["me"]["challenges"][0]
        assert challenge["color"] == "white"
        # The defender declines elsewhere: the page hears ladder_changed and shows the new order without a reload.
        others[3].post(f"/api/ladders/challenges/{challenge['id']}/decline")
        page.wait_for_selector('table.ladder tr.ladder-me[data-position="4"]')
        assert f"{others[3].name} declined" in page.locator(".ladder-history li").first.inner_text()
        # A newcomer challenges me: I accept on the page and land in the game.
        newcomer = Account(server.url)
        newcomer.post(f"/api/ladders/{LADDER}/join")
        newcomer.post(f"/api/ladders/{LADDER}/challenges", {"defender_id": me.api("GET", "/api/me")["id"], "color": "black"})
        item = page.wait_for_selector(".ladder-challenge >> text=challenges you")
        assert item is not None
        found = {}
        for lang in LANGUAGES:  # nothing spills out of its box, in any language, on a desktop or a phone
            me.language(lang)
            for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                page.set_viewport_size(viewport)
                page.wait_for_timeout(100)
                found[(lang, name)] = page.evaluate(OVERFLOWS)
        assert {k: v for k, v in found.items() if v} == {}
        me.language("en")
        me.shot("ladder-desktop.png", DESKTOP)
        me.shot("ladder-phone.png", PHONE)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.set_viewport_size(DESKTOP)
        page.click(".ladder-challenge button.primary")
        page.wait_for_url("**/#/game/*")
        game_id = page.url.rsplit("/", 1)[1]
        game = me.api("GET", f"/api/games/{game_id}")
        assert game["players"]["B"]["name"] == newcomer.name and game["board_size"] == 9
        assert me.errors == []
    finally:
        me.close()
        for account in others:
            account.http.close()
