"""The moderator page against the real server, in Chromium: a player reports a chat line from the game page;
a moderator (granted with ``tengen admin grant``) finds it in the queue with the chat in context, removes the
line (it disappears from the players' pages at once), suspends the player (their game ends, and their page
tells them why, in their language, before and after a reload), closes the report, and reads it all in the
audit log; a player without the role is refused the page and its link."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import Person, start_game
from tests.moderation.people import admin_command

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]


def _chat(person: Person, text: str) -> None:
    person.page.fill(".chat-input", text)
    person.page.click(".chat-form button[type=submit]")
    person.page.wait_for_selector(f".chat-list .chat-text >> text={text}")


def test_a_moderator_acts_on_a_reported_chat_line(browser: Browser, server: LiveServer, database_url: str) -> None:
    ana, bao, mod = (Person(browser, server.url) for _ in range(3))
    try:
        for person in (ana, bao, mod):
            person.open()
        name = f"mod{uuid.uuid4().hex[:8]}"
        mod.api("POST", "/api/auth/register", {"username": name, "password": "s3cret-Tengen-pw"})
        assert admin_command(database_url, "grant", name, "moderator").returncode == 0

        start_game(ana, bao)
        _chat(bao, "you play like a potato")
        _chat(ana, "let us play on")
        bao_name = bao.api("GET", "/api/me")["name"]

        # Ana reports Bao's line from the chat itself and is told it was received.
        ana.page.wait_for_selector(".chat-list .chat-text >> text=you play like a potato")
        line = ana.page.locator(".chat-list .chat-line", has_text="you play like a potato")
        assert ana.page.locator(".chat-list .chat-line", has_text="let us play on").locator(".chat-report").count() == 0
        line.locator(".chat-report").click()
        ana.page.fill("dialog .report-reason", "an insult")
        ana.page.click("dialog button[type=submit]")
        ana.page.wait_for_selector(".toast >> text=received")

        # The moderator sees the link, the queue, the reported line among its neighbours.
        mod.page.reload()  # registered through the API: the page loads its new session
        mod.page.wait_for_selector("#nav-moderation:not([hidden])")
        mod.page.click("#nav-moderation")
        card = mod.page.locator(".mod-report").first
        card.wait_for()
        assert "an insult" in card.locator(".mod-report-reason").inner_text()
        assert card.locator(".mod-chat-line.reported .chat-text").inner_text() == "you play like a potato"
        assert card.locator(".mod-chat-line").count() == 2

        # Remove the line: it leaves both players' pages at once.
        card.locator(".mod-chat-line.reported input[type=checkbox]").check()
        card.locator(".mod-reason").fill("insult removed")
        card.locator("button[data-action=remove-chat]").click()
        mod.page.wait_for_selector(".mod-chat-line.reported.removed")  # the queue is shown again, as it is now
        for person in (ana, bao):
            person.page.wait_for_selector(".chat-list .chat-text >> text=you play like a potato", state="detached")
            assert person.page.locator(".chat-list .chat-text >> text=let us play on").count() == 1

        # Suspend Bao from the same card: his game ends, Ana wins by abandonment.
        card = mod.page.locator(".mod-report").first
        card.locator(".mod-reason").fill("repeated insults")
        card.locator(".mod-hours").fill("48")
        card.locator("button[data-action=suspend]").click()
        mod.page.wait_for_selector(".mod-audit-line[data-action=suspend]")
        record = mod.api("GET", f"/api/moderation/users/{bao_name}")
        assert record["suspended_until"] is not None
        assert (ana.api("GET", f"/api/games/{ana.page.url.rsplit('/', 1)[1]}"))["result"] == "B+F"
        # Bao is told why, on the page he is on, in his language; and again after a reload (from /api/me).
        bao.page.wait_for_selector(".sanction-notice >> text=repeated insults")
        bao.language("es")
        bao.page.wait_for_selector(".sanction-notice >> text=Tu cuenta está suspendida hasta")
        bao.page.reload()
        bao.page.wait_for_selector(".sanction-notice >> text=Tu cuenta está suspendida hasta")
        assert "repeated insults" in bao.shown_text(".sanction-notice")

        # Close the report; the queue empties and the audit log holds every action with its reason.
        card = mod.page.locator(".mod-report").first
        card.locator(".mod-reason").fill("handled")
        card.locator("button[data-action=close]").click()
        mod.page.wait_for_selector(".mod-queue >> text=No reports here.")
        mod.page.wait_for_selector(".mod-audit-line[data-action=close_report]")
        actions = mod.page.eval_on_selector_all(".mod-audit .mod-audit-line", "els => els.map(e => e.dataset.action)")
        assert actions[:3] == ["close_report", "suspend", "remove_chat"]

        # The same page in Japanese.
        mod.language("ja")
        mod.page.wait_for_selector("h1 >> text=モデレーション")

        # A player without the role: no link, and the page says why.
        ana.page.goto(f"{server.url}/#/moderation")
        ana.page.wait_for_selector("text=Only moderators can do this.")
        assert ana.page.locator("#nav-moderation").is_hidden()
        assert ana.errors == [] and bao.errors == [] and mod.errors == []
    finally:
        for person in (ana, bao, mod):
            person.close()
