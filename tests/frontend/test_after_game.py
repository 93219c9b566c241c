"""Counting, the end of a game and the look of the site, in Chromium against the real server: the scoring
view (auto-accept countdown, crossed dead stones, each side's acceptance, area scoring without prisoners),
rematch and back to the lobby, dark mode, and the lobby's challenge colours and phone order. The README's
scoring and dark-mode screenshots are taken here."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, PHONE, Person, game_id_of, start_game, two_people

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

# Two walls (Black on the fourth column, White on the sixth) and one invader each, both dead.
WALLS = [p for y in range(9) for p in ((3, y), (5, y))] + [(7, 4), (1, 4)]


def _to_scoring(black: Person, white: Person) -> None:
    for n, point in enumerate(WALLS, start=1):
        mover, other = (black, white) if n % 2 else (white, black)
        mover.click_point(*point)
        other.wait_moves(n)
    black.confirm("pass")
    white.wait_moves(len(WALLS) + 1)
    white.confirm("pass")
    for person in (black, white):
        person.page.wait_for_selector(".scoring:not([hidden]) .accept-list")


def _countdown(person: Person) -> int:
    text = person.page.locator(".scoring-countdown").inner_text()
    match = re.search(r"in (\d+):(\d\d)$", text)
    assert match, text
    return int(match.group(1)) * 60 + int(match.group(2))


def test_the_scoring_view_counts_down_crosses_dead_stones_and_shows_each_acceptance(browser: Browser, server: LiveServer) -> None:
    with two_people(browser, server.url) as (ana, bao):
        start_game(ana, bao, time_control={"kind": "byoyomi", "main": 600, "periods": 3, "period_time": 30})
        _to_scoring(ana, bao)
        for invader in ((7, 4), (1, 4)):
            if invader not in ana.dead():
                ana.click_point(*invader)
                ana.page.wait_for_selector(f'svg.board .stone[data-x="{invader[0]}"][data-y="{invader[1]}"].dead')
        for person in (ana, bao):
            for x, y in ((7, 4), (1, 4)):
                person.page.wait_for_selector(f'svg.board .dead-mark[data-x="{x}"][data-y="{y}"]')
            assert person.page.locator("svg.board .dead-mark").count() == len(person.dead()) == 2
        # The server's five minutes, counted down on the page.
        first = _countdown(ana)
        assert 250 < first <= 300, first
        ana.page.wait_for_timeout(2100)
        assert first - 4 <= _countdown(ana) < first
        # Chinese rules count area: no prisoners row, and a line that says why.
        assert ana.page.locator(".score-table tr[data-row=prisoners]").count() == 0
        assert "Prisoners do not count" in ana.page.locator(".area-note").inner_text()
        lines = ana.page.locator(".accept-list .accept-state")
        assert lines.all_inner_texts() == ["Black: not yet accepted", "White: not yet accepted"]
        ana.shot("game-scoring-desktop.png", DESKTOP)
        ana.confirm("accept_score")
        bao.page.wait_for_selector(".accept-state.done >> text=Black: accepted")
        assert bao.page.locator(".accept-list .accept-state").all_inner_texts() == ["Black: accepted", "White: not yet accepted"]
        bao.confirm("accept_score")
        for person in (ana, bao):
            person.page.wait_for_selector(".result-banner:not([hidden])")
        assert ana.errors == [] and bao.errors == []


def test_rematch_is_offered_declined_accepted_and_both_land_in_the_new_game(browser: Browser, server: LiveServer) -> None:
    ana, bao, chen = (Person(browser, server.url) for _ in range(3))
    try:
        for person in (ana, bao, chen):
            person.open()
        first = start_game(ana, bao, time_control={"kind": "fischer", "main": 300, "increment": 10, "cap": 600})
        chen.open(f"#/game/{first}")
        chen.page.wait_for_selector("svg.board .pt")
        ana.click_point(4, 4)
        bao.wait_moves(1)
        bao.confirm("resign")
        ana.page.wait_for_selector("button[data-action=rematch_offer]")
        assert chen.page.locator("button[data-action=rematch_offer]").count() == 0  # players only

        ana.page.click("button[data-action=rematch_offer]")
        ana.page.wait_for_selector(".offer >> text=Rematch offered")
        bao.page.wait_for_selector(".offer >> text=Your opponent offers a rematch")
        bao.page.click("button[data-action=rematch_decline]")
        ana.page.wait_for_selector("button[data-action=rematch_offer]")  # declined: it may be offered again
        ana.page.click("button[data-action=rematch_offer]")
        bao.page.click("button[data-action=rematch_accept]")
        for person in (ana, bao):
            person.page.wait_for_url(re.compile(r"#/game/(?!" + first + r")[\w-]+$"))
            person.page.wait_for_selector("svg.board .pt")
        second = game_id_of(ana)
        assert game_id_of(bao) == second
        # Colours swapped, same settings: Bao now has Black (and the move), Ana White.
        assert ana.page.locator(".player-card").last.get_attribute("data-color") == "W"
        assert bao.page.locator(".player-card").last.get_attribute("data-color") == "B"
        bao.page.wait_for_selector(".status-line >> text=Your move")
        assert "5m + 10s" in ana.page.locator(".game-info").inner_text()
        # The spectator is offered the way to the new game.
        chen.page.wait_for_selector(f"a[href='#/game/{second}']")
        # And back to the lobby from the finished game.
        ana.page.goto(f"{ana.base_url}/#/game/{first}")
        ana.page.click("a[data-action=lobby]")
        ana.page.wait_for_selector("#challenges")
        assert ana.page.url.endswith("#/")
        assert ana.errors == [] and bao.errors == [] and chen.errors == []
    finally:
        for person in (ana, bao, chen):
            person.close()


def _background(person: Person) -> str:
    return str(person.page.evaluate("getComputedStyle(document.documentElement).backgroundColor"))


def test_dark_mode_follows_the_system_and_the_switch_overrides_it(browser: Browser, server: LiveServer) -> None:
    ana = Person(browser, server.url, color_scheme="dark")
    bao = Person(browser, server.url)
    try:
        ana.open()
        bao.open()
        assert ana.page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert bao.page.evaluate("document.documentElement.dataset.theme") == "light"
        dark, light = _background(ana), _background(bao)
        assert dark != light and sum(map(int, re.findall(r"\d+", dark)[:3])) < 150, dark
        start_game(ana, bao)
        for n, point in enumerate([(2, 2), (6, 6), (6, 2), (2, 6), (4, 4)], start=1):
            mover, other = (ana, bao) if n % 2 else (bao, ana)
            mover.click_point(*point)
            other.wait_moves(n)
        ana.shot("game-dark-desktop.png", DESKTOP)
        assert ana.page.get_attribute("#theme", "aria-pressed") == "true"
        ana.page.click("#theme")
        assert ana.page.evaluate("document.documentElement.dataset.theme") == "light"
        assert _background(ana) == light
        ana.page.reload()
        ana.page.wait_for_selector("svg.board .stone")
        assert ana.page.evaluate("document.documentElement.dataset.theme") == "light"  # the choice is kept
        ana.page.click("#theme")
        assert _background(ana) == dark
        assert ana.errors == [] and bao.errors == []
    finally:
        ana.close()
        bao.close()


def test_the_lobby_says_whose_colour_a_challenge_gives_and_lists_challenges_first_on_a_phone(
    browser: Browser, server: LiveServer
) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url, PHONE)
    try:
        ana.open()
        bao.open()
        ana.api("POST", "/api/challenges", {"board_size": 9, "color": "black", "time_control": {"kind": "none"}})
        ana.page.reload()
        ana.page.wait_for_selector("#challenges .challenge-colour")
        assert ana.page.locator("#challenges .challenge-colour").inner_text() == "You play Black"
        bao.page.wait_for_selector("#challenges .challenge-colour")
        assert bao.page.locator("#challenges .challenge-colour").inner_text() == "You play White"
        challenges = bao.page.locator(".open-challenges").bounding_box()
        form = bao.page.locator(".challenge-form").bounding_box()
        assert challenges and form and challenges["y"] < form["y"]
        bao.page.set_viewport_size(DESKTOP)
        challenges = bao.page.locator(".open-challenges").bounding_box()
        form = bao.page.locator(".challenge-form").bounding_box()
        assert challenges and form and challenges["x"] > form["x"]  # beside the form on a wide screen
        bao.language("ja")
        assert bao.page.locator("#challenges .challenge-colour").inner_text() == "あなたは白"
    finally:
        ana.close()
        bao.close()
