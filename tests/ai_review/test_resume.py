"""A review survives a restart and is never computed twice: the real KataGo on 9x9 (two visits a position), a
server stopped in the middle of a review and started again, and two instances on PostgreSQL and Redis both asked
for the same review."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.settings import Settings
from app.store.repositories import ai_reviews
from tests.conftest import LiveServer
from tests.support.room_fixtures import MakePlayer, Servers
from tests.support.room_fixtures import make_player, server, servers  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import Player, start_game
from tests.support.server_process import REPO_ROOT, stop

pytestmark = [pytest.mark.katago]

# 20 moves without a capture: Black down column 2, White down column 6, one more stone each
MOVES = [point for y in range(9) for point in ((2, y), (6, y))] + [(1, 4), (7, 4)]
TOTAL = len(MOVES) + 1
WAIT = 300.0


async def finished_game(make_player: MakePlayer, base_url: str | None = None) -> tuple[str, Player]:
    black, white = await make_player(base_url), await make_player(base_url)
    game_id = await start_game(black, white)
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    for n, point in enumerate(MOVES):
        assert (await (b if n % 2 == 0 else w).act({"t": "play", "p": list(point)}))["t"] == "ack"
        await asyncio.sleep(0.1)  # within each socket's message rate
    assert (await b.act({"t": "resign"}))["t"] == "ack"
    await b.close()
    await w.close()
    return game_id, black


async def review_of(db: async_sessionmaker[AsyncSession], game_id: str) -> Any:
    async with db() as session:
        return await ai_reviews.get(session, game_id)


async def until_done(player: Player, game_id: str, base_url: str) -> dict[str, Any]:
    for _ in range(int(WAIT * 4)):
        review = (await player.http.get(f"{base_url}/api/games/{game_id}/review")).json()
        if review["state"] in ("done", "failed"):
            return review
        await asyncio.sleep(0.25)
    raise AssertionError(f"not done: {review['state']} {review['progress']}")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_review_resumes_after_a_restart_without_computing_a_position_again(
    make_player: MakePlayer, server: LiveServer, servers: Servers, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    game_id, black = await finished_game(make_player)
    watcher = await black.socket(game_id)
    asked = await black.http.post(f"/api/games/{game_id}/review", json={"depth": "quick"})
    assert asked.status_code == 200, asked.text
    await watcher.until(lambda m: m.get("t") == "ai_review" and 0 < m["progress"]["done"], timeout=WAIT)
    server.stop()  # in the middle of the review
    before = await review_of(db_sessionmaker, game_id)
    assert before.state == "running" and 0 < before.evaluations < TOTAL, (before.state, before.evaluations)
    first = server.app.state.analyst.evaluations

    again = servers.start()
    review = await until_done(black, game_id, again.url)
    assert review["state"] == "done" and review["progress"] == {"done": TOTAL, "total": TOTAL}
    assert all(figure is not None for figure in review["positions"])
    # each position computed once in all: the second server computed only what the first had not stored
    assert again.app.state.analyst.evaluations == TOTAL - before.evaluations
    assert first + again.app.state.analyst.evaluations <= TOTAL + 1  # at most the one in flight at the stop, lost
    assert (await review_of(db_sessionmaker, game_id)).evaluations == TOTAL


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True, ids=["postgres+redis"])
async def test_two_instances_asked_for_one_review_compute_it_once(
    make_player: MakePlayer, server: LiveServer, servers: Servers, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    other = servers.start()
    game_id, black = await finished_game(make_player)
    watcher = await black.socket(game_id, base_url=other.url)
    asked = await asyncio.gather(
        black.http.post(f"{server.url}/api/games/{game_id}/review", json={"depth": "quick"}),
        black.http.post(f"{other.url}/api/games/{game_id}/review", json={"depth": "quick"}),
    )
    assert all(response.status_code == 200 for response in asked), [response.text for response in asked]
    done = await watcher.until(lambda m: m.get("t") == "ai_review" and m["state"] == "done", timeout=WAIT)
    assert done["progress"] == {"done": TOTAL, "total": TOTAL}
    review = await until_done(black, game_id, server.url)
    assert all(figure is not None for figure in review["positions"])
    computed = server.app.state.analyst.evaluations + other.app.state.analyst.evaluations
    assert computed == TOTAL
    assert (await review_of(db_sessionmaker, game_id)).evaluations == TOTAL


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True, ids=["postgres+redis"])
async def test_tengen_analyst_on_its_own_works_the_queue_of_servers_without_one(stack_settings: Settings, tmp_path: Path) -> None:
    quiet = Servers(stack_settings.model_copy(update={"ai_review_worker": False}))
    people: list[Player] = []

    async def make(base_url: str | None = None) -> Player:
        people.append(await Player(base_url or web.url).visit())
        return people[-1]

    try:
        web = quiet.start()
        assert web.app.state.analyst is None
        game_id, black = await finished_game(make)
        watcher = await black.socket(game_id)
        asked = await black.http.post(f"/api/games/{game_id}/review", json={"depth": "quick"})
        assert asked.status_code == 200 and asked.json()["state"] == "queued", asked.text

        env = {
            **os.environ,
            "TENGEN_ENV": "test",
            "TENGEN_DATABASE_URL": stack_settings.database_url,
            "TENGEN_REDIS_URL": stack_settings.redis_url,
            "TENGEN_REDIS_PREFIX": stack_settings.redis_prefix,
            "TENGEN_KATAGO": "true",
            "TENGEN_ENGINES_DIR": str(stack_settings.engines_dir),
            "TENGEN_KATAGO_BUFFERS": "[9]",
            "TENGEN_KATAGO_MEASURE_VISITS": "1",
            "TENGEN_AI_REVIEW_QUICK_SECONDS": "0",
        }
        log_path = tmp_path / "analyst.log"
        with open(log_path, "wb") as log:
            analyst = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "analyst"], cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        try:
            done = await watcher.until(lambda m: m.get("t") == "ai_review" and m["state"] == "done", timeout=WAIT)
        finally:
            stop(analyst, grace=30)
        assert done["progress"] == {"done": TOTAL, "total": TOTAL}, log_path.read_text()
        assert analyst.returncode == 0, log_path.read_text()[-2000:]
    finally:
        for person in people:
            await person.close()
        quiet.stop_all()
