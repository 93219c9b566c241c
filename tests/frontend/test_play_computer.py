"""A guest presses "Play the computer" on the real ``tengen serve`` with its house bots (GNU Go bridges as
child processes) and plays a whole game to a scored result in Chromium."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.frontend.people import Person
from tests.support.bot_processes import ServeProcess
from tests.support.services import need_gnugo

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    """``tengen serve`` with its house bots on (the tests' default is off)."""
    need_gnugo()
    process = ServeProcess(tmp_path, TENGEN_HOUSE_BOTS="true").start()
    log = tmp_path / "house-bots" / "GnuGo-Level5.log"
    deadline = time.monotonic() + 60
    while not (log.exists() and "connected to" in log.read_text()):
        assert time.monotonic() < deadline, "the house bot did not connect"
        time.sleep(0.2)
    yield process
    process.stop()
    # The bridges (all in one `tengen house-bots` process, a log per bot) stop with the server, however it stops.
    deadline = time.monotonic() + 15
    for bot_log in (tmp_path / "house-bots").glob("GnuGo-*.log"):
        while "stopping: closing engines and sockets" not in bot_log.read_text():
            assert time.monotonic() < deadline, bot_log.read_text()[-2000:]
            time.sleep(0.2)


def test_a_guest_plays_the_computer_to_a_scored_result(browser: Browser, server: ServeProcess) -> None:
    bots = httpx.get(server.url + "/api/bots").json()["bots"]
    assert [b["name"] for b in bots if b["house"]] == ["GnuGo-Beginner", "GnuGo-Novice", "GnuGo-Level5", "GnuGo-Level10"]

    guest = Person(browser, server.url)
    guest.open()
    card = guest.page.locator("section.computer")
    card.wait_for()
    card.locator("label[for=pc-size-9]").click()
    guest.page.select_option("#pc-strength", "GnuGo-Level5")
    guest.page.click("#play-computer")
    guest.page.wait_for_url(re.compile(r"#/game/"), timeout=30_000)
    guest.page.wait_for_selector(guest.board)
    bot_card = guest.page.locator(".player-card", has=guest.page.locator("a.player-link", has_text="GnuGo-Level5"))
    assert bot_card.locator(".bot-tag").inner_text() == "bot"  # the bot is marked as one

    own_moves = 0
    deadline = time.monotonic() + 240
    banner = guest.page.locator(".result-banner")
    while not banner.is_visible():
        assert time.monotonic() < deadline, "the game did not end"
        accept = guest.page.locator(".scoring:not([hidden]) button[data-action=accept_score]")
        if accept.is_visible() and accept.is_enabled():
            guest.confirm("accept_score")
        elif guest.page.locator(".status-line").inner_text() == "Your move":
            if own_moves < 4:
                taken = guest.stones()
                free = [(x, y) for x, y in ((2, 2), (6, 6), (2, 6), (6, 2), (4, 4), (3, 5), (5, 3)) if (x, y) not in taken]
                guest.click_point(*free[0])
                own_moves += 1
            else:
                guest.confirm("pass")
        guest.page.wait_for_timeout(400)
    text = banner.inner_text()
    assert re.search(r"wins by [\d.]+ points \((B|W)\+[\d.]+\)", text), text
    assert not guest.errors, guest.errors
    guest.context.close()
