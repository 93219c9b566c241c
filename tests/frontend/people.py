"""People in a browser against the real server: each a Chromium context (its own cookies, so its own guest)
with one page, and the steps the browser tests share (open a page, start a game, click, read the board)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Dialog, ViewportSize


ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 375, "height": 740}
LANGUAGES = ("en", "zh", "vi", "es", "ja", "ko")
# Every page with the header, as routes to fill with a_game_and_a_review()'s ids and name. Joining a shared
# review makes an anonymous visitor a guest (its people are listed by name): it comes last.
PAGES = (
    "#/",
    "#/game/{game}",
    "#/players/{player}",
    "#/analysis",
    "#/analysis/game/{game}",
    "#/reviews",
    "#/settings",
    "#/leaderboard",
    "#/tournaments",
    "#/games",
    "#/rules",
    "#/moderation",
    "#/reviews/{review}",
)
# An init script: the page's notifications are recorded in window.__notes instead of shown, and whether the
# tab is hidden is window.__hidden (false at first).
RECORDED_NOTIFICATIONS = """
    window.__notes = [];
    window.__hidden = false;
    Object.defineProperty(Document.prototype, 'visibilityState', {get() { return window.__hidden ? 'hidden' : 'visible'; }});
    Object.defineProperty(Document.prototype, 'hidden', {get() { return window.__hidden; }});
    const Real = window.Notification;
    class Recording extends EventTarget {
        constructor(title, options) { super(); window.__notes.push({title, body: options && options.body}); }
        close() {}
        static get permission() { return Real.permission; }
        static requestPermission() { return Real.requestPermission(); }
    }
    window.Notification = Recording;
"""


class Person:
    """One browser context (its own cookies, so its own guest account) with one page."""

    def __init__(self, browser: Browser, base_url: str, viewport: ViewportSize | None = None, **context: Any) -> None:
        context.setdefault("locale", "en-US")
        self.context = browser.new_context(viewport=viewport or DESKTOP, device_scale_factor=1, **context)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("dialog", self._dismiss)
        self.page.set_default_timeout(20_000)  # generous: CI machines are busy
        self.base_url = base_url
        self.board = "svg.board"  # the rules page also has small diagram boards

    def _dismiss(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def shown_text(self, selector: str) -> str:
        """The text of the first element ``selector`` matches, once it is visible."""
        element = self.page.wait_for_selector(selector)
        assert element is not None  # only a wait for a hidden or detached element gives None
        return element.inner_text()

    def open(self, route: str = "#/") -> None:
        """Goes to ``route`` and waits for its page: the shell mounts a page once it knows who is visiting."""
        self.page.goto(f"{self.base_url}/{route}")
        self.page.wait_for_selector("#main > *")

    def load(self, route: str) -> None:
        """A first load of ``route`` (a new document, not a hash change), once its requests have settled."""
        self.page.goto("about:blank")
        self.page.goto(f"{self.base_url}/{route}", wait_until="networkidle")
        self.page.wait_for_selector("#main > *")

    def register(self, prefix: str = "p") -> str:
        """Registers an account in this browser (a new one, named ``prefix`` and random letters) and reloads the
        page so that it knows; returns the name."""
        name = prefix + uuid.uuid4().hex[: 20 - len(prefix)]
        self.api("POST", "/api/auth/register", {"username": name, "password": "s3cret-Tengen-" + uuid.uuid4().hex})
        self.page.reload()
        self.page.wait_for_selector(".user-name")
        return name

    def language(self, code: str) -> None:
        """Chooses the language in the header (on a phone, in the header's menu, closed again after)."""
        toggle = self.page.locator("header.topbar .menu-toggle")
        through_menu = toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true"
        if through_menu:
            toggle.click()
        self.page.select_option("#lang", code)
        if through_menu:
            toggle.click()

    def follow(self, href: str) -> None:
        """Clicks the header's link to ``href`` (on a narrow screen, in the header's menu: opened first)."""
        toggle = self.page.locator("header.topbar .menu-toggle")
        if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
        self.page.click(f"header.topbar nav a[href='{href}']")

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """A request from the page itself (same origin, same session cookie); raises on an error status."""
        out = self.page.evaluate(
            """async ([method, path, body]) => {
                const init = {method, credentials: 'same-origin', headers: {'Content-Type': 'application/json'}};
                if (body !== null) init.body = JSON.stringify(body);
                const r = await fetch(path, init);
                return {status: r.status, text: await r.text()};
            }""",
            [method, path, body],
        )
        assert out["status"] < 400, out
        return json.loads(out["text"]) if out["text"] else None

    def stones(self) -> dict[tuple[int, int], str]:
        cells = self.page.eval_on_selector_all(
            f"{self.board} .stone", "els => els.map(e => [+e.dataset.x, +e.dataset.y, e.dataset.color])"
        )
        return {(x, y): c for x, y, c in cells}

    def dead(self) -> set[tuple[int, int]]:
        cells = self.page.eval_on_selector_all(f"{self.board} .stone.dead", "els => els.map(e => [+e.dataset.x, +e.dataset.y])")
        return {(x, y) for x, y in cells}

    def wait_stones(self, count: int) -> None:
        self.page.wait_for_function(f"() => document.querySelectorAll('{self.board} .stone').length === {count}")

    def wait_moves(self, count: int) -> None:
        self.page.wait_for_function(f"() => document.querySelectorAll('.move-list .mv').length === {count}")

    def click_point(self, x: int, y: int) -> None:
        self.page.locator(f'{self.board} .pt[data-x="{x}"][data-y="{y}"]').click()

    def confirm(self, action: str) -> None:
        self.page.click(f"button[data-action={action}]")
        self.page.click("dialog button[value=ok]")

    def shot(self, name: str, viewport: ViewportSize) -> None:
        self.page.set_viewport_size(viewport)
        self.page.evaluate("document.querySelectorAll('.toast').forEach((el) => el.remove())")
        self.page.wait_for_timeout(150)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=True)

    def close(self) -> None:
        self.context.close()


@contextmanager
def two_people(browser: Browser, base_url: str, viewport: ViewportSize | None = None) -> Iterator[tuple[Person, Person]]:
    """Ana and Bao, each in a context of their own with the home page open; both closed afterwards."""
    ana, bao = Person(browser, base_url, viewport), Person(browser, base_url, viewport)
    try:
        ana.open()
        bao.open()
        yield ana, bao
    finally:
        ana.close()
        bao.close()


def start_game(black: Person, white: Person, **spec: Any) -> str:
    """``black`` offers a challenge as Black, ``white`` accepts it; both are on the game page. Returns its id."""
    body = {"board_size": 9, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}, **spec}
    challenge = black.api("POST", "/api/challenges", body)
    accepted = white.api("POST", f"/api/challenges/{challenge['id']}/accept", {})
    game_id = accepted.get("game_id") or accepted["game"]["id"]
    for person in (black, white):
        person.page.goto(f"{person.base_url}/#/game/{game_id}")
        person.page.wait_for_selector(f"{person.board} .pt")
    return str(game_id)


def a_game_and_a_review(black: Person, white: Person) -> dict[str, str]:
    """A game in progress between ``black`` and ``white`` (guests once they act), and a review ``black`` made of
    an SGF record: their ids and black's name, for PAGES."""
    challenge = black.api("POST", "/api/challenges", {"board_size": 9, "color": "black", "time_control": {"kind": "none"}})
    accepted = white.api("POST", f"/api/challenges/{challenge['id']}/accept", {})
    review = black.api("POST", "/api/reviews", {"sgf": "(;GM[1]FF[4]SZ[9];B[ee];W[cc])", "title": "A short game"})
    return {
        "game": str(accepted.get("game_id") or accepted["game"]["id"]),
        "review": str(review["id"]),
        "player": black.api("GET", "/api/me")["name"],
    }


def game_id_of(person: Person) -> str:
    match = re.search(r"#/game/([\w-]+)$", person.page.url)
    assert match, person.page.url
    return match.group(1)
