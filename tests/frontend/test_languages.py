"""Six languages in Chromium against the real server: a message for every error code the server can send,
no text overflowing its box at desktop or phone width, time controls and Go words in the reader's language,
and the byo-yomi countdown spoken in Japanese and Korean."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, LANGUAGES, PHONE, Person, start_game, two_people
from tests.support.error_codes import server_error_codes

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

BYOYOMI = {"kind": "byoyomi", "main": 300, "periods": 3, "period_time": 30}

# Lists what does not fit: the page wider than the window, an element outside it, a box whose content is
# wider than itself (a clipped label, a word spilling out of a button), a select too narrow for an option.
OVERFLOWS = """() => {
    const out = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > vw) out.push('page ' + document.documentElement.scrollWidth);
    const ctx = document.createElement('canvas').getContext('2d');
    const label = (el) => el.tagName.toLowerCase() + '.' + String(el.className).trim().split(/\\s+/).join('.')
        + ' "' + el.textContent.trim().slice(0, 40) + '"';
    for (const el of document.querySelectorAll('body *')) {
        if (el.closest('svg, noscript, .sr-only') || !el.getClientRects().length) continue;
        const cs = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        if (cs.visibility === 'hidden' || r.width === 0 || r.height === 0) continue;
        if (r.right > vw + 0.5 || r.left < -0.5) { out.push('outside ' + label(el)); continue; }
        if (el.tagName === 'SELECT') {
            ctx.font = cs.font;
            const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
            for (const o of el.options) if (ctx.measureText(o.text).width > room) out.push('select ' + o.text);
            continue;
        }
        if (cs.display === 'inline' || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') continue;
        if (el.scrollWidth > el.clientWidth + 1) out.push('overflows ' + label(el));
    }
    return out;
}"""


def test_every_error_code_the_server_sends_has_a_message_in_every_language(browser: Browser, server: LiveServer) -> None:
    codes = sorted(server_error_codes())
    assert {"cannot_undo", "illegal_move", "ko", "rematch_exists", "challenge_not_open"} <= set(codes)
    person = Person(browser, server.url)
    try:
        person.open()
        missing = person.page.evaluate(
            """async ([langs, codes]) => {
                const out = {};
                for (const lang of langs) {
                    const dict = (await import(`/i18n/${lang}.js`)).default;
                    out[lang] = codes.filter((c) => typeof dict[`error.${c}`] !== 'string' || !dict[`error.${c}`].trim());
                }
                return out;
            }""",
            [list(LANGUAGES), codes],
        )
        assert missing == {lang: [] for lang in LANGUAGES}
    finally:
        person.close()


def test_no_text_overflows_its_box_in_any_language_at_desktop_and_phone_width(browser: Browser, server: LiveServer) -> None:
    ana, bao, chen = (Person(browser, server.url) for _ in range(3))
    try:
        for person in (ana, bao, chen):
            person.open()
        chen.api(
            "POST",
            "/api/challenges",
            {"board_size": 19, "rules": "japanese", "color": "black", "handicap": 4, "time_control": BYOYOMI},
        )
        start_game(ana, bao, time_control=BYOYOMI)
        ana.click_point(4, 4)
        bao.wait_moves(1)
        bao.confirm("pass")
        ana.wait_moves(2)
        ana.confirm("pass")
        ana.page.wait_for_selector(".scoring:not([hidden]) .accept-list")
        ana.page.click(".settings summary")
        found = {}
        for lang in LANGUAGES:
            ana.language(lang)
            for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                ana.page.set_viewport_size(viewport)
                ana.page.wait_for_timeout(100)
                found[(lang, name, "game")] = ana.page.evaluate(OVERFLOWS)
        ana.page.goto(f"{ana.base_url}/#/")
        ana.page.wait_for_selector("#challenges .item")
        for route in ("lobby", "rules"):
            if route == "rules":
                ana.follow("#/rules")
                ana.page.wait_for_selector(".guide h2")
            for lang in LANGUAGES:
                ana.language(lang)
                for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                    ana.page.set_viewport_size(viewport)
                    ana.page.wait_for_timeout(100)
                    found[(lang, name, route)] = ana.page.evaluate(OVERFLOWS)
        assert {k: v for k, v in found.items() if v} == {}
        assert ana.errors == []
    finally:
        for person in (ana, bao, chen):
            person.close()


def test_time_controls_are_written_in_the_readers_language(browser: Browser, server: LiveServer) -> None:
    with two_people(browser, server.url) as (ana, bao):
        expected = {
            "en": "10m + 5×30s",
            "zh": "10分 + 5×30秒",
            "ja": "10分 + 5×30秒",
            "ko": "10분 + 5×30초",
            "es": "10 min + 5×30 s",
            "vi": "10 phút + 5×30 giây",
        }
        for lang, text in expected.items():
            ana.language(lang)
            assert ana.page.locator(".tc-desc").inner_text() == text
        start_game(ana, bao, time_control={"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30})
        ana.language("ko")
        ana.page.wait_for_selector(".game-info >> text=10분 + 5×30초")
        assert "30초" in ana.page.locator(".player-card[data-color=W] .clock").inner_text()


SPEECH = """
    window.__said = [];
    window.SpeechSynthesisUtterance = window.SpeechSynthesisUtterance || class { constructor(text) { this.text = text; } };
    Object.defineProperty(window, 'speechSynthesis', {configurable: true, value: {
        speak(u) { window.__said.push({text: u.text, lang: u.lang}); }, cancel() {},
    }});
"""


def test_japanese_and_korean_have_their_go_words_and_a_spoken_countdown(browser: Browser, server: LiveServer) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url)
    try:
        ana.page.add_init_script(SPEECH)
        ana.open()
        bao.open()
        ana.language("ja")
        bao.language("ko")
        # Byo-yomi from the start: Black's last ten seconds are counted aloud, in Japanese, then in Korean.
        start_game(ana, bao, time_control={"kind": "byoyomi", "main": 0, "periods": 1, "period_time": 14})
        ana.page.wait_for_function("() => window.__said.length > 0", timeout=15_000)
        first = ana.page.evaluate("window.__said[0]")
        assert first["lang"] == "ja-JP" and first["text"] in "いち,に,さん,よん,ご,ろく,なな,はち,きゅう,じゅう".split(","), first
        ana.language("ko")
        ana.page.wait_for_function("() => window.__said.some((u) => u.lang === 'ko-KR')", timeout=5_000)
        korean = [u for u in ana.page.evaluate("window.__said") if u["lang"] == "ko-KR"]
        assert korean[0]["text"] in "하나,둘,셋,넷,다섯,여섯,일곱,여덟,아홉,열".split(","), korean
        ana.language("ja")
        ana.confirm("resign")
        assert ana.shown_text(".result-banner:not([hidden])").startswith("白の中押し勝ち")
        assert bao.shown_text(".result-banner:not([hidden])").startswith("백 불계승")

        # A counted game: the margin in 目 and in 집.
        start_game(ana, bao)
        ana.click_point(4, 4)
        bao.wait_moves(1)
        bao.confirm("pass")
        ana.wait_moves(2)
        ana.confirm("pass")
        for person in (ana, bao):
            person.page.wait_for_selector(".scoring:not([hidden]) button[data-action=accept_score]:not([disabled])")
            person.confirm("accept_score")
        assert ana.shown_text(".result-banner:not([hidden])").startswith("黒の73.5目勝ち")
        assert bao.shown_text(".result-banner:not([hidden])").startswith("흑 73.5집 승")
        assert ana.errors == [] and bao.errors == []
    finally:
        ana.close()
        bao.close()
