"""Two real server processes on one PostgreSQL and one Redis, both running the tournament scheduler many times a
second: each round is paired once and its games start exactly once (one game per board, one board per player),
whichever instance claims each step, and a result recorded through one instance is seen through the other."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from app.store.db import create_engine, create_sessionmaker
from app.store.models import Game, TournamentPairing, TournamentSeat
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.tournaments.runtime import create, registered, round_status, wait_for

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(240)]


async def _counts(database_url: str, tournament_id: str) -> tuple[int, int, int]:
    """(games in the database, boards of the event with a game, seats of the event)."""
    engine = create_engine(database_url)
    try:
        async with create_sessionmaker(engine)() as session:
            games = (await session.execute(select(func.count()).select_from(Game))).scalar_one()
            boards = (
                await session.execute(
                    select(func.count()).where(
                        TournamentPairing.tournament_id == tournament_id, TournamentPairing.game_id.is_not(None)
                    )
                )
            ).scalar_one()
            seats = (
                await session.execute(select(func.count()).where(TournamentSeat.tournament_id == tournament_id))
            ).scalar_one()
            return games, boards, seats
    finally:
        await engine.dispose()


async def test_two_instances_start_a_rounds_games_exactly_once(cluster: Instances, database_url: str) -> None:
    cluster.env["TENGEN_TOURNAMENT_TICK_SECONDS"] = "0.05"
    a, b = cluster.start(2)
    director = await registered(a.url, prefix="td")
    players = [await registered((a, b)[n % 2].url) for n in range(9)]
    try:
        event = await create(
            director, starts_in=5, rounds=2, max_players=16, schedule={"round_seconds": 4, "deadline_seconds": 3}
        )
        tid = event["id"]
        for p in players:
            joined = await p.http.post(f"/api/tournaments/{tid}/register")
            assert joined.status_code == 200, joined.text
        page = await wait_for(director, tid, round_status(1, "started"))
        first = page["rounds"][0]
        assert len(first["boards"]) == 4 and [bye["kind"] for bye in first["byes"]] == ["bye"]
        assert await _counts(database_url, tid) == (4, 4, 9)

        # A result through instance B, seen through A; round 2 starts at its time on whichever instance, its games
        # once, though round 1's other games are still on (the round does not wait for them).
        board = first["boards"][0]
        loser = next(p for p in players if p.user["id"] == board["black"]["id"])
        sock = await loser.socket(board["game_id"], base_url=b.url)
        await sock.of_type("snapshot")
        assert (await sock.act({"t": "resign"}))["t"] == "ack"
        await sock.close()
        await wait_for(director, tid, lambda pg: pg["rounds"][0]["boards"][0]["outcome"] == "W")
        page = await wait_for(director, tid, round_status(2, "started"))
        second = page["rounds"][1]
        assert len(second["boards"]) == 4 and len(second["byes"]) == 1
        assert second["byes"][0]["player"]["id"] != first["byes"][0]["player"]["id"]  # never a second bye first
        assert await _counts(database_url, tid) == (8, 8, 18)
        # Round 1's unfinished games are past their deadline: the director sees them with the estimate's link.
        page = await wait_for(director, tid, lambda pg: any(o["round"] == 1 for o in pg.get("overdue", [])))
        overdue = [o for o in page["overdue"] if o["round"] == 1]
        assert sorted(o["game_id"] for o in overdue) == sorted(bd["game_id"] for bd in first["boards"][1:])
        assert all(o["estimate"] == f"/api/games/{o['game_id']}/estimate" for o in overdue)
    finally:
        for p in (director, *players):
            await p.close()
