"""Correspondence in the browser against the real server: the lobby's "your turn" list and its badge, filled by
the lobby socket's snapshot and kept live when the opponent moves (with a notification while the tab is
hidden, when asked for), and the correspondence settings (weekend pause, time zone, vacation). In every
language."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any


from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, LANGUAGES, PHONE, RECORDED_NOTIFICATIONS, Person
from tests.frontend.test_languages import OVERFLOWS

if TYPE_CHECKING:
    from playwright.sync_api import Browser

DAY = 86400
NOTIFICATIONS = RECORDED_NOTIFICATIONS + "localStorage.setItem('tengen.settings', JSON.stringify({notify: true}));\n"


def _register(person: Person) -> str:
    person.open()
    name = "p" + uuid.uuid4().hex[:8]
    person.api("POST", "/api/auth/register", {"username": name, "password": "s3cret-Tengen-" + uuid.uuid4().hex})
    person.page.reload()  # the page learns of the account
    person.page.wait_for_selector(".user-name")
    return name


def _game(black: Person, white: Person, days: int) -> str:
    tc: dict[str, Any] = {"kind": "simple", "per_move": days * DAY, "correspondence": True}
    challenge = black.api("POST", "/api/challenges", {"board_size": 9, "color": "black", "time_control": tc})
    accepted = white.api("POST", f"/api/challenges/{challenge['id']}/accept", {})
    return str(accepted.get("game_id") or accepted["game"]["id"])


def _badge(person: Person) -> str:
    return person.page.inner_text("#your-turn-badge").strip()


def test_your_turn_list_badge_and_correspondence_settings(browser: Browser, server: LiveServer) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url)
    try:
        ana.context.grant_permissions(["notifications"], origin=server.url)
        ana.page.add_init_script(NOTIFICATIONS)
        _register(ana)
        bao_name = _register(bao)
        week = _game(ana, bao, 7)
        day = _game(ana, bao, 1)
        theirs = _game(bao, ana, 3)  # Bao is Black there: his move first

        ana.open()
        ana.page.wait_for_function("() => document.querySelector('#your-turn-badge').textContent.trim() === '2'")
        ids = ana.page.eval_on_selector_all("#your-turn li.item", "els => els.map(e => e.dataset.id)")
        assert ids == [day, week]  # the nearest deadline first
        assert bao_name in ana.page.inner_text("#your-turn")
        ana.shot("lobby-your-turn-desktop.png", DESKTOP)

        # Bao moves in the third game: Ana's list and badge follow at once, and her hidden tab is notified.
        ana.page.evaluate("window.__hidden = true")
        bao.page.goto(f"{server.url}/#/game/{theirs}")
        bao.page.wait_for_selector(f"{bao.board} .pt")
        bao.click_point(4, 4)
        ana.page.wait_for_function("() => document.querySelector('#your-turn-badge').textContent.trim() === '3'")
        assert theirs in ana.page.eval_on_selector_all("#your-turn li.item", "els => els.map(e => e.dataset.id)")
        ana.page.wait_for_function("() => window.__notes.length === 1")
        assert ana.page.evaluate("window.__notes[0]") == {"title": "Your move", "body": f"Your move against {bao_name}."}
        ana.page.evaluate("window.__hidden = false")

        for code in LANGUAGES:  # the card speaks every language: no key is shown raw
            ana.language(code)
            text = ana.page.inner_text("#your-turn-title") + ana.page.inner_text("#your-turn")
            assert "lobby." not in text and "tc." not in text, (code, text)
        ana.language("en")
        assert ana.page.inner_text("#your-turn-title").startswith("Your turn")

        # Settings: weekends paused in Tokyo, then a vacation that stops every clock.
        ana.open("#/settings")
        ana.page.wait_for_selector("#weekend-pause")
        ana.page.check("#weekend-pause")
        ana.page.wait_for_function("() => document.querySelector('.toast') !== null")
        ana.page.select_option("#time-zone", "Asia/Tokyo")
        ana.page.wait_for_function("() => document.querySelector('#time-zone').value === 'Asia/Tokyo'")
        choices = ana.api("GET", "/api/me/correspondence")
        assert choices["weekend_pause"] is True
        ana.page.wait_for_function(
            "async () => (await (await fetch('/api/me/correspondence')).json()).time_zone === 'Asia/Tokyo'"
        )
        assert "7.0" in ana.page.inner_text("#vacation-state")
        ana.page.click("#vacation-toggle")
        ana.page.wait_for_function("() => document.querySelector('#vacation-toggle').textContent.includes('End')")
        assert ana.api("GET", "/api/me/correspondence")["vacation"]["on"] is True
        for code in LANGUAGES:
            ana.language(code)
            text = ana.page.inner_text("#correspondence-settings")
            assert "corr." not in text, (code, text)
        ana.language("en")
        ana.shot("settings-correspondence-desktop.png", DESKTOP)

        # On vacation, the lobby shows every waiting game's clock paused.
        ana.open()
        ana.page.wait_for_function(
            "() => [...document.querySelectorAll('#your-turn .time-left')].length === 3 && "
            "[...document.querySelectorAll('#your-turn .time-left')].every(e => e.textContent === 'clock paused')"
        )
        ana.open("#/settings")
        ana.page.click("#vacation-toggle")
        ana.page.wait_for_function("() => document.querySelector('#vacation-toggle').textContent.includes('Start')")
        assert ana.api("GET", "/api/me/correspondence")["vacation"]["on"] is False
        assert ana.errors == [] and bao.errors == []
    finally:
        ana.close()
        bao.close()


def _tree(person: Person) -> list[str]:
    """The stored conditional tree the card shows: each branch as "their,move>answer", nested ones after a /."""
    return list(
        person.page.eval_on_selector_all(
            "#conditional .cond-tree li",
            """els => els.map(e => {
            const up = [];
            for (let p = e.parentElement.closest('li'); p; p = p.parentElement.closest('li')) {
                up.unshift(p.dataset.theirs + '>' + p.dataset.mine);
            }
            return [...up, e.dataset.theirs + '>' + e.dataset.mine].join('/');
        })""",
        )
    )


def _both_on_a_new_game(ana: Person, bao: Person) -> None:
    """Both register, Ana (Black) challenges Bao to a 3-day correspondence game, and both open its page."""
    _register(ana), _register(bao)
    game = _game(ana, bao, 3)
    for person in (ana, bao):
        person.open(f"#/game/{game}")
        person.page.wait_for_selector(f"{person.board} .pt")


def test_conditional_moves_planned_on_the_board_are_played_by_the_server(browser: Browser, server: LiveServer) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url)
    try:
        _both_on_a_new_game(ana, bao)
        assert ana.page.is_hidden("#conditional #cond-edit")  # her turn: nothing to plan
        ana.click_point(4, 4)
        ana.wait_moves(1)

        # Bao to move: Ana plans "if 2,2 then 6,6, then if 2,6 then 6,2" and "if 4,2 then 4,6" by clicking.
        ana.page.click("#cond-edit")
        ana.click_point(4, 4)  # taken: the server refuses it, and the line stays empty
        ana.page.wait_for_selector(".toast")
        for x, y in ((2, 2), (6, 6), (2, 6), (6, 2)):
            ana.click_point(x, y)
        ana.page.wait_for_function("() => document.querySelectorAll('svg.board .anno').length === 4")
        overflows = {}
        for code in LANGUAGES:  # the editor fits in every language, on a desk and on a phone
            ana.language(code)
            for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                ana.page.set_viewport_size(viewport)
                overflows[(code, name)] = ana.page.evaluate(OVERFLOWS)
        assert {k: v for k, v in overflows.items() if v} == {}
        ana.language("en")
        ana.page.set_viewport_size(DESKTOP)
        assert ana.stones()[(2, 2)] != ana.stones()[(6, 6)]  # their move and her answer, in their colours
        ana.page.click("#cond-add")
        ana.click_point(4, 2)
        ana.click_point(4, 6)
        ana.page.click("#cond-save")  # the finished line is saved with the rest
        ana.page.wait_for_selector("#cond-edit")
        assert _tree(ana) == ["2,2>6,6", "2,2>6,6/2,6>6,2", "4,2>4,6"]
        assert len(ana.stones()) == 1  # back to the game's own position
        for code in LANGUAGES:  # the card speaks every language
            ana.language(code)
            assert "cond." not in ana.page.inner_text("#conditional"), code
        ana.language("en")
        ana.shot("game-conditional-moves-desktop.png", DESKTOP)

        # The tree is the server's: a fresh page shows it; Bao's card holds only his own (empty) tree.
        ana.page.reload()
        ana.page.wait_for_selector("#conditional .cond-tree")
        assert _tree(ana) == ["2,2>6,6", "2,2>6,6/2,6>6,2", "4,2>4,6"]
        assert bao.page.is_visible("#conditional .cond-none") and bao.page.query_selector("#conditional .cond-tree") is None

        # Bao plays the foreseen move: Ana's answer is on both boards at once, and the rest of the line stays.
        bao.click_point(2, 2)
        ana.wait_moves(3)
        bao.wait_moves(3)
        assert ana.stones()[(6, 6)] == ana.stones()[(4, 4)] and bao.stones()[(6, 6)] == bao.stones()[(4, 4)]
        ana.page.wait_for_function("() => document.querySelectorAll('#conditional .cond-tree li').length === 1")
        assert _tree(ana) == ["2,6>6,2"]

        # A move she did not foresee drops the tree.
        bao.click_point(3, 3)
        ana.wait_moves(4)
        ana.page.wait_for_selector("#conditional .cond-none")
        ana.click_point(5, 5)
        ana.wait_moves(5)

        # A plan can be cleared again.
        ana.page.click("#cond-edit")
        ana.click_point(2, 6)
        ana.click_point(6, 2)
        ana.page.click("#cond-save")
        ana.page.wait_for_selector("#cond-clear")
        assert _tree(ana) == ["2,6>6,2"]
        ana.page.click("#cond-clear")
        ana.page.wait_for_selector("#conditional .cond-none")
        assert ana.errors == [] and bao.errors == []
    finally:
        ana.close()
        bao.close()


# Black (Ana) takes a ko at 5,4 with the game's ninth move, capturing White's stone at 4,4: White may not take
# back at 4,4 at once, which the stones alone do not show.
KO_GAME = [(4, 3), (5, 3), (3, 4), (6, 4), (4, 5), (5, 5), (0, 0), (4, 4), (5, 4)]


def test_a_conditional_line_the_games_ko_forbids_is_refused_in_its_preview(browser: Browser, server: LiveServer) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url)
    try:
        _both_on_a_new_game(ana, bao)
        for n, (x, y) in enumerate(KO_GAME):
            mover, other = (ana, bao) if n % 2 == 0 else (bao, ana)
            mover.click_point(x, y)
            other.wait_moves(n + 1)
        ana.wait_moves(len(KO_GAME))
        assert (4, 4) not in ana.stones() and ana.stones()[(5, 4)] == ana.stones()[(4, 3)]  # the ko was taken

        # Bao to move: Ana plans his retake at 4,4. The server refuses it for the ko, with its reason, as it
        # would refuse the move itself; nothing is added to the line.
        ana.page.click("#cond-edit")
        ana.click_point(4, 4)
        ana.page.wait_for_selector(".toast:has-text('Ko: you cannot retake immediately.')")
        assert ana.page.query_selector_all("svg.board .anno") == []
        assert ana.page.inner_text("#conditional .cond-line").strip() == ""
        # A move elsewhere and her answer are previewed from the game's position.
        ana.click_point(8, 8)
        ana.click_point(4, 4)
        ana.page.wait_for_function("() => document.querySelectorAll('svg.board .anno').length === 2")
        assert ana.stones()[(4, 4)] == ana.stones()[(4, 3)] and ana.stones()[(8, 8)] == ana.stones()[(5, 3)]
        ana.page.click("#cond-cancel")
        ana.page.wait_for_selector("#cond-edit")
        assert ana.errors == [] and bao.errors == []
    finally:
        ana.close()
        bao.close()


def _header_badge(person: Person, text: str) -> None:
    """Waits for the header's count of games waiting for this person's move ("" when it is hidden at zero)."""
    person.page.wait_for_function(
        """text => { const b = document.querySelector('#turn-badge');
                     return text === '' ? b.hidden : !b.hidden && b.textContent.trim() === text; }""",
        arg=text,
    )


def test_the_header_counts_the_games_waiting_for_the_player_on_every_page(browser: Browser, server: LiveServer) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url)
    try:
        _register(ana), _register(bao)
        ana.open("#/rules")
        _header_badge(ana, "")
        mine = _game(ana, bao, 3)  # Ana is Black: her move
        _header_badge(ana, "1")  # the game's start reaches the rules page at once
        theirs = _game(bao, ana, 3)
        bao.page.goto(f"{server.url}/#/game/{theirs}")
        bao.page.wait_for_selector(f"{bao.board} .pt")
        bao.click_point(4, 4)
        _header_badge(ana, "2")

        # On the lobby the header and the "Your turn" card agree; on a game page the header follows her move.
        ana.page.click("a.brand")
        ana.page.wait_for_function("() => document.querySelector('#your-turn-badge')?.textContent.trim() === '2'")
        _header_badge(ana, "2")
        ana.page.click(f"#your-turn li.item[data-id='{mine}'] a.btn")
        ana.page.wait_for_selector(f"{ana.board} .pt")
        ana.click_point(2, 2)
        _header_badge(ana, "1")
        overflows = {}
        for code in LANGUAGES:
            ana.language(code)
            label = ana.page.get_attribute("#turn-badge", "aria-label") or ""
            assert "1" in label and "nav." not in label, (code, label)
            ana.page.set_viewport_size(PHONE)  # the header still fits a phone with the badge in it
            overflows[code] = ana.page.evaluate(OVERFLOWS)
            ana.page.set_viewport_size(DESKTOP)
        assert {k: v for k, v in overflows.items() if v} == {}
        ana.language("en")
        assert ana.page.get_attribute("#turn-badge", "aria-label") == "Games waiting for your move: 1"
        ana.page.click("#turn-badge")  # the badge leads to the lobby's list
        ana.page.wait_for_function("() => document.querySelector('#your-turn-badge')?.textContent.trim() === '1'")
        assert ana.errors == [] and bao.errors == []
    finally:
        ana.close()
        bao.close()
