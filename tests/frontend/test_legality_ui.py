"""Illegal points in the browser, against the real server: the page shows no stone under the pointer and sends
nothing where the server's ``illegal`` list says the side to move may not play (a ko, a suicide), and says why."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import Person, start_game

if TYPE_CHECKING:
    from playwright.sync_api import Browser, WebSocket

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

# 9x9, black first. White's (0, 0) takes Black's (1, 0): a ko that Black may not retake at once.
KO = [(1, 0), (2, 0), (0, 1), (1, 1), (7, 0), (0, 0)]


def _frames(person: Person) -> tuple[list[dict], list[dict]]:
    """Every game-socket message the page sends and receives, from now on."""
    sent: list[dict] = []
    received: list[dict] = []

    def on_socket(ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: received.append(json.loads(payload)))

    person.page.on("websocket", on_socket)
    return sent, received


def _hover_shows_a_stone(person: Person, x: int, y: int) -> bool:
    person.page.hover(f'{person.board} .pt[data-x="{x}"][data-y="{y}"]')
    return bool(person.page.evaluate(f"document.querySelector('{person.board}').classList.contains('can-play')"))


def _refused_in_the_browser(person: Person, sent: list[dict], x: int, y: int, text: str, then: tuple[int, int]) -> None:
    """A click at (x, y) is refused with ``text`` and sends nothing: the next play the page sends is the legal
    move ``then`` clicked after it (frames go out in order)."""
    person.page.evaluate("document.querySelectorAll('.toast').forEach((el) => el.remove())")
    plays = len([m for m in sent if m.get("t") == "play"])
    person.click_point(x, y)
    person.page.wait_for_selector(f".toast >> text={text}")
    assert (x, y) not in person.stones()
    person.click_point(*then)
    person.page.wait_for_function(
        f'() => document.querySelector(\'{person.board} .stone[data-x="{then[0]}"][data-y="{then[1]}"]\') !== null'
    )
    assert [m["p"] for m in sent if m.get("t") == "play"][plays] == list(then)


def test_the_ko_and_a_suicide_are_shown_and_refused_from_the_servers_list(browser: Browser, server: LiveServer) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url)
    try:
        ana_sent, ana_received = _frames(ana)
        bao_sent, _ = _frames(bao)
        ana.open()
        bao.open()
        start_game(ana, bao)
        for n, point in enumerate(KO, start=1):
            (ana if n % 2 else bao).click_point(*point)
            ana.wait_moves(n)
            bao.wait_moves(n)
        ana.wait_stones(5)
        # The server's move event names the ko as the one point Black may not play.
        last = [m for m in ana_received if m.get("t") == "move"][-1]
        assert last["p"] == [0, 0] and last["ko"] == [1, 0] and last["illegal"] == [[1, 0]]
        assert not _hover_shows_a_stone(ana, 1, 0)
        assert _hover_shows_a_stone(ana, 4, 4)
        # Refused; then Black plays elsewhere, closing an eye at the top right: White may not play into it.
        _refused_in_the_browser(ana, ana_sent, 1, 0, "Ko: you cannot retake immediately.", then=(8, 1))
        ana.wait_moves(7)
        bao.wait_moves(7)
        assert not _hover_shows_a_stone(bao, 8, 0)
        assert _hover_shows_a_stone(bao, 1, 0)  # White may fill the ko
        _refused_in_the_browser(bao, bao_sent, 8, 0, "That move is not legal.", then=(1, 0))
        ana.wait_moves(8)
        bao.wait_moves(8)
        assert ana.errors == [] and bao.errors == []
    finally:
        ana.close()
        bao.close()
