"""Exactly once on the shared stack: two real server processes on one PostgreSQL and one Redis.

Both instances rate the games that end on them and sweep every 0.2 s for games still waiting, so every game is
offered to the rating update several times, concurrently; one player's games end at the same moment on both
instances. Each game must count once, each update starting from the figures the previous one left; a rebuild
from the games gives the same figures; an instance started after the update was lost makes it at start.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import delete, func, select

from app.ratings import service
from app.ratings.glicko2 import Outcome, Rating, update
from app.ratings.handicap import black_advantage_points
from app.store.db import create_engine, create_sessionmaker
from app.store.models import PlayerRating, RatingChange, RatingUpdate
from app.store.repositories import ratings as repo
from tests.ratings.rated_play import profile, rated_game, registered, wait_games
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(180)]


async def test_games_ending_together_on_two_instances_count_once_each(cluster: Instances, database_url: str) -> None:
    cluster.env["TENGEN_RATING_SWEEP_SECONDS"] = "0.2"
    a, b = cluster.start(2)
    star = await registered(a.url, "club")
    others = [await registered(a.url, "casual") for _ in range(4)]
    try:
        # Four games of the same player end at the same moment, two on each instance.
        games = await asyncio.gather(
            *(
                rated_game(star, other, winner="B" if n % 2 else "W", base_url=(a.url, b.url)[n % 2])
                for n, other in enumerate(others)
            )
        )
        await wait_games(star, star.user["name"], 4)
        for other in others:
            await wait_games(star, other.user["name"], 1)
        await asyncio.sleep(1.0)  # further sweeps on both instances change nothing

        engine = create_engine(database_url)
        sessionmaker = create_sessionmaker(engine)
        try:
            async with sessionmaker() as session:
                statuses = (
                    await session.execute(
                        select(RatingUpdate.game_id, RatingUpdate.status).where(RatingUpdate.game_id.in_(games))
                    )
                ).all()
                assert sorted(statuses) == sorted((g, "rated") for g in games)
                star_id = star.user["id"]
                chain = await repo.history(session, star_id, "overall", 10)
                count = (await session.execute(select(func.count()).select_from(RatingChange))).scalar_one()
                assert count == 4 * 2 * 2  # four games x two players x (overall, 9x9)
                live = await repo.snapshot(session)
            # Each update started from the figures the one before it left, and the figures are the formula's.
            assert len(chain) == 4
            for before, after in zip(chain, chain[1:]):
                assert after.rating_before == before.rating_after
                assert after.deviation_before == before.deviation_after
                assert after.volatility_before == before.volatility_after
            for change in chain:
                me = Rating(change.rating_before, change.deviation_before, change.volatility_before)
                async with sessionmaker() as session:
                    them = (
                        await session.execute(
                            select(RatingChange).where(
                                RatingChange.game_id == change.game_id,
                                RatingChange.user_id == change.opponent_id,
                                RatingChange.category == "overall",
                            )
                        )
                    ).scalar_one()
                opponent = Rating(them.rating_before, them.deviation_before, them.volatility_before)
                # The star is Black in every game.
                extra = black_advantage_points(me.rating, 0, 7.5, 9)
                want = update(me, [Outcome(opponent, change.score, extra)], 0.5)
                assert change.rating_after == pytest.approx(want.rating)
                assert change.deviation_after == pytest.approx(want.deviation)
            star_view = await profile(star, star.user["name"])
            assert star_view["ratings"]["overall"]["rating"] == pytest.approx(chain[-1].rating_after, abs=0.01)

            # tengen ratings rebuild: the same figures from the games.
            assert await service.rebuild(sessionmaker) == 4
            async with sessionmaker() as session:
                assert await repo.snapshot(session) == live
        finally:
            await engine.dispose()
    finally:
        for p in (star, *others):
            await p.close()


async def test_an_update_lost_with_its_instance_is_made_when_an_instance_starts(cluster: Instances, database_url: str) -> None:
    cluster.env["TENGEN_RATING_SWEEP_SECONDS"] = "3600"
    (first,) = cluster.start(1)
    black, white = await registered(first.url, "5k"), await registered(first.url, "5k")
    try:
        game_id = await rated_game(black, white, winner="W")
        rated = await wait_games(black, black.user["name"], 1)
        first.kill()
        # The database as a crash between the game's end and its update leaves it: the game finished, no update.
        engine = create_engine(database_url)
        sessionmaker = create_sessionmaker(engine)
        try:
            async with sessionmaker() as session:
                await session.execute(delete(RatingChange))
                await session.execute(delete(RatingUpdate))
                await session.execute(delete(PlayerRating))
                await session.commit()
        finally:
            await engine.dispose()
        (second,) = cluster.start(1)
        black.http.base_url = second.url
        again = await wait_games(black, black.user["name"], 1)
        assert again["ratings"] == rated["ratings"]
        assert again["recent"][0]["id"] == game_id
    finally:
        await black.close()
        await white.close()
