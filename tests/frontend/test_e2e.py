"""The browser client against the real server: a uvicorn serving the API, the sockets and frontend/.

Three browser contexts are three people: Ana creates a challenge in the lobby, Bao accepts it in his, Chen
watches. They play by clicking the board, and everything they see comes from the server. Screenshots of
the lobby and of a game, at desktop and phone width, go to tests/artifacts/.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, PHONE, Person

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

EVIL = "<img src=x onerror=alert(1)>"


def _clock_seconds(text: str) -> int:
    match = re.search(r"(\d+):(\d\d)", text)
    assert match, text
    return int(match.group(1)) * 60 + int(match.group(2))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_two_players_and_a_spectator_play_a_game_to_its_counted_end(browser: Browser, server: LiveServer) -> None:
    ana, bao, chen = (Person(browser, server.url) for _ in range(3))
    try:
        _play_a_game(ana, bao, chen)
    finally:
        for person in (ana, bao, chen):
            person.close()


def _play_a_game(ana: Person, bao: Person, chen: Person) -> None:
    # ---- the lobby: Ana offers a 9x9 game as black, Bao sees it arrive and accepts it
    bao.open()
    ana.open()
    ana.page.click("label[for='size-9']")
    ana.page.click("label[for='color-black']")
    ana.page.click("label[for='preset-blitz']")
    ana.page.click(".challenge-form button[type=submit]")
    bao.page.wait_for_selector("#challenges .item button.primary")
    assert ana.page.locator(".user-name").inner_text() in bao.page.locator("#challenges").inner_text()
    bao.shot("lobby-desktop.png", DESKTOP)
    bao.page.click("#challenges .item button.primary")

    # Both are taken to the board: Bao by the accept answer, Ana by the lobby's game_started message.
    bao.page.wait_for_url(re.compile(r"#/game/\w+$"))
    game_id = bao.page.url.rsplit("/", 1)[1]
    ana.page.wait_for_url(re.compile(rf"#/game/{game_id}$"))
    chen.open(f"#/game/{game_id}")
    for person in (ana, bao, chen):
        person.page.wait_for_selector("svg.board .pt")
        assert person.page.locator("svg.board .pt").count() == 81
    assert ana.page.locator(".player-card").last.get_attribute("data-color") == "B"
    assert bao.page.locator(".player-card").last.get_attribute("data-color") == "W"
    assert "spectator" in chen.page.locator(".status-line").inner_text()
    assert ana.page.locator(".status-line").inner_text() == "Your move"

    # ---- moves by clicking; the spectator sees each one. This builds a ko in the top-left corner.
    moves = [(ana, (0, 1)), (bao, (3, 1)), (ana, (1, 0)), (bao, (2, 0)), (ana, (1, 2)), (bao, (2, 2))]
    for n, (person, point) in enumerate(moves, start=1):
        person.click_point(*point)
        for viewer in (ana, bao, chen):
            viewer.wait_stones(n)
        assert chen.stones()[point] == ("B" if n % 2 else "W")

    # ---- Ana reloads mid-game: same seat, same position, same clock
    bao.page.wait_for_timeout(1100)  # let a clock tick pass so the clocks have moved off their start
    before_position = ana.stones()
    before_clock = _clock_seconds(ana.page.locator(".player-card[data-color=B] .clock").inner_text())
    ana.page.reload()
    ana.page.wait_for_selector("svg.board .stone")
    ana.wait_stones(len(before_position))
    assert ana.stones() == before_position
    assert ana.page.locator(".player-card").last.get_attribute("data-color") == "B"
    assert ana.page.locator(".status-line").inner_text() == "Your move"
    after_clock = _clock_seconds(ana.page.locator(".player-card[data-color=B] .clock").inner_text())
    assert 0 <= before_clock - after_clock <= 5, (before_clock, after_clock)
    ana.page.wait_for_function("() => document.querySelector('.player-card[data-color=W] .presence').classList.contains('on')")

    ana.click_point(5, 5)  # 7
    bao.wait_stones(7)
    bao.click_point(1, 1)  # 8: white steps into the ko
    ana.wait_stones(8)
    ana.click_point(2, 1)  # 9: black takes it
    for viewer in (ana, bao, chen):
        viewer.wait_stones(8)
        viewer.wait_moves(9)
    assert (1, 1) not in chen.stones() and chen.stones()[(2, 1)] == "B"
    ana.shot("game-desktop.png", DESKTOP)

    # ---- illegal clicks change nothing and say why
    position = bao.stones()
    bao.click_point(1, 1)  # retaking the ko at once
    bao.page.wait_for_selector(".toast.error >> text=Ko: you cannot retake immediately.")
    bao.click_point(0, 1)  # occupied
    bao.page.wait_for_selector(".toast.error >> text=That point is occupied.")
    bao.page.wait_for_timeout(300)
    assert bao.stones() == position and chen.stones() == position
    bao.wait_moves(9)
    chen.wait_moves(9)

    # ---- chat: markup arrives as text, everywhere
    ana.page.fill(".chat-input", EVIL)
    ana.page.click(".chat-form button[type=submit]")
    for viewer in (ana, bao, chen):
        viewer.page.wait_for_selector(".chat-list .chat-text >> text=onerror")
        assert viewer.page.locator(".chat-list .chat-text").last.inner_text() == EVIL
        assert viewer.page.locator(".chat-list img").count() == 0

    # ---- phone screenshots (a spectator's view of the game, and the lobby)
    chen.shot("game-phone.png", PHONE)
    assert chen.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    chen.page.set_viewport_size(DESKTOP)

    # ---- white plays a stone black will call dead, then both pass
    bao.click_point(7, 7)  # 10
    ana.wait_stones(9)
    ana.confirm("pass")  # 11
    bao.wait_moves(11)
    bao.confirm("pass")  # 12
    for viewer in (ana, bao, chen):
        viewer.page.wait_for_selector(".scoring:not([hidden]) .score-table")

    # ---- scoring: toggle the white stone on (7, 7); everybody sees the same marks
    was_dead = (7, 7) in chen.dead()
    ana.click_point(7, 7)
    for viewer in (ana, bao, chen):
        if was_dead:
            viewer.page.wait_for_selector('svg.board .stone[data-x="7"][data-y="7"]:not(.dead)')
        else:
            viewer.page.wait_for_selector('svg.board .stone[data-x="7"][data-y="7"].dead')
    if was_dead:  # make it dead again: that is the agreement we want
        ana.click_point(7, 7)
        for viewer in (ana, bao, chen):
            viewer.page.wait_for_selector('svg.board .stone[data-x="7"][data-y="7"].dead')
    assert ana.dead() == bao.dead() == chen.dead() and (7, 7) in chen.dead()

    ana.confirm("accept_score")
    bao.page.wait_for_selector(".accept-state >> text=Black: accepted")
    bao.confirm("accept_score")
    results = []
    for viewer in (ana, bao, chen):
        results.append(viewer.shown_text(".result-banner:not([hidden])"))
    assert results[0] == results[1] == results[2]
    assert re.search(r"wins by [\d.]+ points \((B|W)\+[\d.]+\)", results[0]), results[0]
    ana.shot("game-finished-desktop.png", DESKTOP)

    # ---- the language switch changes what is written on the page
    assert chen.page.locator(".moves-card h2").inner_text() == "Moves"
    chen.page.select_option("#lang", "vi")
    chen.page.wait_for_selector(".nav a >> text=Chơi")
    assert chen.page.locator(".moves-card h2").inner_text() == "Các nước đi"
    assert chen.page.locator(".chat-form button[type=submit]").inner_text() == "Gửi"
    chen.page.select_option("#lang", "zh")
    chen.page.wait_for_selector(".nav a >> text=对弈")

    # ---- the lobby at phone width, after the game (Bao's finished game is in his list)
    bao.page.goto(f"{bao.base_url}/#/")
    bao.page.click("button[role=tab] >> nth=1")
    bao.page.wait_for_selector("#my-finished .item")
    bao.shot("lobby-phone.png", PHONE)
    assert bao.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    for person in (ana, bao, chen):
        assert person.errors == [], person.errors
        assert person.dialogs == [], person.dialogs


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_rules_page_practice_board_plays_both_colours_under_the_server_rules(browser: Browser, server: LiveServer) -> None:
    me, other = Person(browser, server.url), Person(browser, server.url)
    try:
        me.board = ".practice-host svg.board"
        me.open("#/rules")
        me.page.wait_for_selector(".guide h2")
        me.page.click(".practice button.primary")
        me.page.wait_for_selector(".practice-host svg.board .pt")
        assert me.page.locator(".practice-host svg.board .pt").count() == 81
        # One person, both colours: each click is the side to move's stone.
        for n, point in enumerate([(2, 2), (3, 2), (2, 3), (3, 3)], start=1):
            me.click_point(*point)
            me.wait_moves(n)  # the server's event, not the optimistic stone: the board takes the next click only then
        assert me.stones() == {(2, 2): "B", (3, 2): "W", (2, 3): "B", (3, 3): "W"}
        # The server's rules still hold: an occupied point is refused with its reason.
        me.click_point(2, 2)
        me.page.wait_for_selector(".toast.error >> text=That point is occupied.")
        assert len(me.stones()) == 4
        # Not listed: nobody else sees the practice game among the live games.
        other.open()
        other.page.wait_for_selector("#live-games .empty")
        # Pass twice, accept once for both colours: the practice game is counted like any other.
        me.confirm("pass")
        me.wait_moves(5)
        me.confirm("pass")
        me.page.wait_for_selector(".scoring:not([hidden]) button[data-action=accept_score]")
        me.confirm("accept_score")
        banner = me.shown_text(".practice-host .result-banner:not([hidden])")
        assert re.search(r"\((B|W)\+[\d.]+\)", banner), banner
        me.shot("rules-practice-desktop.png", DESKTOP)
        assert me.errors == [] and other.errors == []
    finally:
        me.close()
        other.close()
