"""Rating finished games through the store, on SQLite and PostgreSQL: the figures, exactly once, rebuild, annul."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.ratings import ranks, service
from app.ratings.glicko2 import Outcome, Rating, update
from app.ratings.handicap import black_advantage_points
from app.ratings.verdict import Verdict, verdict
from app.store.repositories import games as games_repo
from app.store.repositories import ratings as repo
from tests.ratings.finished_games import finished_game, player


async def figures(sessionmaker: async_sessionmaker[AsyncSession], user_id: int) -> dict[str, tuple[float, float, float, int]]:
    async with sessionmaker() as session:
        return {r.category: (r.rating, r.deviation, r.volatility, r.games) for r in await repo.of_user(session, user_id)}


async def snapshot(sessionmaker: async_sessionmaker[AsyncSession]) -> dict[str, Any]:
    async with sessionmaker() as session:
        return await repo.snapshot(session)


async def test_a_rated_game_gives_the_formulas_figures(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    black = await player(db_sessionmaker, "club")
    white = await player(db_sessionmaker, "3k")
    game = await finished_game(db_sessionmaker, black, white, "B+R", size=19)
    assert (await service.rate(db_sessionmaker, game)).status == "rated"

    b0, w0 = ranks.starting_rating("club"), ranks.starting_rating("3k")
    rb, rw = Rating(b0.rating, b0.deviation, b0.volatility), Rating(w0.rating, w0.deviation, w0.volatility)
    extra = black_advantage_points(rb.rating, 0, 7.5, 19)
    want_b = update(rb, [Outcome(rw, 1.0, extra)], 0.5)
    want_w = update(rw, [Outcome(rb, 0.0, -extra)], 0.5)
    got_b, got_w = await figures(db_sessionmaker, black), await figures(db_sessionmaker, white)
    assert set(got_b) == {"overall", "19"}
    for category in ("overall", "19"):
        assert got_b[category] == pytest.approx((want_b.rating, want_b.deviation, want_b.volatility, 1))
        assert got_w[category] == pytest.approx((want_w.rating, want_w.deviation, want_w.volatility, 1))
    assert got_b["overall"][0] > b0.rating and got_w["overall"][0] < w0.rating


async def test_each_game_is_rated_once_however_often_and_concurrently_asked(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    a, b = await player(db_sessionmaker), await player(db_sessionmaker)
    game = await finished_game(db_sessionmaker, a, b, "W+3.5", size=9)
    outcomes = await asyncio.gather(*(service.rate(db_sessionmaker, game) for _ in range(6)))
    assert sorted(o.status for o in outcomes) == ["already"] * 5 + ["rated"]
    assert (await service.rate(db_sessionmaker, game)).status == "already"
    assert (await figures(db_sessionmaker, a))["9"][3] == 1
    assert len((await snapshot(db_sessionmaker))["changes"]) == 4  # two players x (overall, 9)


async def test_two_games_of_one_player_ending_together_both_count(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    hub, x, y = await player(db_sessionmaker), await player(db_sessionmaker), await player(db_sessionmaker)
    g1 = await finished_game(db_sessionmaker, hub, x, "B+R")
    g2 = await finished_game(db_sessionmaker, y, hub, "W+T")
    await asyncio.gather(
        service.rate(db_sessionmaker, g1),
        service.rate(db_sessionmaker, g2),
        service.rate(db_sessionmaker, g1),
        service.rate(db_sessionmaker, g2),
    )
    assert (await figures(db_sessionmaker, hub))["overall"][3] == 2
    # The second applied game started from the figures the first one left.
    async with db_sessionmaker() as session:
        history = await repo.history(session, hub, "overall", 10)
    assert len(history) == 2
    assert history[1].rating_before == history[0].rating_after
    assert history[1].deviation_before == history[0].deviation_after


async def test_unrated_games_leave_the_figures_alone(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    a, b, guest = await player(db_sessionmaker), await player(db_sessionmaker), await player(db_sessionmaker, guest=True)
    cases = [
        (await finished_game(db_sessionmaker, a, b, "B+R", rated=False), "unrated"),
        (await finished_game(db_sessionmaker, a, guest, "B+R"), "unrated"),
        (await finished_game(db_sessionmaker, a, a, "B+R"), "unrated"),
        (await finished_game(db_sessionmaker, a, b, "Void", ended_by="abort"), "unrated"),
        # A correspondence game a player timed out of before their first move: cancelled, not lost.
        (await finished_game(db_sessionmaker, a, b, "Void", ended_by="cancelled"), "unrated"),
    ]
    for game, status in cases:
        assert (await service.rate(db_sessionmaker, game)).status == status
    assert await figures(db_sessionmaker, a) == {}


async def test_a_game_with_fewer_than_two_stones_by_either_side_is_not_rated(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    a, b = await player(db_sessionmaker), await player(db_sessionmaker)
    short: dict[str, list[tuple[str, tuple[int, int] | None]]] = {
        "resigned at once": [],
        "one stone each": [("B", (2, 2)), ("W", (6, 6))],
        # A pass is not a stone: White played one stone and passed once.
        "a pass for a stone": [("B", (2, 2)), ("W", (6, 6)), ("B", (2, 6)), ("W", None), ("B", (6, 2))],
    }
    for name, moves in short.items():
        game = await finished_game(db_sessionmaker, a, b, "B+R", ended_by="resignation", moves=moves)
        assert (await service.rate(db_sessionmaker, game)).status == "unrated", name
        async with db_sessionmaker() as session:
            row = await games_repo.get_with_players(session, game)
            assert row is not None
            assert verdict(row) == Verdict(rated=False, reason="too_short"), name
    assert await figures(db_sessionmaker, a) == {}  # nothing was rated: no figures were written

    enough = [("B", (2, 2)), ("W", (6, 6)), ("B", None), ("W", (6, 2)), ("B", (2, 6))]  # two stones each, a pass
    game = await finished_game(db_sessionmaker, a, b, "B+R", ended_by="resignation", moves=enough)
    assert (await service.rate(db_sessionmaker, game)).status == "rated"
    assert (await figures(db_sessionmaker, a))["overall"][3] == 1


async def test_a_draw_is_half_and_the_sweep_rates_what_was_missed(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    a, b = await player(db_sessionmaker, "5k"), await player(db_sessionmaker, "5k")
    await finished_game(db_sessionmaker, a, b, "Draw", size=13)
    await finished_game(db_sessionmaker, a, b, "B+R", rated=False)
    assert await service.sweep(db_sessionmaker) == 2
    assert await service.sweep(db_sessionmaker) == 0
    got_a, got_b = await figures(db_sessionmaker, a), await figures(db_sessionmaker, b)
    start = ranks.starting_rating("5k").rating
    assert got_a["13"][3] == 1
    # Equal players, komi 7.5 slightly favouring White: the draw moves Black up a little, White down.
    assert got_a["13"][0] > start > got_b["13"][0]
    assert abs(got_a["13"][0] - start) < 5


async def test_rebuild_gives_the_same_figures_and_annul_takes_a_game_back(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    people = [await player(db_sessionmaker, s) for s in ("new", "casual", "club", "strong", "10k")]
    results = ["B+R", "W+2.5", "B+T", "Draw", "W+R", "B+0.5"]
    games = []
    for n in range(12):
        black, white = people[n % 5], people[(n * 2 + 1) % 5]
        if black == white:
            white = people[(n + 2) % 5]
        size = (9, 13, 19)[n % 3]
        games.append(
            await finished_game(
                db_sessionmaker,
                black,
                white,
                results[n % 6],
                size=size,
                handicap=2 if n % 4 == 0 else 0,
                komi=0.5 if n % 4 == 0 else 7.5,
            )
        )
    await asyncio.gather(*(service.rate(db_sessionmaker, g) for g in games))
    live = await snapshot(db_sessionmaker)
    assert await service.rebuild(db_sessionmaker) == 12
    assert await snapshot(db_sessionmaker) == live

    # Annul the fifth game: the figures are those of a history without it.
    assert await service.annul(db_sessionmaker, games[4])
    annulled = await snapshot(db_sessionmaker)
    assert not any(c[1] == games[4] for c in annulled["changes"])
    assert annulled != live
    assert not await service.annul(db_sessionmaker, games[4])  # only once
    assert await service.rebuild(db_sessionmaker) == 11
    assert await snapshot(db_sessionmaker) == annulled
