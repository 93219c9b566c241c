"""Text limits in the browser count what the server counts: characters, not UTF-16 units.

An input's own ``maxlength`` counts UTF-16 units, so a chat line or a comment written in characters outside the
Basic Multilingual Plane (emoji, CJK Extension B, as some Chinese names and classical texts use) stopped at
half its documented limit. Typed in as a person types (``insert_text``), the whole limit goes in, one more is
cut off without splitting a character, and the server takes what was sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import a_game_and_a_review, start_game, two_people

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

WIDE = "𠀀"  # U+20000, two UTF-16 units
CHAT_CHARS = 500  # docs/protocol.md: a chat line
COMMENT_CHARS = 2000  # docs/study.md: a shared review's comment


def _type(page: Page, selector: str, text: str) -> str:
    page.focus(selector)
    page.keyboard.insert_text(text)
    value = page.eval_on_selector(selector, "el => el.value")
    assert isinstance(value, str)
    return value


def test_a_chat_line_of_wide_characters_takes_the_whole_limit(browser: Browser, server: LiveServer) -> None:
    with two_people(browser, server.url) as (ana, bao):
        start_game(ana, bao)
        value = _type(ana.page, ".chat-input", WIDE * (CHAT_CHARS + 3))
        assert value == WIDE * CHAT_CHARS  # the whole limit, and not a half character more
        ana.page.press(".chat-input", "Enter")
        bao.page.wait_for_selector(".chat-list .chat-text")
        assert bao.page.locator(".chat-list .chat-text").last.inner_text() == WIDE * CHAT_CHARS
        assert ana.errors == [] and bao.errors == []


def test_a_review_comment_of_wide_characters_takes_the_whole_limit(browser: Browser, server: LiveServer) -> None:
    with two_people(browser, server.url) as (ana, bao):
        ids = a_game_and_a_review(ana, bao)
        ana.page.goto(f"{server.url}/#/reviews/{ids['review']}")
        ana.page.wait_for_selector(".review[data-leading=true] textarea.review-comment")
        bao.page.goto(f"{server.url}/#/reviews/{ids['review']}")
        bao.page.wait_for_selector(".review[data-leading=false] svg.board .pt")
        assert _type(ana.page, "textarea.review-comment", WIDE * (COMMENT_CHARS + 1)) == WIDE * COMMENT_CHARS
        ana.page.click("button[data-action=save-comment]")
        bao.page.wait_for_function(
            "n => { const el = document.querySelector('.review-comment-text'); return el && [...el.textContent].length === n; }",
            arg=COMMENT_CHARS,
        )
        assert ana.errors == [] and bao.errors == []
