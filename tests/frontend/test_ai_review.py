"""The AI review on the game page after the end and in a shared review made from the game (docs/review.md), in
Chromium against the real server: the game, its socket and the shared review are real; the review's answers
(GET/POST /api/games/{id}/review) and the game socket's ai_review message are given by the browser's network
layer from hand-built raw figures, and the derived figures are app/ai_review/figures.py's own."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest

from app.ai_review.figures import derive
from app.rules import from_gtp
from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, Person, game_id_of, start_game

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Route, WebSocketRoute

pytestmark = [pytest.mark.browser, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

SIZE = 9
MOVES = ["C3", "G7", "C4", "G6", "D4", "F7"]  # Black's move 5 (D4) is the blunder, White's move 2 an inaccuracy
LEADS = [0.5, 0.8, 4.0, 3.8, 0.3, -12.0, -11.5]


def _point(label: str) -> list[int]:
    x, y = from_gtp(label, SIZE)
    return [x, y]


def _flat(value: float) -> list[list[float]]:
    return [[value] * SIZE for _ in range(SIZE)]


def raw_figures() -> list[dict[str, Any]]:
    """Positions 0..6: Black's lead, win rate, ownership and candidates, as the backend stores them."""
    better = _flat(0.0)
    played = _flat(0.0)
    for x in range(SIZE):
        better[0][x] = played[0][x] = -0.9  # the top edge, White's either way
    for label in ("C3", "C4", "D4", "D3"):  # Black's group and its eye: dead after D4, alive after D3
        x, y = from_gtp(label, SIZE)
        better[y][x], played[y][x] = 0.9, -0.8
    out = []
    for i, lead in enumerate(LEADS):
        best = [{"point": _point("E5"), "winrate": 0.5, "score_lead": lead, "visits": 4, "pv": [_point("E5")], "ownership": None}]
        if i == 4:
            best = [
                {
                    "point": _point("D3"),
                    "winrate": 0.6,
                    "score_lead": 0.5,
                    "visits": 8,
                    "pv": [_point("D3"), _point("E3")],
                    "ownership": better,
                }
            ]
        out.append(
            {
                "i": i,
                "depth": "quick",
                "visits": 8,
                "winrate": 0.5 + lead / 40,
                "score_lead": lead,
                "ownership": played if i == 5 else _flat(0.0),
                "best": best,
            }
        )
    return out


def answer(state: str, done: int, positions: list[dict[str, Any] | None], depth: str | None = "quick") -> dict[str, Any]:
    moves = [("B" if n % 2 == 0 else "W", _point(label)) for n, label in enumerate(MOVES)]
    derived = derive(SIZE, moves, positions)
    return {"state": state, "depth": depth, "progress": {"done": done, "total": len(LEADS)}, "positions": positions, **derived}


class FakeReview:
    """The review API of one game in a page's network layer: the answer it gives now, the requests it had."""

    def __init__(self, person: Person, game_id: str | None = None) -> None:
        self.current: dict[str, Any] = {"error": {"code": "review_game_live", "message": "in progress"}}
        self.status = 409
        self.gets = 0
        self.posts: list[dict[str, Any]] = []
        person.page.route(re.compile(r".*/api/games/[\w-]+/review$"), self.handle)

    def handle(self, route: Route) -> None:
        if route.request.method == "POST":
            self.posts.append(json.loads(route.request.post_data or "{}"))
            route.fulfill(status=202, content_type="application/json", body=json.dumps({"state": "queued"}))
            return
        self.gets += 1
        route.fulfill(status=self.status, content_type="application/json", body=json.dumps(self.current))

    def serve(self, body: dict[str, Any]) -> None:
        self.current, self.status = body, 200


def test_the_game_pages_ai_review_live_progress_graph_mistakes_line_ownership_and_words(
    browser: Browser, server: LiveServer
) -> None:
    ana, bao = Person(browser, server.url), Person(browser, server.url)
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:  # the real game socket, with a way to add the server's ai_review
        ws.connect_to_server()
        sockets.append(ws)

    try:
        for person in (ana, bao):
            person.open()
        ana.page.route_web_socket(re.compile(r".*/ws/games/.*"), through)
        fake = FakeReview(ana)
        game_id = start_game(ana, bao)
        for n, label in enumerate(MOVES):
            mover, other = (ana, bao) if n % 2 == 0 else (bao, ana)
            mover.click_point(*from_gtp(label, SIZE))
            other.wait_moves(n + 1)
        assert ana.page.locator(".ai-review").is_hidden()
        assert fake.gets == 0  # nobody asks for the engine's view of a game in progress
        raw = raw_figures()
        fake.serve(answer("running", 3, [*raw[:3], None, None, None, None]))
        bao.confirm("resign")

        # the review runs: the progress from GET, then the socket's batch of positions ending it
        ana.page.wait_for_selector(".ai-review[data-state=running] progress.ai-progress:not([hidden])")
        assert ana.page.locator("progress.ai-progress").get_attribute("value") == "3"
        assert "3 of 7 positions" in ana.shown_text(".ai-status")
        done = answer("done", 7, list(raw))
        fake.serve(done)
        sockets[-1].send(
            json.dumps(
                {
                    "t": "ai_review",
                    "game_id": game_id,
                    "state": "done",
                    "depth": "quick",
                    "progress": {"done": 7, "total": 7},
                    "positions": {str(i): raw[i] for i in range(3, 7)},
                }
            )
        )
        ana.page.wait_for_selector(".ai-review[data-state=done] .ai-summary-table")
        accuracy = ana.shown_text('.ai-summary-table .accuracy td[data-color="B"]')
        assert accuracy == f"{done['summary']['B']['accuracy']}%"
        assert ana.page.locator("progress.ai-progress").is_hidden()

        # the score lead graph by default, the win rate on the switch
        assert ana.page.locator(".ai-graph.score polyline").count() == 1
        ana.page.click(".graph-tabs [data-metric=winrate]")
        ana.page.wait_for_selector(".ai-graph.winrate")

        # each player's mistakes; one jumps to its move and says what changed hands, on the board
        assert ana.page.locator('.ai-mistake-col[data-color="B"] .ai-mistake').all_inner_texts() == ["5. D4 −12.3"]
        assert ana.page.locator('.ai-mistake-col[data-color="W"] .ai-mistake').all_inner_texts() == ["2. G7 −3.2"]
        assert ana.page.get_attribute('.ai-mistake[data-move="5"]', "aria-label") == "5. D4 −12.3 (Blunder)"
        ana.page.click('.ai-mistake[data-move="5"]')
        ana.page.wait_for_selector('.ai-mistake.current[data-move="5"]')
        assert ana.shown_text(".ai-caption .ai-hands") == "The Black group at C4 (3 stones) died"
        assert ana.page.locator("svg.board .anno.square").count() == 4
        assert "Move 5 lost 12.3 points: Blunder" in ana.shown_text(".ai-detail")
        ana.shot("ai-review-desktop.png", DESKTOP)

        # n / p: the previous and the next mistake
        ana.page.locator("body").press("p")
        ana.page.wait_for_selector('.ai-mistake.current[data-move="2"]')
        ana.page.locator("body").press("n")
        ana.page.wait_for_selector('.ai-mistake.current[data-move="5"]')

        # the better move and its line, step by step, on the position before the mistake
        ana.page.click("[data-action=show-better]")
        ana.page.wait_for_function("() => document.querySelectorAll('svg.board .anno.hint').length === 1")
        assert ana.stones().get((3, 5)) is None  # D4 not played yet: the board is at move 4
        ana.page.click("[data-action=line-next]")
        ana.page.wait_for_function("() => document.querySelectorAll('svg.board .anno.hint').length === 2")
        assert ana.shown_text(".ai-caption .ai-line-words") == "Instead of move 5: D3 E3"
        ana.page.click("[data-action=line-close]")
        ana.page.wait_for_selector(".ai-caption .ai-hands")

        # the ownership overlay of the position shown: the nine points of the top edge and the empty D3
        ana.page.check("input[name=ai-ownership]")
        ana.page.wait_for_function("() => document.querySelectorAll('svg.board .terr').length === 10")
        assert ana.page.locator("svg.board .terr.white").count() == 10
        ana.page.uncheck("input[name=ai-ownership]")
        ana.page.wait_for_function("() => document.querySelectorAll('svg.board .terr').length === 0")

        # a deeper review is asked for; the words follow the reader's language
        ana.page.click("[data-action=ai-review-deep]")
        ana.page.wait_for_function("() => document.querySelector('.ai-review') !== null")
        assert fake.posts == [{"depth": "deep"}]
        ana.language("ja")
        ana.page.wait_for_function(
            "() => document.querySelector('.ai-caption .ai-hands').textContent === 'C4 の黒の石（3 子）が死にました'"
        )
        assert ana.errors == [] and bao.errors == []

        # a shared review made from the game shows the game's AI review; its leader's jumps move the board
        FakeReview(bao).serve(done)
        bao.open(f"#/game/{game_id}")
        bao.page.click("button[data-action=start-review]")
        bao.page.wait_for_url(re.compile(r"#/reviews/\w+$"))
        bao.page.wait_for_selector(".review[data-leading=true] .ai-review .ai-summary-table")
        bao.page.click('.ai-mistake[data-move="5"]')
        assert bao.shown_text(".ai-caption .ai-hands") == "The Black group at C4 (3 stones) died"
        assert game_id_of(ana) == game_id and bao.errors == []
    finally:
        ana.close()
        bao.close()
