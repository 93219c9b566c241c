"""The browser client, loaded from `frontend/` in real Chromium.

The static files are served by Python's http.server on a free port. The REST API and the WebSockets are
answered inside the browser by playwright routes speaking the documented protocol (tests/frontend/fixtures.py),
so these tests check what the frontend itself does: rendering, input, i18n, layout. The lobby, the game page
and chat against the real server are covered by test_e2e.py.
Screenshots go to tests/artifacts/ for looking at.
"""

from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.frontend import fixtures
from tests.support.services import CHROMIUM, need_chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"
HARNESS = Path(__file__).resolve().parent / "harness"
ARTIFACTS = ROOT / "tests" / "artifacts"


class _Handler(SimpleHTTPRequestHandler):
    """Serves frontend/ at / and the test harness pages at /harness/."""

    def translate_path(self, path: str) -> str:
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean.startswith("/harness/"):
            return str(HARNESS / clean[len("/harness/") :])
        return super().translate_path(path)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def base_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(FRONTEND)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield b
        b.close()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US", device_scale_factor=1)
    yield ctx
    ctx.close()


def _page(context, errors=None):
    page = context.new_page()
    if errors is not None:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


# ---- board module --------------------------------------------------------------------------------------


def test_board_renders_points_star_points_stones_and_coordinates(context, base_url):
    errors: list[str] = []
    page = _page(context, errors)
    page.goto(f"{base_url}/harness/blank.html")
    info = page.evaluate(
        """async (rows) => {
            const { Board } = await import('/js/board.js');
            window.played = [];
            const board = new Board(document.getElementById('host'), {
                size: 19, onPlay: (p) => window.played.push(p), ghostColor: () => 'B' });
            board.setPosition(rows);
            board.setLastMove([15, 3]);
            board.setInteractive(true);
            window.board = board;
            const svg = document.querySelector('svg.board');
            const texts = [...svg.querySelectorAll('.coords text')].map((t) => t.textContent);
            return {
                points: svg.querySelectorAll('.pt').length,
                stars: svg.querySelectorAll('.stars circle').length,
                black: svg.querySelectorAll('.stone.black').length,
                white: svg.querySelectorAll('.stone.white').length,
                last: svg.querySelectorAll('.last-move').length,
                gradients: svg.querySelectorAll('radialGradient').length,
                hasI: texts.includes('I'), hasT: texts.includes('T'), has19: texts.includes('19'),
                labelD4: svg.querySelector('.pt[data-x="3"][data-y="15"]').getAttribute('aria-label'),
                labelQ16: svg.querySelector('.pt[data-x="15"][data-y="3"]').getAttribute('aria-label'),
            };
        }""",
        fixtures.SAMPLE_ROWS,
    )
    assert info["points"] == 361
    assert info["stars"] == 9
    assert info["black"] == sum(r.count("X") for r in fixtures.SAMPLE_ROWS)
    assert info["white"] == sum(r.count("O") for r in fixtures.SAMPLE_ROWS)
    assert info["last"] == 1
    assert info["gradients"] >= 2
    assert not info["hasI"] and info["hasT"] and info["has19"]
    assert info["labelD4"] == "D4, black stone"
    assert info["labelQ16"].startswith("Q16, white stone") and "last move" in info["labelQ16"]

    # The ghost stone follows the pointer on empty points only.
    svg = page.locator("svg.board")
    box = svg.bounding_box()
    cell = box["width"] / (18 + 2 * 1.05)
    margin = 1.05 * cell

    def at(x, y):
        return box["x"] + margin + x * cell, box["y"] + margin + y * cell

    page.mouse.move(*at(10, 9))
    assert page.locator("circle.ghost").get_attribute("visibility") == "visible"
    page.mouse.move(*at(3, 15))  # D4 holds a black stone
    assert page.locator("circle.ghost").get_attribute("visibility") == "hidden"
    page.mouse.click(*at(16, 16))
    assert page.evaluate("window.played") == [[16, 16]]

    # Keyboard: arrows move the cursor from the last point (Q3); Enter plays only on an empty point.
    svg.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")  # Q4 holds a white stone
    page.keyboard.press("Enter")
    assert page.evaluate("window.played") == [[16, 16]]
    assert "Q4, white stone" in page.locator(".board-wrap [aria-live]").inner_text()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    assert page.evaluate("window.played") == [[16, 16], [14, 15]]
    page.mouse.move(0, 0)
    _shot(page, "board-desktop.png")
    assert errors == []


def test_board_confirm_mode_needs_a_second_tap(context, base_url):
    page = _page(context)
    page.goto(f"{base_url}/harness/blank.html")
    page.evaluate(
        """async () => {
            const { Board } = await import('/js/board.js');
            window.played = []; window.pending = [];
            const board = new Board(document.getElementById('host'), { size: 9,
                onPlay: (p) => window.played.push(p), onPending: (p) => window.pending.push(p), ghostColor: () => 'W' });
            board.setInteractive(true); board.setConfirmMode(true);
        }"""
    )
    point = page.locator('.pt[data-x="4"][data-y="4"]')
    point.click()
    assert page.evaluate("window.played") == []
    assert page.evaluate("window.pending") == [[4, 4]]
    point.click()
    assert page.evaluate("window.played") == [[4, 4]]


# ---- clocks --------------------------------------------------------------------------------------------


def test_clock_formatting_shows_byo_yomi_periods_unambiguously(context, base_url):
    page = _page(context)
    page.goto(f"{base_url}/harness/blank.html")
    out = page.evaluate(
        """async () => {
            const c = await import('/js/clock.js');
            const by = { main: 0, periods: 3, period_time: 30, period_left: 12 };
            const main = { main: 272, periods: 3, period_time: 30, period_left: null };
            const crossed = c.tick(main, 'byoyomi', 272 + 30 + 5);
            return {
                byo: c.formatClock(by, 'byoyomi'),
                main: c.formatClock(main, 'byoyomi'),
                countdown: c.formatClock({ main: 0, periods: 2, period_time: 60, period_left: 41.2 }, 'chinese_countdown'),
                crossed: c.formatClock(crossed, 'byoyomi'),
                fischer: c.formatClock({ main: 65 }, 'fischer'),
                tenths: c.formatClock({ main: 9.43 }, 'absolute'),
                hours: c.formatClock({ main: 3725 }, 'absolute'),
                urgent: c.urgentSeconds(by, 'byoyomi'),
            };
        }"""
    )
    assert out["byo"] == "0:12 · 3×30s"
    assert out["main"] == "4:32 + 3×30s"
    assert out["countdown"] == "0:42 · 2×60s"
    assert out["crossed"] == "0:25 · 2×30s"  # main used up, one period spent, 5 s into the next
    assert out["fischer"] == "1:05"
    assert out["tenths"] == "0:09.4"
    assert out["hours"] == "1:02:05"
    assert out["urgent"] == 12


# ---- whole pages (REST and WebSocket answered by fixtures) ---------------------------------------------


def test_language_switch_changes_labels_and_is_remembered(context, base_url):
    page = _page(context)
    fixtures.serve_api(page)
    fixtures.serve_lobby_socket(page)
    page.goto(f"{base_url}/")
    nav = page.locator("nav.nav a").first
    assert nav.inner_text() == "Play"
    assert page.locator("#create-title").inner_text() == "New game"
    page.select_option("#lang", "zh")
    assert nav.inner_text() == "对弈"
    assert page.locator("#create-title").inner_text() == "新对局"
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    page.reload()
    assert page.locator("nav.nav a").first.inner_text() == "对弈"
    assert page.locator("#lang").input_value() == "zh"
    page.select_option("#lang", "vi")
    assert page.locator("nav.nav a").first.inner_text() == "Chơi"
    page.select_option("#lang", "es")
    assert page.locator("nav.nav a").first.inner_text() == "Jugar"


def test_dictionaries_have_the_same_keys(context, base_url):
    page = _page(context)
    page.goto(f"{base_url}/harness/blank.html")
    diff = page.evaluate(
        """async () => {
            const langs = ['en', 'zh', 'vi', 'es', 'ja', 'ko'];
            const dicts = {};
            for (const l of langs) dicts[l] = (await import(`/i18n/${l}.js`)).default;
            const keys = Object.keys(dicts.en);
            const out = {};
            for (const l of langs) out[l] = keys.filter((k) => !(k in dicts[l])).concat(
                Object.keys(dicts[l]).filter((k) => !(k in dicts.en)));
            return out;
        }"""
    )
    assert diff == {lang: [] for lang in ("en", "zh", "vi", "es", "ja", "ko")}


def test_chat_hides_the_spectator_tab_from_players_during_play(context, base_url):
    page = _page(context)
    fixtures.serve_api(page)
    fixtures.serve_lobby_socket(page)
    fixtures.serve_game_socket(page, role="white")
    page.goto(f"{base_url}/#/game/g-live")
    page.wait_for_selector(".chat .tab")
    assert page.locator(".chat .tab").nth(0).is_visible()
    assert not page.locator(".chat .tab").nth(1).is_visible()


@pytest.mark.parametrize("route", ["#/", "#/game/g-live", "#/rules"])
def test_phone_width_has_no_horizontal_overflow(browser, base_url, route):
    ctx = browser.new_context(
        viewport={"width": 375, "height": 740}, locale="vi-VN", device_scale_factor=2, has_touch=True, is_mobile=True
    )
    try:
        page = ctx.new_page()
        fixtures.serve_api(page)
        fixtures.serve_lobby_socket(page)
        fixtures.serve_game_socket(page, role="black")
        page.goto(f"{base_url}/{route}")
        page.wait_for_selector("main > *")
        if "game" in route:
            page.wait_for_selector(".player-card .clock")
        widths = page.evaluate("[document.documentElement.scrollWidth, document.body.scrollWidth, innerWidth]")
        assert widths[0] <= 375 and widths[1] <= 375, widths
        wide = page.evaluate(
            """() => [...document.querySelectorAll('main *')].filter((el) => {
                const r = el.getBoundingClientRect();
                return r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5);
            }).map((el) => el.tagName + '.' + el.className).slice(0, 5)"""
        )
        assert wide == []
        name = {"#/": "lobby", "#/game/g-live": "game", "#/rules": "rules"}[route]
        _shot(page, f"{name}-phone.png")
    finally:
        ctx.close()


def test_static_files_fetch_nothing_from_other_hosts(context, base_url):
    page = _page(context)
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith((base_url, "data:", "ws://127.0.0.1")) else None)
    fixtures.serve_api(page)
    fixtures.serve_lobby_socket(page)
    page.goto(f"{base_url}/#/rules")
    page.wait_for_selector(".guide h2")
    assert outside == []
