"""Two browsers press "Play now" with overlapping preferences and land in the same game, on both stacks:
the embedded one (SQLite, in-process pool) and the shared one (PostgreSQL + Redis, each browser on its own
server process)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.settings import Settings
from tests.conftest import LiveServer
from tests.frontend.people import Person
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.services import CHROMIUM, need_chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

ROOT = Path(__file__).resolve().parents[2]


def _chromium(pw: Playwright) -> Browser:
    need_chromium()
    return pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])


def _play_now(first_url: str, second_url: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = _chromium(pw)
        ana, bao = Person(browser, first_url), Person(browser, second_url)
        try:
            ana.open()
            bao.open()
            # Ana: 9x9 or 19x19, blitz or rapid. She starts, cancels, and starts again.
            ana.page.check(".playnow input[name=pn-size][value='9']")
            ana.page.check(".playnow input[name=pn-speed][value=blitz]")
            ana.page.click(".playnow button.play-now")
            ana.page.wait_for_selector(".playnow[data-state=seeking] .searching")
            assert "Looking for an opponent" in ana.page.inner_text(".playnow .searching")
            ana.page.click(".playnow .cancel-search")
            ana.page.wait_for_selector(".playnow[data-state=idle] button.play-now")
            ana.page.click(".playnow button.play-now")
            ana.page.wait_for_selector(".playnow[data-state=seeking]")
            # Bao: 9x9 only, rapid only: they overlap on 9x9 rapid.
            bao.page.uncheck(".playnow input[name=pn-size][value='19']")
            bao.page.check(".playnow input[name=pn-size][value='9']")
            bao.page.click(".playnow button.play-now")
            bao.page.wait_for_url(re.compile(r"#/game/\w+$"))
            game_id = bao.page.url.rsplit("/", 1)[1]
            ana.page.wait_for_url(re.compile(rf"#/game/{game_id}$"))
            colours = set()
            for person in (ana, bao):
                person.page.wait_for_selector("svg.board .pt")
                assert person.page.locator("svg.board .pt").count() == 81
                colours.add(person.page.locator(".player-card").last.get_attribute("data-color"))
            assert colours == {"B", "W"}  # each sits at their own side of the same board
            # Back in the lobby, the card remembers Ana's choices.
            ana.open()
            ana.page.wait_for_selector(".playnow button.play-now")
            assert ana.page.is_checked(".playnow input[name=pn-size][value='9']")
            assert ana.page.is_checked(".playnow input[name=pn-speed][value=blitz]")
            for person in (ana, bao):
                assert person.errors == [], person.errors
        finally:
            ana.close()
            bao.close()
            browser.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_play_now_pairs_two_browsers_on_the_embedded_stack(settings: Settings) -> None:
    with LiveServer(settings.model_copy(update={"frontend_dir": ROOT / "frontend"})) as server:
        _play_now(server.url, server.url)


@POSTGRES_ONLY
def test_play_now_pairs_two_browsers_on_two_instances_of_the_shared_stack(cluster: Instances) -> None:
    cluster.env["TENGEN_FRONTEND_DIR"] = str(ROOT / "frontend")
    first, second = cluster.start(2)
    _play_now(first.url, second.url)


def test_after_a_long_wait_the_page_offers_a_connected_house_bot_and_plays_it(tmp_path: Path) -> None:
    """A real house bot (GNU Go through ``tengen bot``) is offered after the wait, shortened to 2 s here, and
    one click puts the player at its board."""
    import asyncio
    import sqlite3

    import httpx

    from tests.bots.accounts import make_bot, register
    from tests.support.bot_processes import BridgeProcess, ServeProcess
    from tests.support.services import need_gnugo

    need_gnugo()
    server = ServeProcess(tmp_path, TENGEN_AUTOMATCH_BOT_AFTER="2").start()
    bridge = None
    try:

        async def house_bot() -> tuple[dict, str]:
            async with httpx.AsyncClient(base_url=server.url) as owner:
                await register(owner)
                return await make_bot(owner, board_sizes=[9], max_games=2)

        bot, token = asyncio.run(house_bot())
        with sqlite3.connect(tmp_path / "tengen.sqlite3") as db:  # the server's own bot: no owner
            db.execute("UPDATE users SET owner_id = NULL WHERE id = ?", (bot["id"],))
        bridge = BridgeProcess(server.url, token, tmp_path / "bridge.log").start()

        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = _chromium(pw)
            ana = Person(browser, server.url)
            try:
                ana.open()
                ana.page.uncheck(".playnow input[name=pn-size][value='19']")
                ana.page.check(".playnow input[name=pn-size][value='9']")
                ana.page.click(".playnow button.play-now")
                ana.page.wait_for_selector(".playnow .bot-offer button.play-bot", timeout=20_000)
                assert bot["name"] in ana.page.inner_text(".playnow .bot-offer")
                ana.page.click(".playnow .bot-offer button.play-bot")
                ana.page.wait_for_url(re.compile(r"#/game/\w+$"), timeout=20_000)
                ana.page.wait_for_selector("svg.board .pt")
                assert ana.page.locator("svg.board .pt").count() == 81
                assert bot["name"] in ana.page.inner_text(".player-card >> nth=0")
                assert ana.errors == [], ana.errors
            finally:
                ana.close()
                browser.close()
    finally:
        if bridge is not None:
            bridge.terminate()
        server.stop()
