"""``/api/games/{id}/review`` without KataGo: what is answered and refused, each with its own code, through a real
server: on SQLite without an engine nobody can review, and the server says so; on PostgreSQL a request waits
for an analyst, queued once however often it is made."""

from __future__ import annotations

import asyncio

import httpx
import psycopg
import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.ai_review.jobs import ASKED, AUTOMATIC, QUEUE, ReviewQueue, libpq_url
from app.store.repositories import ai_reviews
from tests.conftest import MakeLiveServer
from tests.ratings.rated_play import rated_game, registered
from tests.support.players import Player
from tests.support.reviews import MOVES, finished_game


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_without_an_analyst_a_request_is_refused_and_each_limit_has_its_code(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(ai_review_requests=2)
    black, white = await Player(server.url).visit(), await Player(server.url).visit()
    try:
        game_id = await finished_game(black, white)
        review = (await black.http.get(f"/api/games/{game_id}/review")).json()
        assert review["game_id"] == game_id and review["state"] == "none" and review["depth"] is None
        assert review["progress"] == {"done": 0, "total": len(MOVES) + 1}
        assert review["positions"] == [None] * (len(MOVES) + 1)

        async with httpx.AsyncClient(base_url=server.url) as anonymous:
            refused = await anonymous.post(f"/api/games/{game_id}/review", json={"depth": "quick"})
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "not_authenticated"

        bad = await black.http.post(f"/api/games/{game_id}/review", json={"depth": "deepest"})
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"

        for _ in range(2):
            none = await black.http.post(f"/api/games/{game_id}/review", json={"depth": "quick"})
            assert none.status_code == 503 and none.json()["error"]["code"] == "engine_unavailable", none.text
        limited = await black.http.post(f"/api/games/{game_id}/review", json={"depth": "quick"})
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "review_rate_limited"
        # another user has a count of their own
        assert (await white.http.post(f"/api/games/{game_id}/review", json={})).json()["error"]["code"] == "engine_unavailable"

        # nothing was queued, and the record carries no figures
        assert (await black.http.get(f"/api/games/{game_id}/review")).json()["state"] == "none"
        record = (await black.http.get(f"/api/games/{game_id}/sgf")).text
        assert "SBKV" not in record and "KataGo" not in record
    finally:
        await black.close()
        await white.close()


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_on_postgresql_a_request_waits_for_an_analyst_queued_once(
    make_live_server: MakeLiveServer, database_url: str
) -> None:
    servers = [make_live_server(), make_live_server()]
    black, white = await Player(servers[0].url).visit(), await Player(servers[0].url).visit()
    try:
        game_id = await finished_game(black, white)
        for server in servers * 2:
            asked = await black.http.post(f"{server.url}/api/games/{game_id}/review", json={"depth": "quick"})
            assert asked.status_code == 200 and asked.json()["state"] == "queued", asked.text
        deep = await white.http.post(f"{servers[1].url}/api/games/{game_id}/review", json={"depth": "deep"})
        assert deep.json()["state"] == "queued" and deep.json()["depth"] == "deep"
        async with await psycopg.AsyncConnection.connect(libpq_url(database_url)) as connection:
            rows = await connection.execute("SELECT queueing_lock, priority FROM procrastinate_jobs WHERE status = 'todo'")
            jobs = sorted(await rows.fetchall())
        assert jobs == [(f"ai_review:{game_id}:deep", 10), (f"ai_review:{game_id}:quick", 10)]
    finally:
        await black.close()
        await white.close()


async def _jobs(database_url: str) -> list[tuple[str, int, str]]:
    async with await psycopg.AsyncConnection.connect(libpq_url(database_url)) as connection:
        rows = await connection.execute("SELECT queueing_lock, priority, status FROM procrastinate_jobs ORDER BY id")
        return list(await rows.fetchall())


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_asking_for_an_automatic_review_that_waits_raises_its_priority(
    make_live_server: MakeLiveServer, database_url: str, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """A rated game's review waits at the lowest priority (no analyst runs here); a player asking for it moves it to
    the asked priority: the waiting job cancelled and deferred again under the same queueing lock, once."""
    server = make_live_server()
    black, white = await registered(server.url), await registered(server.url)
    try:
        game_id = await rated_game(black, white, winner="W")
        lock = f"ai_review:{game_id}:quick"
        for _ in range(100):  # queued as the game ends, beside it
            if await _jobs(database_url):
                break
            await asyncio.sleep(0.1)
        assert await _jobs(database_url) == [(lock, AUTOMATIC, "todo")]
        assert (await black.http.get(f"/api/games/{game_id}/review")).json()["state"] == "queued"

        asked = await black.http.post(f"/api/games/{game_id}/review", json={"depth": "quick"})
        assert asked.status_code == 200 and asked.json()["state"] == "queued", asked.text
        assert await _jobs(database_url) == [(lock, AUTOMATIC, "cancelled"), (lock, ASKED, "todo")]
        async with db_sessionmaker() as session:
            row = await ai_reviews.get(session, game_id)
            assert row is not None and not row.automatic
        # asked again (by the other player): nothing more to raise, nothing queued twice
        again = await white.http.post(f"/api/games/{game_id}/review", json={"depth": "quick"})
        assert again.status_code == 200, again.text
        assert await _jobs(database_url) == [(lock, AUTOMATIC, "cancelled"), (lock, ASKED, "todo")]
    finally:
        await black.close()
        await white.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_embedded_queue_raises_an_automatic_job_once(database_url: str) -> None:
    """The same on procrastinate's in-memory connector (SQLite's embedded queue), through ReviewQueue itself."""
    queue = ReviewQueue(database_url, async_sessionmaker())
    try:
        await queue.defer("g1", "quick", automatic=True)
        await queue.defer("g1", "quick", automatic=True)  # a second automatic request: still the one job
        await queue.defer("g2", "quick", automatic=True)
        await queue.defer("g1", "quick")
        await queue.defer("g1", "quick")
        jobs = await queue.app.job_manager.list_jobs_async(queue=QUEUE)
        seen = sorted((job.queueing_lock or "", job.priority, job.status) for job in jobs)
        assert seen == [
            ("ai_review:g1:quick", AUTOMATIC, "cancelled"),
            ("ai_review:g1:quick", ASKED, "todo"),
            ("ai_review:g2:quick", AUTOMATIC, "todo"),
        ]
    finally:
        await queue.close()
