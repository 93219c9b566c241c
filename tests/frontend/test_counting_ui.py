"""Counting on the game page when the engine is unsure: the chains it could not judge are marked "?" on the board
(and said so to a screen reader), the panel says whose proposal the marks are and what "?" means, and a player can
ask KataGo for a second opinion when the marks are not its own. The proposal is the room's proposer's, replaced here
by one that returns what KataGo would (no KataGo needed); in six languages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import start_game, two_people

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

LANGUAGES = ("en", "es", "ja", "ko", "vi", "zh")


def test_uncertain_groups_are_marked_and_the_engine_can_be_asked(browser: Browser, server: LiveServer) -> None:
    proposer = server.app.state.rooms.proposer

    async def unsure(game: Any) -> dict[str, Any]:
        return {"dead": [], "uncertain": [[6, 6]], "judge": "katago"}

    with two_people(browser, server.url) as (ana, bao):
        start_game(ana, bao)
        for person, point in ((ana, (2, 2)), (bao, (6, 6))):
            person.click_point(*point)
            ana.wait_moves(1 if person is ana else 2)
        proposer.propose = unsure
        bao.wait_moves(2)
        ana.confirm("pass")
        bao.wait_moves(3)
        bao.confirm("pass")
        ana.page.wait_for_selector(".scoring:not([hidden]) .accept-list")
        ana.page.wait_for_selector('.uncertain-mark[data-x="6"][data-y="6"]')
        assert ana.page.locator('.uncertain-mark[data-x="6"][data-y="6"]').text_content() == "?"
        assert ana.page.locator(".scoring .judge").get_attribute("data-judge") == "katago"
        assert ana.page.locator(".scoring .uncertain-note").is_visible()
        label = ana.page.locator(f'{ana.board} .pt[data-x="6"][data-y="6"]').get_attribute("aria-label")
        assert label is not None and label.endswith(", uncertain")
        # the marks are KataGo's: no second opinion offered
        assert ana.page.locator("button[data-action=ask_engine]").count() == 0
        texts = {}
        for lang in LANGUAGES:
            ana.language(lang)
            texts[lang] = ana.page.locator(".scoring .uncertain-note").text_content()
        assert len(set(texts.values())) == len(LANGUAGES) and all(t and "?" in t for t in texts.values())
        ana.language("en")
        # a player decides the chain: it is no longer uncertain, for both
        ana.click_point(6, 6)
        bao.page.wait_for_selector('.stone.dead[data-x="6"][data-y="6"]')
        assert bao.page.locator(".uncertain-mark").count() == 0
        # resume and score again with the rules engine's proposal: the engine can be asked (none runs here)
        del proposer.propose
        bao.page.click(".scoring button[data-i18n='score.resume']")
        ana.page.wait_for_selector(".scoring", state="hidden")
        ana.confirm("pass")
        bao.wait_moves(4)
        bao.confirm("pass")
        ana.page.wait_for_selector(".scoring:not([hidden]) button[data-action=ask_engine]")
        assert ana.page.locator(".scoring .judge").get_attribute("data-judge") == "rules"
        ana.page.click(".scoring button[data-action=ask_engine]")
        ana.page.wait_for_selector(".toast")
        assert "KataGo" in (ana.page.locator(".toast").last.text_content() or "")
