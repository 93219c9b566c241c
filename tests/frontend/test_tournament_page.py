"""The tournament pages in Chromium against the real server: a director makes an event through the form (a
refusal shown in words first), two players register from the event's page, the scheduler pairs the round and
the page shows it live (tournament_changed): the board with the why in words, the standings with their
tie-breaks and definitions, the crosstable; the director sets a result with a reason and the audit log says so."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from app.settings import Settings
from tests.conftest import LiveServer
from tests.frontend.people import ARTIFACTS, ROOT, Person

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240), pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

# The browser's local time, so many seconds from now, as a datetime-local input takes it (seconds included).
LOCAL_IN = """(seconds) => {
    const d = new Date(Date.now() + seconds * 1000);
    const p = (n) => String(n).padStart(2, '0');
    const day = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
    return `${day}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}"""


@pytest.fixture
def server(settings: Settings) -> Iterator[LiveServer]:
    """The real server with the tournament scheduler looking five times a second."""
    update = {"frontend_dir": ROOT / "frontend", "tournament_tick_seconds": 0.2}
    with LiveServer(settings.model_copy(update=update)) as live:
        yield live


def _fill_form(director: Person, name: str, starts_in: float) -> None:
    page = director.page
    page.fill("#tournament-form input[name=name]", name)
    page.select_option("#tournament-form select[name=format]", "swiss")
    page.fill("#tournament-form input[name=rounds]", "2")
    page.select_option("#tournament-form select[name=board_size]", "9")
    page.select_option("#tournament-form select[name=time]", "blitz")
    page.fill("#tournament-form input[name=first_round_at]", page.evaluate(LOCAL_IN, starts_in))
    page.fill("#tournament-form input[name=round_minutes]", "60")
    page.fill("#tournament-form input[name=lead_minutes]", "0.1")  # paired 6 s before it starts
    page.fill("#tournament-form input[name=deadline_minutes]", "50")


def test_a_director_makes_an_event_two_players_register_and_the_page_shows_pairings_and_standings(
    browser: Browser, server: LiveServer
) -> None:
    director, ana, bao = (Person(browser, server.url) for _ in range(3))
    try:
        for person in (director, ana, bao):
            person.open()
        director.register("td")
        ana_name, bao_name = ana.register("ana"), bao.register("bao")

        director.follow("#/tournaments")
        director.page.wait_for_selector(".tournament-group[data-group=registration]")
        director.page.click("#tournament-new")
        # A first round in the past is refused, and the refusal is shown in words beside the form.
        _fill_form(director, "Thursday club", -120)
        director.page.click("#tournament-form button[type=submit]")
        refusal = director.page.wait_for_selector("#tournament-form .form-error:not([hidden])")
        assert refusal is not None
        assert refusal.get_attribute("data-code") == "start_in_past"
        assert refusal.inner_text() == "The first round must start in the future."

        _fill_form(director, "Thursday club", 45)
        director.page.click("#tournament-form button[type=submit]")
        director.page.wait_for_url("**/#/tournaments/*")
        event_id = director.page.url.rsplit("/", 1)[1]
        director.page.wait_for_selector(".tournament-head h1 >> text=Thursday club")
        assert "Swiss" in director.shown_text(".tournament-rules")
        assert director.page.inner_text(".tournament-rules dt:text-is('Rounds') + dd") == "2"
        # The director is not registered: the register button is there; check-in is refused with the reason.
        assert director.page.get_attribute("#tournament-checkin", "data-refusal") == "not_registered"

        for player in (ana, bao):
            player.open(f"#/tournaments/{event_id}")
            player.page.click("#tournament-register:not([disabled])")
            player.page.wait_for_selector("#tournament-withdraw")
        # The director's page, never reloaded, hears each registration and then the pairing.
        director.page.wait_for_selector(f".tournament-entrants >> text={bao_name}")
        board = director.page.wait_for_selector(".tournament-round[data-round='1'] .tournament-board", timeout=90_000)
        assert board is not None
        row = board.inner_text()
        assert ana_name in row and bao_name in row
        assert "Paired by score" in row and "both have the same score" in row
        standings = director.shown_text(".tournament-standings")
        assert ana_name in standings and bao_name in standings
        assert "SOS" in standings and "Sum of Opponents' Scores" in standings
        crosstable = director.shown_text(".tournament-crosstable")
        assert ana_name in crosstable and bao_name in crosstable
        assert director.page.locator(".crosstable thead th").count() == 2 + 2  # place, name, a column per round

        # Once the round has started, the director sets the board's result with a reason.
        director.page.wait_for_selector(".tournament-round[data-round='1'] .board-game", timeout=90_000)
        black = director.page.inner_text(".tournament-round[data-round='1'] .tournament-board td:nth-child(2)")
        director.page.fill(".director-reason", "both agreed")
        director.page.select_option(".tournament-board .result-pick", "B")
        director.page.click(".tournament-board button:has-text('Set')")
        director.page.wait_for_selector(".tournament-board .outcome >> text=Black wins")
        leader = director.page.wait_for_selector(".standings tbody tr:first-child")
        assert leader is not None
        assert leader.get_attribute("data-player") == black.split()[0]
        assert leader.inner_text().split("\t")[3] == "1"
        assert "set a result" in director.shown_text(".tournament-audit")
        # The players see it too, in their own language.
        ana.page.wait_for_selector(".tournament-board .outcome >> text=Black wins")
        ana.language("ja")
        ana.page.wait_for_selector(".tournament-board .outcome >> text=黒勝ち")
        assert "同じ得点同士" in ana.shown_text(".tournament-round[data-round='1'] .why")
        # Pausing needs a reason; the page says the event is paused, and the audit log has it.
        director.page.fill(".director-reason", "")
        director.page.click("#tournament-pause")
        director.page.wait_for_selector(".toast >> text=Give a reason first.")
        director.page.fill(".director-reason", "power cut at the club")
        director.page.click("#tournament-pause")
        director.page.wait_for_selector(".tournament-status[data-status=paused]")
        assert "power cut at the club" in director.shown_text(".tournament-audit")
        # Withdrawing asks first; confirmed, the player's button becomes "Register" again.
        bao.page.click("#tournament-withdraw")
        bao.page.click("dialog[open] button[value=ok]")
        bao.page.wait_for_selector("#tournament-register")
        director.page.wait_for_selector(".entrant-list li[data-status=withdrawn]")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        director.page.screenshot(path=str(ARTIFACTS / "tournament-director.png"), full_page=True)
        # Nobody's page threw.
        assert director.errors == [] and ana.errors == [] and bao.errors == []
    finally:
        for person in (director, ana, bao):
            person.close()
