"""Rating finished games exactly once, the startup and periodic sweep, annulment and the full rebuild.

Exactly once: a game's update is recorded in ``rating_updates`` (unique game id) in the same transaction that
writes both players' new figures and their before/after rows. That transaction first creates the players'
rows if needed (a write, so SQLite takes its write lock at once), then locks them (``FOR UPDATE``, in key
order) and only then checks whether the game was already rated. Two instances, a retry or the sweep rating
the same game are therefore serialised on the players' rows and the later one finds the game done; two games
of the same player finishing together are serialised the same way, each computed from the figures the other
left, so no update is lost. ``seq`` is taken after the locks, so replaying the updates in ``seq`` order
(``rebuild``) meets each player's games in the order they were applied and gives the same figures.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.ratings import ranks
from app.ratings.glicko2 import DEFAULT_TAU, Rating
from app.ratings.rate import Change, GameFacts, black_score, categories_for, rate_game
from app.ratings.verdict import verdict
from app.store.models import Game
from app.store.repositories import games as games_repo
from app.store.repositories import ratings as repo
from app.store.types import utcnow

log = logging.getLogger(__name__)

SWEEP_BATCH = 100


@dataclass(frozen=True)
class Outcome:
    status: str  # rated | unrated | already | unfinished | missing
    changes: tuple[Change, ...] = ()


def _start(strength: str | None) -> tuple[float, float, float]:
    try:
        s = ranks.starting_rating(strength)
    except ValueError:
        s = ranks.starting_rating(None)
    return (s.rating, s.deviation, s.volatility)


def _facts(game: Game) -> GameFacts:
    score = black_score(game.result)
    assert score is not None
    return GameFacts(
        game.id, game.black_id, game.white_id, game.board_size, game.handicap, game.komi, score, game.ended_at or game.updated_at
    )


def _change_row(seq: int, game_id: str, at: object, c: Change) -> dict[str, object]:
    return {
        "seq": seq,
        "game_id": game_id,
        "user_id": c.user_id,
        "opponent_id": c.opponent_id,
        "category": c.category,
        "score": c.score,
        "expected": c.expected,
        "rating_before": c.before.rating,
        "deviation_before": c.before.deviation,
        "volatility_before": c.before.volatility,
        "rating_after": c.after.rating,
        "deviation_after": c.after.deviation,
        "volatility_after": c.after.volatility,
        "at": at,
    }


async def rate(sessionmaker: async_sessionmaker[AsyncSession], game_id: str, tau: float = DEFAULT_TAU) -> Outcome:
    """Rate one finished game if it was not rated yet (safe to call any number of times, anywhere)."""
    async with sessionmaker() as session:
        row = await games_repo.get_with_players(session, game_id)
        if row is None:
            return Outcome("missing")
        game, black, white = row.game, row.black, row.white
        if game.status != "finished":
            return Outcome("unfinished")
        if row.rating.status is not None:
            return Outcome("already")
        decided = verdict(row)  # the one decision of whether a game counts; every view shows the same
        starts = {(user.id, cat): _start(user.strength) for user in (black, white) for cat in categories_for(game.board_size)}
    async with sessionmaker() as session:
        if not decided.rated:
            seq = await repo.record(session, game_id, "unrated", decided.reason)
            await session.commit()
            return Outcome("already" if seq is None else "unrated")
        await repo.ensure(session, starts)
        rows = await repo.lock(session, starts)
        if await repo.done(session, game_id):
            await session.rollback()
            return Outcome("already")
        figures = {k: Rating(r.rating, r.deviation, r.volatility) for k, r in rows.items()}
        facts = _facts(game)
        changes = rate_game(facts, figures, tau)
        seq = await repo.record(session, game_id, "rated")
        if seq is None:  # cannot happen under the locks; never write twice
            await session.rollback()
            return Outcome("already")
        now = utcnow()
        for c in changes:
            r = rows[(c.user_id, c.category)]
            r.rating, r.deviation, r.volatility = c.after.rating, c.after.deviation, c.after.volatility
            r.games += 1
            r.updated_at = now
        await repo.add_changes(session, [_change_row(seq, game_id, facts.at, c) for c in changes])
        await session.commit()
        return Outcome("rated", tuple(changes))


async def sweep(sessionmaker: async_sessionmaker[AsyncSession], tau: float = DEFAULT_TAU) -> int:
    """Rate every finished game still waiting for its update (after a restart, a crash or a failure); the count."""
    count = 0
    while True:
        async with sessionmaker() as session:
            ids = await repo.pending_game_ids(session, SWEEP_BATCH)
        if not ids:
            return count
        failed = 0
        for game_id in ids:
            try:
                await rate(sessionmaker, game_id, tau)
                count += 1
            except Exception:  # one game must not hold back the others; retried next sweep
                failed += 1
                log.warning("rating game %s failed; retried at the next sweep", game_id, exc_info=True)
        if len(ids) < SWEEP_BATCH or failed == len(ids):
            return count


async def rebuild(sessionmaker: async_sessionmaker[AsyncSession], tau: float = DEFAULT_TAU, *, annul: str | None = None) -> int:
    """Recompute every figure and every change from the starting ratings and the rated games, in the order
    their updates were applied, in one transaction that holds back live updates. Returns the games replayed.

    ``annul``: a rated game to take back first, in the same transaction (its update becomes ``annulled``).
    """
    async with sessionmaker() as session:
        await repo.lock_all(session)
        await repo.clear_changes(session)
        if annul is not None and not await repo.annul(session, annul):
            await session.rollback()
            return -1
        starts = [(uid, cat, _start(strength)) for uid, cat, strength in await repo.all_rows_with_strength(session)]
        replayed = [(seq, _facts(game)) for seq, game in await repo.rated_games_in_order(session)]
        # The replay is pure arithmetic over every rated game: off the event loop.
        figures, games, rows = await asyncio.to_thread(_replay, starts, replayed, tau)
        await repo.write_figures(
            session,
            [
                {
                    "user_id": uid,
                    "category": cat,
                    "rating": f.rating,
                    "deviation": f.deviation,
                    "volatility": f.volatility,
                    "games": games[(uid, cat)],
                }
                for (uid, cat), f in figures.items()
            ],
            utcnow(),
        )
        await repo.add_changes(session, rows)
        await session.commit()
        return len(replayed)


def _replay(
    starts: list[tuple[int, str, tuple[float, float, float]]], replayed: list[tuple[int, GameFacts]], tau: float
) -> tuple[dict[tuple[int, str], Rating], dict[tuple[int, str], int], list[dict[str, object]]]:
    """Every player from their starting figures through the rated games in order: figures, games, changes."""
    figures = {(uid, cat): Rating(*start) for uid, cat, start in starts}
    games = {key: 0 for key in figures}
    rows = []
    for seq, facts in replayed:
        for c in rate_game(facts, figures, tau):
            figures[(c.user_id, c.category)] = c.after
            games[(c.user_id, c.category)] += 1
            rows.append(_change_row(seq, facts.game_id, facts.at, c))
    return figures, games, rows


async def annul(sessionmaker: async_sessionmaker[AsyncSession], game_id: str, tau: float = DEFAULT_TAU) -> bool:
    """Take a rated game's effect back (a moderator's decision): mark it annulled and recompute. False when the
    game was never rated."""
    return await rebuild(sessionmaker, tau, annul=game_id) >= 0
