"""Spacing in Chromium against the real server: on every page, at desktop and phone width, no two controls
(buttons, selects, inputs, the pills of a choice) touch; each card keeps the stylesheet's gap between them."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, PAGES, Person, a_game_and_a_review

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

NEAREST = 4  # px: the least room between two controls
# Pairs of visible controls in the page's main part that are closer than `least` px, horizontally and vertically.
TOUCHING = """(least) => {
    const selector = 'main button, main select, main textarea, main a.btn, main .segmented label, '
        + 'main input:not([type=radio]):not([type=checkbox]):not([type=hidden])';
    const boxes = [...document.querySelectorAll(selector)]
        .filter((el) => getComputedStyle(el).visibility !== 'hidden')
        .map((el) => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.width > 2 && r.height > 2);
    const label = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
        + ' "' + (el.textContent || '').trim().slice(0, 24) + '"';
    const out = [];
    for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
            const [a, ra] = boxes[i], [b, rb] = boxes[j];
            if (a.contains(b) || b.contains(a)) continue;
            const dx = Math.max(rb.left - ra.right, ra.left - rb.right, 0);
            const dy = Math.max(rb.top - ra.bottom, ra.top - rb.bottom, 0);
            if (Math.max(dx, dy) < least) out.push(label(a) + ' / ' + label(b) + ' ' + Math.max(dx, dy).toFixed(1) + 'px');
        }
    }
    return out;
}"""


def _house_bot(player: Person, database_url: str) -> None:
    """A bot of the server's own (no owner), so that the lobby shows its "Play the computer" card."""
    bot = player.api("POST", "/api/bots", {"name": "HouseGnu", "accepts": {}})
    with sqlite3.connect(database_url.split("///", 1)[1]) as db:
        db.execute("UPDATE users SET owner_id = NULL WHERE id = ?", (bot["id"],))


def test_no_two_controls_touch_on_any_page(browser: Browser, server: LiveServer, database_url: str) -> None:
    host, other, player = (Person(browser, server.url) for _ in range(3))
    try:
        for person in (host, other, player):
            person.open()
        ids = a_game_and_a_review(host, other)
        player.register()
        _house_bot(player, database_url)
        phone: ViewportSize = {"width": 390, "height": 844}
        touching = {}
        for viewport in (DESKTOP, phone):
            player.page.set_viewport_size(viewport)
            for route in PAGES:
                player.load(route.format(**ids))
                if route == "#/":
                    player.page.wait_for_selector("section.computer:not([hidden]) #pc-strength option", state="attached")
                found = player.page.evaluate(TOUCHING, NEAREST)
                if found:
                    touching[f"{viewport['width']} {route}"] = found
        assert touching == {}
        assert player.errors == []
    finally:
        for person in (host, other, player):
            person.close()
