"""``/api/games/{id}/review`` without KataGo: what is answered and refused, each with its own code, through a real
server: on SQLite without an engine nobody can review, and the server says so; on PostgreSQL a request waits
for an analyst, queued once however often it is made."""

from __future__ import annotations

import httpx
import psycopg
import pytest

from app.ai_review.jobs import libpq_url
from tests.conftest import MakeLiveServer
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
