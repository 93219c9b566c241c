"""The computer card in Chromium against the real server: with the sparring partner chosen, a signed-in player
sees its offer (the handicap its reach leaves, the side they take, the strength it will play at), in their
language, and the challenge is made with it; a guest sees none."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import Person

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]


def _sparring_partner(player: Person, database_url: str) -> None:
    """The house's sparring partner's account (no bridge: the offer is the server's, the game would wait)."""
    bot = player.api("POST", "/api/bots", {"name": "Kata-Sparring", "accepts": {}})
    with sqlite3.connect(database_url.split("///", 1)[1]) as db:
        db.execute("UPDATE users SET owner_id = NULL WHERE id = ?", (bot["id"],))


def test_the_card_shows_the_partners_offer_and_challenges_with_it(
    browser: Browser, server: LiveServer, database_url: str
) -> None:
    player, guest = Person(browser, server.url), Person(browser, server.url)
    try:
        player.open()
        # A 9 dan: stronger than the partner's search, so it asks for stones (four on 19x19) and takes Black.
        player.api("POST", "/api/auth/register", {"username": "strongest", "password": "s3cret-Tengen-pw-x", "strength": "9d"})
        _sparring_partner(player, database_url)
        player.page.reload()
        player.page.wait_for_selector(".user-name")
        card = player.page.locator("section.computer")
        card.wait_for()
        card.locator("label[for=pc-size-19]").click()
        player.page.select_option("#pc-strength", "Kata-Sparring")
        offer = card.locator(".computer-offer")
        # The 9x9 offer may show first (the partner is chosen already as the only house bot): the 19x19 one follows.
        player.page.wait_for_function("() => document.querySelector('.computer-offer').textContent.includes('stones')")
        assert offer.inner_text() == (
            "It offers you: 4 handicap stones · You play White. It will play at its full strength against you."
        )
        card.locator("label[for=pc-size-9]").click()  # on 9x9 the same gap is less than a stone: komi instead
        player.page.wait_for_function("() => document.querySelector('.computer-offer').textContent.includes('komi')")
        assert offer.inner_text().startswith("It offers you: komi 0.5 · You play White.")
        player.language("ja")
        player.page.wait_for_function("() => document.querySelector('.computer-offer').textContent.startsWith('提案')")
        assert offer.inner_text().startswith("提案: コミ0.5目 · "), offer.inner_text()
        player.language("en")
        with player.page.expect_request(lambda r: r.url.endswith("/api/challenges") and r.method == "POST") as made:
            player.page.click("#play-computer")
        assert made.value.post_data_json == {
            "board_size": 9,
            "opponent": "Kata-Sparring",
            "color": "white",
            "rated": False,
            "time_control": {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30},
            "komi": 0.5,
        }
        # A visitor without an account has no rank: no offer (an even game by nigiri, as with any strength).
        guest.open()
        guest_card = guest.page.locator("section.computer")
        guest_card.wait_for()
        guest.page.select_option("#pc-strength", "Kata-Sparring")
        assert guest_card.locator(".computer-offer").is_hidden()
        assert player.errors == [] and guest.errors == []
    finally:
        player.close()
        guest.close()
