"""A first load of every page, in Chromium against the real server, by an anonymous visitor, a guest and a
registered player: the page asks nothing the server must refuse (an account's endpoint for a guest, the
moderators' for a player), so no response fails and the console shows no error."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import PAGES, Person, a_game_and_a_review

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Response

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]


class Failures:
    """What went wrong while a page loaded: responses with an error status and errors in the console."""

    def __init__(self, person: Person) -> None:
        self.found: list[str] = []
        person.page.on("response", self._response)
        person.page.on("console", self._console)
        person.page.on("websocket", lambda ws: ws.on("socketerror", lambda error: self.found.append(f"socket {ws.url}: {error}")))

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self.found.append(f"{response.status} {response.request.method} {response.url}")

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.found.append(f"console: {message.text}")

    def take(self) -> list[str]:
        found, self.found = self.found, []
        return found


def test_no_page_makes_a_request_that_fails_for_anonymous_visitors_guests_or_players(
    browser: Browser, server: LiveServer
) -> None:
    host, other, anonymous, guest, player = (Person(browser, server.url) for _ in range(5))
    people = (host, other, anonymous, guest, player)
    try:
        for person in people:
            person.open()
        ids = a_game_and_a_review(host, other)
        guest.api("POST", "/api/guest")
        player.register()
        failed = {}
        for who, person in (("anonymous", anonymous), ("guest", guest), ("player", player)):
            failures = Failures(person)
            for route in PAGES:
                person.load(route.format(**ids))
                found = failures.take()
                if found:
                    failed[f"{who} {route}"] = found
        assert failed == {}
        assert all(person.errors == [] for person in people)
    finally:
        for person in people:
            person.close()
