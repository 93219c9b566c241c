"""The analysis board in Chromium against the real server: from a finished game's page, branch a
variation (the server's refusals shown), comment and mark it, get a score estimate with its ownership
overlay and GNU Go's hints, export the tree as SGF and import it again (pasted and as a file) unchanged; the link is there for
a spectator of a game in progress and not for its players."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, LANGUAGES, PHONE, Person, start_game
from tests.frontend.test_languages import OVERFLOWS
from tests.support.services import need_gnugo

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

MOVES = [(2, 2), (6, 6), (2, 6), (6, 2)]


def _depth(person: Person) -> int:
    return int(person.page.locator(".analysis").get_attribute("data-depth") or -1)


def _wait_depth(person: Person, depth: int) -> None:
    person.page.wait_for_function(f"() => document.querySelector('.analysis')?.dataset.depth === '{depth}'")


def _export(person: Person, tmp_path: Path, name: str) -> str:
    with person.page.expect_download() as info:
        person.page.click("button[data-action=export]")
    path = tmp_path / name
    info.value.save_as(path)
    return path.read_text(encoding="utf-8")


@pytest.mark.gnugo
def test_branch_estimate_export_and_import_again_unchanged(browser: Browser, server: LiveServer, tmp_path: Path) -> None:
    need_gnugo()
    ana, bao, cai = Person(browser, server.url), Person(browser, server.url), Person(browser, server.url)
    try:
        for person in (ana, bao, cai):
            person.open()
        game_id = start_game(ana, bao)
        for n, point in enumerate(MOVES, start=1):
            mover, other = (ana, bao) if n % 2 else (bao, ana)
            mover.click_point(*point)
            other.wait_moves(n)
        # a spectator of the game in progress may analyse it (in a tab of its own); its players may not
        cai.page.goto(f"{server.url}/#/game/{game_id}")
        cai.page.wait_for_selector("a[data-action=analyse]:not([hidden])")
        assert cai.page.locator("a[data-action=analyse]").get_attribute("target") == "_blank"
        assert ana.page.locator("a[data-action=analyse]").is_hidden()
        bao.confirm("resign")
        ana.page.wait_for_selector(".result-banner:not([hidden])")

        ana.page.click("a[data-action=analyse]")
        ana.page.wait_for_selector(".analysis svg.board .pt")
        _wait_depth(ana, 4)
        ana.wait_stones(4)
        assert "Analysis board" in ana.page.locator("h1.analysis-title").inner_text()

        # back two moves with the keys, then branch: Black plays elsewhere
        ana.page.locator("h1.analysis-title").click()
        ana.page.keyboard.press("ArrowLeft")
        _wait_depth(ana, 3)
        ana.page.keyboard.press("ArrowLeft")
        _wait_depth(ana, 2)
        ana.wait_stones(2)
        ana.click_point(2, 2)  # occupied: the server refuses, and says why
        ana.page.wait_for_selector(".toast.error")
        assert _depth(ana) == 2
        ana.click_point(4, 4)
        _wait_depth(ana, 3)
        ana.wait_stones(3)
        assert ana.page.locator(".variations button").count() == 0  # nothing after the new move yet
        ana.page.fill("textarea.comment", "Tengen is the better point.")
        ana.page.click("button[data-tool=triangle]")
        ana.click_point(2, 2)
        ana.page.wait_for_selector('svg.board .anno.triangle[data-x="2"][data-y="2"]')
        ana.page.click("button[data-tool=play]")
        ana.page.click("button[aria-label='Previous move']")
        _wait_depth(ana, 2)
        assert ana.page.locator(".variations button").all_inner_texts() == ["A: C3", "B: E5"]
        ana.page.click(".variations button[data-variation='1']")
        _wait_depth(ana, 3)
        assert ana.page.locator("textarea.comment").input_value() == "Tengen is the better point."

        # the score estimate: dead stones and an ownership overlay on the board
        ana.page.click("button[data-action=estimate]")
        ana.page.wait_for_selector(".estimate-line:not([hidden])", timeout=60_000)
        assert ana.page.locator(".estimate-line").inner_text().startswith("Estimate: ")
        assert ana.page.locator("svg.board .terr").count() > 0

        # engine hints (GNU Go): numbered on the board and listed
        ana.page.click("button[data-action=hints]")
        ana.page.wait_for_selector(".hint-list:not([hidden]) li", timeout=60_000)  # GNU Go on a busy machine
        assert ana.page.locator("svg.board .anno.hint").count() == ana.page.locator(".hint-list li").count() >= 1
        assert ana.page.locator(".hint-list li").first.inner_text().startswith("1. ")
        ana.shot("analysis-desktop.png", DESKTOP)  # docs/screenshots/analysis-desktop.png

        first = _export(ana, tmp_path, "first.sgf")
        flat = first.replace("\n", "")
        assert "SZ[9]" in flat and "C[Tengen is the better point.]" in flat and "TR[cg]" not in flat
        assert "TR[cc]" in flat and flat.count("(;") == 3  # the game and two variations after move 2

        # paste it into a new board, and open it as a file: the same record comes back each time
        ana.page.click("button[data-action=new]")
        ana.wait_stones(0)
        ana.page.fill("textarea.sgf-paste", first)
        ana.page.click("button[data-action=import-paste]")
        ana.page.wait_for_selector(".toast:has-text('Record imported.')")
        _wait_depth(ana, 0)
        assert _export(ana, tmp_path, "second.sgf") == first
        ana.page.click("button[aria-label='End of the variation']")
        _wait_depth(ana, 4)
        ana.wait_stones(4)
        ana.page.set_input_files("input.sgf-file", str(tmp_path / "first.sgf"))
        _wait_depth(ana, 0)  # a fresh tree, at its start
        ana.wait_stones(0)
        assert _export(ana, tmp_path, "third.sgf") == first

        # a file goes as its bytes, read in the character set its CA names; pasted text as the text it is
        (tmp_path / "gb.sgf").write_bytes("(;CA[GB2312]SZ[9]C[好棋，柯洁];B[cc])".encode("gb2312"))
        ana.page.set_input_files("input.sgf-file", str(tmp_path / "gb.sgf"))
        ana.page.wait_for_function("() => document.querySelector('.analysis textarea.comment').value === '好棋，柯洁'")
        ana.page.fill("textarea.sgf-paste", "(;CA[ISO-8859-1]SZ[9]C[¡Qué jugada, Íñigo!];B[cc])")
        ana.page.click("button[data-action=import-paste]")
        ana.page.wait_for_function("() => document.querySelector('.analysis textarea.comment').value === '¡Qué jugada, Íñigo!'")
        ana.page.set_input_files("input.sgf-file", str(tmp_path / "first.sgf"))
        ana.page.wait_for_function("() => document.querySelector('.analysis textarea.comment').value === ''")
        _wait_depth(ana, 0)

        # remove the variation: the record is the game's moves again
        ana.page.click("button[aria-label='End of the variation']")
        _wait_depth(ana, 4)
        ana.page.keyboard.press("Home")
        _wait_depth(ana, 0)
        for depth in (1, 2):
            ana.page.keyboard.press("ArrowRight")
            _wait_depth(ana, depth)
        ana.page.click(".variations button[data-variation='1']")
        _wait_depth(ana, 3)
        ana.page.click("button[data-action=remove]")
        _wait_depth(ana, 2)
        assert ana.page.locator(".variations button").count() == 0
        assert ana.page.locator(".analysis-line .mv").count() == 4
        assert _export(ana, tmp_path, "fourth.sgf").replace("\n", "").count("(;") == 1
        for person in (ana, bao, cai):
            assert person.errors == []
    finally:
        for person in (ana, bao, cai):
            person.close()


def test_the_analysis_page_and_its_link_fit_in_every_language(browser: Browser, server: LiveServer) -> None:
    person = Person(browser, server.url)
    try:
        person.open("#/games")
        person.page.click("a[data-action=analysis]")
        person.page.wait_for_selector(".analysis svg.board .pt")
        _wait_depth(person, 0)
        person.click_point(3, 3)
        _wait_depth(person, 1)
        person.page.click("button[data-action=estimate]")
        person.page.wait_for_selector(".estimate-line:not([hidden])", timeout=60_000)
        found = {}
        for route in ("analysis", "games"):
            if route == "games":
                person.page.goto(f"{server.url}/#/games")
                person.page.wait_for_selector("a[data-action=analysis]")
            for lang in LANGUAGES:
                person.language(lang)
                for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                    person.page.set_viewport_size(viewport)
                    person.page.wait_for_timeout(100)
                    # the games page: its new link only (the page's filter selects are its own business)
                    found[(lang, name, route)] = [
                        item for item in person.page.evaluate(OVERFLOWS) if route == "analysis" or not item.startswith("select ")
                    ]
        assert {k: v for k, v in found.items() if v} == {}
        assert person.errors == []
    finally:
        person.close()


def test_katagos_estimate_and_hints_show_its_lead_win_rate_and_variations(browser: Browser, server: LiveServer) -> None:
    """What the page shows of KataGo's answers (docs/study.md; the answers themselves: tests/engines/test_study.py):
    given here by the browser's own network layer, so that no KataGo is needed."""
    person = Person(browser, server.url)
    estimate = {
        "dead": [],
        "ownership": [[0.0] * 9 for _ in range(9)],
        "score": {"result": "W+3.5"},
        "judge": "katago",
        "winrate": 0.62,
        "score_lead": 1.5,
    }
    hints = {
        "to_move": "W",
        "engine": "katago",
        "winrate": 0.6,
        "score_lead": 1.2,
        "moves": [{"point": [2, 2], "value": None, "visits": 8, "winrate": 0.41, "score_lead": -0.5, "pv": [[2, 2], [6, 6]]}],
    }
    try:
        person.page.route("**/api/study/estimate", lambda route: route.fulfill(json=estimate))
        person.page.route("**/api/study/hints", lambda route: route.fulfill(json=hints))
        person.open("#/games")
        person.page.click("a[data-action=analysis]")
        person.page.wait_for_selector(".analysis svg.board .pt")
        _wait_depth(person, 0)
        person.click_point(4, 4)
        _wait_depth(person, 1)
        person.page.click("button[data-action=estimate]")
        person.page.wait_for_selector(".estimate-line:not([hidden])")
        assert person.page.locator(".estimate-line").inner_text() == "KataGo: W+3.5 counted, lead B+1.5, Black wins 62%"
        person.page.click("button[data-action=hints]")
        person.page.wait_for_selector(".hint-list:not([hidden]) li")
        assert person.page.locator(".hint-list li").first.inner_text() == "1. C17: Black 41%, W+0.5; C17 G13"
        texts = set()
        for lang in LANGUAGES:
            person.language(lang)
            texts.add(person.page.locator(".estimate-line").inner_text())
        assert len(texts) == len(LANGUAGES)
        assert person.errors == []
    finally:
        person.close()
