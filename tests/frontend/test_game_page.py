"""The game page against the real server, in Chromium: what a player meets while playing.

A phone page that stays where the player put it, Undo offered only when the server would take it, a click
out of turn told briefly, the arrow keys through the moves, the spectators' chat after the game, "your move"
notifications while the tab is hidden, and a handicap game whose stones come from the server (its history
and its territory count), with passes written B[]/W[] in its SGF.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import PHONE, RECORDED_NOTIFICATIONS, Person, start_game, two_people

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

# 9x9 moves that capture nothing and leave both sides plenty of room: (x, y), black first.
OPENING = [
    (2, 2),
    (6, 6),
    (6, 2),
    (2, 6),
    (4, 4),
    (4, 2),
    (2, 4),
    (6, 4),
    (4, 6),
    (3, 3),
    (5, 5),
    (5, 3),
    (3, 5),
    (1, 1),
    (7, 7),
    (1, 7),
    (7, 1),
    (0, 4),
    (8, 4),
    (4, 0),
    (4, 8),
    (0, 0),
]


def _play(black: Person, white: Person, moves: list[tuple[int, int]], start: int = 0) -> None:
    for n, point in enumerate(moves, start=start + 1):
        mover, other = (black, white) if n % 2 else (white, black)
        mover.click_point(*point)
        other.wait_moves(n)
        mover.wait_moves(n)


def test_the_phone_page_stays_put_while_the_move_list_scrolls_in_its_box(browser: Browser, server: LiveServer) -> None:
    with two_people(browser, server.url, PHONE) as (ana, bao):
        start_game(ana, bao)
        for person in (ana, bao):
            assert person.page.evaluate("scrollY") == 0
        _play(ana, bao, OPENING)
        for person in (ana, bao):
            assert person.page.evaluate("scrollY") == 0, "the page scrolled itself"
            box = person.page.evaluate(
                "(() => { const l = document.querySelector('.move-list');"
                " return [l.scrollTop, l.scrollHeight, l.clientHeight]; })()"
            )
            assert box[1] > box[2] and box[0] >= box[1] - box[2] - 2, box  # the list shows its newest move
            # Stepping back keeps the page still too: only the list moves to the current move.
            # (clicked from script: playwright's own click would scroll the button into view first)
            person.page.evaluate("document.querySelector(\"button[aria-label='First move']\").click()")
            person.page.wait_for_selector(".history-bar:not([hidden])")
            assert person.page.evaluate("scrollY") == 0
            assert person.page.evaluate("document.querySelector('.move-list').scrollTop") == 0
        assert ana.errors == [] and bao.errors == []


def test_undo_is_offered_only_for_the_askers_own_last_move_and_out_of_turn_clicks_are_told(
    browser: Browser, server: LiveServer
) -> None:
    with two_people(browser, server.url) as (ana, bao):
        start_game(ana, bao)
        undo = "button[data-action=undo_request]"
        assert ana.page.locator(undo).count() == 0 and bao.page.locator(undo).count() == 0  # nothing to take back
        # Bao clicks while it is Ana's turn: nothing is sent, he is told briefly.
        bao.click_point(4, 4)
        toast = bao.page.wait_for_selector(".toast >> text=It is not your turn.")
        bao.page.wait_for_selector(".toast >> text=It is not your turn.", state="detached", timeout=4000)
        assert toast and bao.stones() == {}
        _play(ana, bao, OPENING[:1])
        assert ana.page.locator(undo).count() == 1 and bao.page.locator(undo).count() == 0
        _play(ana, bao, OPENING[1:2], start=1)
        assert ana.page.locator(undo).count() == 0 and bao.page.locator(undo).count() == 1
        # Bao asks; Ana accepts; his stone is gone and Ana's Undo never appeared meanwhile.
        bao.page.click(undo)
        ana.page.click("button[data-action=undo_accept]")
        for person in (ana, bao):
            person.wait_stones(1)
        assert ana.page.locator(undo).count() == 1 and bao.page.locator(undo).count() == 0
        assert not [t for t in ana.page.locator(".toast").all_inner_texts() if "went wrong" in t]
        assert ana.errors == [] and bao.errors == []


def test_arrow_keys_home_and_end_step_through_the_moves(browser: Browser, server: LiveServer) -> None:
    with two_people(browser, server.url) as (ana, bao):
        start_game(ana, bao)
        _play(ana, bao, OPENING[:4])
        page = ana.page
        page.click(".moves-card h2")  # focus is on the page, not on the board (whose arrows move its cursor)
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(".history-bar >> text=Viewing move 3 of 4")
        assert len(ana.stones()) == 3
        page.keyboard.press("Home")
        page.wait_for_selector(".history-bar >> text=Viewing move 0 of 4")
        assert ana.stones() == {}
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(".history-bar >> text=Viewing move 1 of 4")
        page.keyboard.press("End")
        page.wait_for_selector(".history-bar", state="hidden")
        assert len(ana.stones()) == 4
        # In the chat box the arrows are the text cursor's.
        page.fill(".chat-input", "gg")
        page.focus(".chat-input")
        page.keyboard.press("ArrowLeft")
        assert page.locator(".history-bar").is_hidden()


def test_the_move_list_replays_the_captures_the_server_lists_after_a_reload(browser: Browser, server: LiveServer) -> None:
    with two_people(browser, server.url) as (ana, bao):
        start_game(ana, bao)
        _play(ana, bao, [(1, 0), (0, 0), (0, 1)])  # Black takes White's corner stone
        assert (0, 0) not in ana.stones()
        ana.page.reload()  # the history now comes from the snapshot's moves and their captures alone
        ana.wait_moves(3)
        page = ana.page
        page.click(".moves-card h2")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(".history-bar >> text=Viewing move 2 of 3")
        assert ana.stones() == {(1, 0): "B", (0, 0): "W"}
        page.keyboard.press("End")
        page.wait_for_selector(".history-bar", state="hidden")
        assert ana.stones() == {(1, 0): "B", (0, 1): "B"}
        assert ana.errors == [] and bao.errors == []


def test_players_see_the_spectators_chat_when_the_game_ends(browser: Browser, server: LiveServer) -> None:
    ana, bao, chen = (Person(browser, server.url) for _ in range(3))
    try:
        for person in (ana, bao, chen):
            person.open()
        game_id = start_game(ana, bao)
        chen.open(f"#/game/{game_id}")
        assert chen.api("GET", "/api/me")["id"] is None  # watching stores no guest: chatting starts one
        chen.page.wait_for_selector(".chat .tab >> nth=1 >> visible=true")
        chen.page.locator(".chat .tab").nth(1).click()
        chen.page.wait_for_selector(".chat-form:not([hidden])")
        chen.page.fill(".chat-input", "what a fight")
        chen.page.click(".chat-form button[type=submit]")
        chen.page.wait_for_selector(".chat-list .chat-text >> text=what a fight")
        assert chen.api("GET", "/api/me")["name"].startswith("Guest-")
        assert ana.page.locator(".chat .tab").nth(1).is_hidden()
        bao.confirm("resign")
        for player in (ana, bao):
            player.page.wait_for_selector(".result-banner:not([hidden])")
            player.page.wait_for_selector(".chat .tab >> nth=1 >> visible=true")
            player.page.locator(".chat .tab").nth(1).click()
            player.page.wait_for_selector(".chat-list .chat-text >> text=what a fight")
        assert ana.errors == [] and bao.errors == [] and chen.errors == []
    finally:
        for person in (ana, bao, chen):
            person.close()


def test_your_move_is_notified_only_when_asked_for_and_the_tab_is_hidden(browser: Browser, server: LiveServer) -> None:
    ana = Person(browser, server.url)
    bao = Person(browser, server.url)
    try:
        ana.context.grant_permissions(["notifications"], origin=server.url)
        ana.page.add_init_script(RECORDED_NOTIFICATIONS)
        ana.open()
        bao.open()
        start_game(ana, bao)
        _play(ana, bao, OPENING[:2])
        ana.page.evaluate("window.__hidden = true")
        _play(ana, bao, OPENING[2:4], start=2)
        assert ana.page.evaluate("window.__notes") == []  # not asked for
        ana.page.click(".settings summary")
        ana.page.check("input[name=notify]")
        ana.page.evaluate("window.__hidden = false")
        _play(ana, bao, OPENING[4:6], start=4)
        assert ana.page.evaluate("window.__notes") == []  # the tab is visible
        ana.page.evaluate("window.__hidden = true")
        ana.click_point(*OPENING[6])
        bao.wait_moves(7)
        bao.click_point(*OPENING[7])
        ana.page.wait_for_function("() => window.__notes.length === 1")
        note = ana.page.evaluate("window.__notes[0]")
        assert note == {"title": "Your move", "body": "Your opponent played G5."}, note
        ana.page.reload()
        ana.page.wait_for_selector("svg.board .stone")
        ana.page.click(".settings summary")
        assert ana.page.is_checked("input[name=notify]")  # remembered
    finally:
        ana.close()
        bao.close()


def test_a_three_stone_handicap_game_keeps_its_history_and_counts_territory(browser: Browser, server: LiveServer) -> None:
    with two_people(browser, server.url) as (ana, bao):
        game_id = start_game(ana, bao, rules="japanese", handicap=3, komi=0.5)
        handicap = {(2, 6): "B", (6, 2): "B", (2, 2): "B"}  # where the server puts three stones on 9x9
        assert ana.stones() == handicap == bao.stones()
        bao.click_point(4, 4)  # White moves first in a handicap game
        ana.wait_moves(1)
        ana.click_point(4, 2)
        bao.wait_moves(2)
        # The history is there: each move can be stepped to, and the start is the server's handicap.
        assert ana.page.locator(".move-list .mv:disabled").count() == 0
        ana.page.click("button[aria-label='First move']")
        ana.page.wait_for_selector(".history-bar >> text=Viewing move 0 of 2")
        assert ana.stones() == handicap
        ana.page.click("button[aria-label='Current position']")
        bao.confirm("pass")
        ana.wait_moves(3)
        ana.confirm("pass")
        for person in (ana, bao):
            person.page.wait_for_selector(".scoring:not([hidden]) .score-table")
        # Territory scoring: prisoners count, so that row is there and the area note is not.
        assert ana.page.locator(".score-table tr[data-row=prisoners]").count() == 1
        assert ana.page.locator(".area-note").count() == 0
        sgf = ana.page.evaluate(f"fetch('/api/games/{game_id}/sgf').then((r) => r.text())")
        flat = sgf.replace("\n", "")
        assert "W[]" in flat and "B[]" in flat and "[tt]" not in flat, flat
        assert ana.errors == [] and bao.errors == []
