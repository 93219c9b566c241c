"""The header in Chromium against the real server: what an anonymous visitor and a guest see in it on every
page."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import PAGES, Person, a_game_and_a_review

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

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
