"""The analysis board with KataGo (the real engine on 9x9, few visits): the score estimate from its ownership and
score lead, counted by the rules engine under the position's own rules and komi; hints with win rate, score lead
and principal variation; a line with an illegal move refused with the move's number, KataGo never asked."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app
from app.settings import Settings
from tests.engines.questions import until

pytestmark = [pytest.mark.katago, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

SLOW = 120.0


def line(*moves: tuple[str, list[int] | None]) -> list[dict[str, Any]]:
    return [{"color": c, "point": p} for c, p in moves]


@pytest.fixture
async def http(settings: Settings, katago_dir: Path) -> AsyncIterator[httpx.AsyncClient]:
    changes = {"katago": True, "engines_dir": katago_dir, "katago_buffers": [9], "katago_measure_visits": 1}
    application = create_app(settings.model_copy(update=changes))
    async with application.router.lifespan_context(application):
        await until(lambda: application.state.engines.state == "ready", timeout=300)
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=SLOW) as client:
            yield client


def walls() -> list[tuple[str, list[int] | None]]:
    """Black walls off the left (column 3), White the right (column 5); a dead white stone at (1, 1) against two
    black ones, a dead black one at (7, 7) against two white ones."""
    moves: list[tuple[str, list[int] | None]] = []
    for y in range(9):
        moves += [("B", [3, y]), ("W", [5, y])]
    moves += [("B", [1, 2]), ("W", [1, 1]), ("B", [2, 1]), ("W", [7, 6]), ("B", [7, 7]), ("W", [6, 7])]
    return moves


async def test_the_estimate_is_katagos_counted_under_the_positions_rules(http: httpx.AsyncClient) -> None:
    for rules, komi in (("chinese", 7.5), ("japanese", 0.5)):
        setup = {"size": 9, "rules": rules, "komi": komi}
        answer = await http.post("/api/study/estimate", json={"setup": setup, "line": line(*walls())})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["judge"] == "katago"
        assert body["dead"] == [[1, 1], [7, 7]]
        assert isinstance(body["score_lead"], float) and 0 <= body["winrate"] <= 1
        own = body["ownership"]
        assert all(own[y][0] > 0.5 for y in range(9)) and all(own[y][8] < -0.5 for y in range(9))
        assert body["score"]["rules"] == rules and body["score"]["W"]["komi"] == komi


async def test_hints_carry_win_rate_score_lead_and_principal_variation(http: httpx.AsyncClient) -> None:
    answer = await http.post("/api/study/hints", json={"setup": {"size": 9}, "line": line(("B", [4, 4]))})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["engine"] == "katago" and body["to_move"] == "W"
    assert body["moves"], body
    for move in body["moves"]:
        assert 0 <= move["winrate"] <= 1 and isinstance(move["score_lead"], float)
        assert isinstance(move["pv"], list) and move["pv"][0] == move["point"]


async def test_a_line_with_an_illegal_move_is_refused_with_its_number(http: httpx.AsyncClient) -> None:
    illegal = line(("B", [2, 2]), ("W", [3, 3]), ("B", [2, 2]))
    for path in ("/api/study/estimate", "/api/study/hints"):
        answer = await http.post(path, json={"setup": {"size": 9}, "line": illegal})
        assert answer.status_code == 422, answer.text
        error = answer.json()["error"]
        assert error["code"] == "occupied" and "move 3" in error["message"]
