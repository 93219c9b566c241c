"""The header in Chromium against the real server: what an anonymous visitor, a guest and a registered player
see in it on every page, and its size on a phone (one row, nothing wider than the screen, in every language),
with the menu that holds what does not fit in that row."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import LANGUAGES, PAGES, Person, a_game_and_a_review, start_game

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

ROW = 64  # px: the height of one row of the header (a touch target and its padding), and no more
# What a header shows, as a person reads it: its visible text, whether a name, the guest tag, a turn count or
# "Log in" are shown, and whether anything in it reaches past the right edge of the window.
HEADER = """() => {
    const header = document.querySelector('header.topbar');
    const shown = (sel) => [...header.querySelectorAll(sel)].some((el) => el.getClientRects().length > 0);
    return {
        text: header.innerText,
        name: shown('.user-name'),
        guest_tag: shown('.guest-tag'),
        turn_badge: shown('#turn-badge'),
        log_in: [...header.querySelectorAll('button')]
            .some((b) => b.getClientRects().length && b.textContent.trim() === 'Log in'),
        height: header.getBoundingClientRect().height,
        page_width: document.documentElement.scrollWidth,
        window_width: innerWidth,
        outside: [...header.querySelectorAll('*')].filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5);
        }).map((el) => el.tagName + '.' + el.className),
    };
}"""


def test_an_anonymous_visitor_sees_log_in_and_no_guest_name_nor_turn_count_on_any_page(
    browser: Browser, server: LiveServer
) -> None:
    host, other, visitor = (Person(browser, server.url) for _ in range(3))
    try:
        host.open()
        other.open()
        ids = a_game_and_a_review(host, other)
        joins = "#/reviews/{review}"  # joining a shared review needs a session: it is tried last, below
        for route in [route for route in PAGES if route != joins]:
            visitor.load(route.format(**ids))
            header = visitor.page.evaluate(HEADER)
            assert header["log_in"], (route, header)
            assert not (header["name"] or header["guest_tag"] or header["turn_badge"]), (route, header)
            assert "Guest" not in header["text"] and "…" not in header["text"], (route, header)
        # The lobby has no "your turn" card for a visitor without games: nothing waits for them.
        visitor.load("#/")
        assert not visitor.page.locator(".your-turn").is_visible()

        # A shared review lists its people by name, so joining one makes the visitor a guest: the header names
        # that guest, the one the server knows. Still no games, so still no turn count nor card.
        visitor.load(joins.format(**ids))
        visitor.page.wait_for_selector("header.topbar .user-name")
        header = visitor.page.evaluate(HEADER)
        assert header["name"] and not header["turn_badge"], header
        assert visitor.page.inner_text("header.topbar .user-name") == visitor.api("GET", "/api/me")["name"]
        visitor.load("#/")
        assert not visitor.page.locator(".your-turn").is_visible()
        assert visitor.errors == []
    finally:
        for person in (host, other, visitor):
            person.close()


def _header_fits(person: Person, viewport: ViewportSize, who: str) -> dict[str, object]:
    """In every language, what does not fit in one row of the header at this size (empty when all fits)."""
    person.page.set_viewport_size(viewport)
    wrong: dict[str, object] = {}
    for code in LANGUAGES:
        person.language(code)
        header = person.page.evaluate(HEADER)
        if header["height"] > ROW or header["page_width"] > header["window_width"] or header["outside"]:
            wrong[f"{who} {code}"] = {k: header[k] for k in ("height", "page_width", "window_width", "outside")}
    person.language("en")
    return wrong


@pytest.mark.parametrize("width", [390, 320, 1024, 1280])
def test_the_header_is_one_row_on_a_phone_and_on_a_desktop_in_every_language(
    browser: Browser, server: LiveServer, width: int
) -> None:
    viewport: ViewportSize = {"width": width, "height": 844}
    anonymous, guest, player, opponent = (Person(browser, server.url, viewport) for _ in range(4))
    try:
        for person in (anonymous, guest, opponent):
            person.open()
        guest.api("POST", "/api/guest")
        guest.page.reload()
        guest.page.wait_for_selector(".user-name")
        player.open()
        player.register("longest-name-")  # a name as long as a name can be
        start_game(player, opponent)  # the player is Black: the header counts a game waiting for their move
        player.page.wait_for_selector("#turn-badge:not([hidden])")
        wrong = {}
        for who, person in (("anonymous", anonymous), ("guest", guest), ("player", player)):
            wrong.update(_header_fits(person, viewport, who))
        assert wrong == {}

        if width < 1100:  # the rest is in the menu: its links, the language, dark mode and the account's buttons
            page = player.page
            assert not page.locator("nav a[href='#/rules']").is_visible()
            page.click("header.topbar .menu-toggle")
            assert page.get_attribute("header.topbar .menu-toggle", "aria-expanded") == "true"
            menu = ("nav a[href='#/rules']", "nav a[href='#/leaderboard']", "#lang", ".theme-switch", "a[href='#/settings']")
            for shown in menu:
                assert page.locator(f"header.topbar {shown}").is_visible(), shown
            assert page.evaluate(HEADER)["outside"] == []
            page.click("header.topbar nav a[href='#/rules']")
            page.wait_for_selector(".guide h2")
            assert page.get_attribute("header.topbar .menu-toggle", "aria-expanded") == "false"
            assert not page.locator("header.topbar #lang").is_visible()
        for person in (anonymous, guest, player, opponent):
            assert person.errors == []
    finally:
        for person in (anonymous, guest, player, opponent):
            person.close()
