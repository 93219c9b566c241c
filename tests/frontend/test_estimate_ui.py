"""The score estimate beside a game and in a shared review, in Chromium against the real server (without KataGo:
the rules engine's estimate). A spectator of a game in progress asks it and sees the ownership overlay, the dead
stones and the score; its players have no such button until the game has ended. Someone following a shared
review asks it for the node shown; when the leader moves on, it is put away."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import LANGUAGES, Person, start_game
from tests.support.players import Player
from tests.support.players import start_game as start_api_game

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Route

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

SLOW = 60_000  # ms: the playouts on a busy machine

# Black walls off the left (column 3), White the right (column 5); then a black stone in White's area and a white
# one in Black's, both dead.
WALLS = [p for y in range(9) for p in ((3, y), (5, y))] + [(8, 8), (1, 1)]
BUTTON = "button[data-action=estimate]"
LINE = ".estimate-line:not([hidden])"


def _see_the_estimate(person: Person) -> None:
    person.page.wait_for_selector(LINE, timeout=SLOW)
    assert person.page.locator(".estimate-line").inner_text().startswith("Estimate: W+")
    assert person.dead() == {(1, 1), (8, 8)}
    # Black's area left of its wall, White's right of its own (the dead stones' points included)
    assert person.page.locator("svg.board .terr.black").count() == 9 * 3
    assert person.page.locator("svg.board .terr.white").count() == 9 * 3


def test_a_spectator_sees_the_estimate_of_a_game_in_progress_and_its_players_once_it_ended(
    browser: Browser, server: LiveServer
) -> None:
    ana, bao, cai = Person(browser, server.url), Person(browser, server.url), Person(browser, server.url)
    try:
        for person in (ana, bao, cai):
            person.open()
        game_id = start_game(ana, bao)
        for n, point in enumerate(WALLS, start=1):
            mover, other = (ana, bao) if n % 2 else (bao, ana)
            mover.click_point(*point)
            other.wait_moves(n)
        cai.page.goto(f"{server.url}/#/game/{game_id}")
        cai.wait_moves(len(WALLS))
        assert ana.page.locator(BUTTON).is_hidden() and bao.page.locator(BUTTON).is_hidden()
        cai.page.click(BUTTON)
        _see_the_estimate(cai)
        cai.page.click(BUTTON)  # asked again: put away
        cai.page.wait_for_selector(".estimate-line", state="hidden")
        assert cai.page.locator("svg.board .terr").count() == 0 and cai.dead() == set()
        bao.confirm("resign")
        ana.page.wait_for_selector(".result-banner:not([hidden])")
        ana.page.click("button[aria-label='Previous move']")  # the game's count is shown at its end; one move back
        ana.page.click(BUTTON)
        ana.page.wait_for_selector(LINE, timeout=SLOW)
        assert ana.dead() == {(8, 8)}  # before White's stray stone
        assert ana.errors == [] and bao.errors == [] and cai.errors == []
    finally:
        for person in (ana, bao, cai):
            person.close()


def _finished_game(url: str) -> str:
    async def make() -> str:
        black, white = await Player(url).visit(), await Player(url).visit()
        try:
            game_id = await start_api_game(black, white)
            sockets = [await black.socket(game_id), await white.socket(game_id)]
            for n, point in enumerate(WALLS):
                assert (await sockets[n % 2].act({"t": "play", "p": list(point)}))["t"] == "ack"
            assert (await sockets[1].act({"t": "resign"}))["t"] == "ack"
            for sock in sockets:
                await sock.close()
            return game_id
        finally:
            await black.close()
            await white.close()

    # In a thread of its own: playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, make()).result()


def test_someone_following_a_shared_review_sees_the_estimate_of_the_node_shown(browser: Browser, server: LiveServer) -> None:
    game_id = _finished_game(server.url)
    teacher, ana = Person(browser, server.url), Person(browser, server.url)
    try:
        teacher.open(f"#/game/{game_id}")
        teacher.page.click("button[data-action=start-review]")
        teacher.page.wait_for_url(re.compile(r"#/reviews/\w+$"))
        review_id = teacher.page.url.rsplit("/", 1)[1]
        ana.open(f"#/reviews/{review_id}")
        teacher.page.wait_for_function("() => document.querySelectorAll('.review-person').length === 2")
        teacher.page.click("button[data-nav=last]")
        ana.page.wait_for_selector(f'.review-line li:nth-child({len(WALLS)}) .mv[aria-current="true"]')
        ana.page.click(BUTTON)
        _see_the_estimate(ana)
        teacher.page.click("button[data-nav=prev]")  # the leader moves on: the estimate was of the node before
        ana.page.wait_for_selector(".estimate-line", state="hidden")
        assert ana.page.locator("svg.board .terr").count() == 0 and ana.dead() == set()
        assert teacher.errors == [] and ana.errors == []
    finally:
        teacher.close()
        ana.close()


def test_katagos_estimate_of_a_game_shows_its_lead_and_no_win_rate(browser: Browser, server: LiveServer) -> None:
    """What the game page shows of KataGo's answer (the answer itself: tests/engines/test_game_estimate.py), given by
    the browser's own network layer so that no KataGo is needed; the page asks for the position it shows."""
    game_id = _finished_game(server.url)
    answer = {"dead": [], "ownership": [[0.0] * 9 for _ in range(9)], "score": {"result": "W+3.5"}, "judge": "katago"}
    asked: list[dict[str, object]] = []

    def fulfil(route: Route) -> None:
        body = route.request.post_data_json
        assert isinstance(body, dict)
        asked.append(body)
        route.fulfill(json={**answer, "score_lead": 1.5, "move": body["move"]})

    person = Person(browser, server.url)
    try:
        person.page.route(f"**/api/games/{game_id}/estimate", fulfil)
        person.open(f"#/game/{game_id}")
        person.wait_moves(len(WALLS))
        person.page.click(BUTTON)
        person.page.wait_for_selector(LINE)
        assert person.page.locator(".estimate-line").inner_text() == "KataGo: W+3.5 counted, lead B+1.5"
        assert asked == [{"move": len(WALLS)}]
        texts = set()
        for lang in LANGUAGES:
            person.language(lang)
            texts.add(person.page.locator(".estimate-line").inner_text())
        assert len(texts) == len(LANGUAGES)
        assert person.errors == []
    finally:
        person.close()
