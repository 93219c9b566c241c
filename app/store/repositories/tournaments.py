"""Queries on tournaments (app/tournaments): the events, co-directors, entrants, check-ins, rounds (claimed by
compare-and-set on their status), boards and seats, and the directors' audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import (
    Game,
    Tournament,
    TournamentAudit,
    TournamentCheckin,
    TournamentDirector,
    TournamentEntrant,
    TournamentPairing,
    TournamentRound,
    TournamentSeat,
)

ACTIVE = ("running", "paused")


async def get(session: AsyncSession, tournament_id: str) -> Tournament | None:
    return await session.get(Tournament, tournament_id, populate_existing=True)


async def lock(session: AsyncSession, tournament_id: str) -> Tournament | None:
    """The row, locked until the transaction ends (PostgreSQL; SQLite serialises writers by itself): every
    change to an event (a registration, a director's action, a round's step) takes it first, so a cap or a
    round's state is checked against what is committed."""
    query = select(Tournament).where(Tournament.id == tournament_id).with_for_update().execution_options(populate_existing=True)
    return (await session.execute(query)).scalar_one_or_none()


async def listing(session: AsyncSession, statuses: tuple[str, ...], limit: int) -> list[tuple[Tournament, int]]:
    """Tournaments in these states, the latest first, each with its count of active entrants."""
    players = (
        select(func.count())
        .where(TournamentEntrant.tournament_id == Tournament.id, TournamentEntrant.status == "active")
        .scalar_subquery()
    )
    rows = await session.execute(
        select(Tournament, players).where(Tournament.status.in_(statuses)).order_by(Tournament.first_round_at.desc()).limit(limit)
    )
    return [(t, n) for t, n in rows]


async def count_open_by(session: AsyncSession, director_id: int) -> int:
    """How many unfinished tournaments this user directs."""
    query = select(func.count()).where(Tournament.director_id == director_id, Tournament.status != "finished")
    return int((await session.execute(query)).scalar_one())


def touch(tournament: Tournament) -> None:
    """One more change the pages show (committed with it)."""
    tournament.version += 1


async def directors(session: AsyncSession, tournament_id: str) -> set[int]:
    rows = await session.execute(select(TournamentDirector.user_id).where(TournamentDirector.tournament_id == tournament_id))
    return {uid for (uid,) in rows}


async def add_director(session: AsyncSession, tournament_id: str, user_id: int) -> bool:
    if await session.get(TournamentDirector, (tournament_id, user_id)) is not None:
        return False
    session.add(TournamentDirector(tournament_id=tournament_id, user_id=user_id))
    await session.flush()
    return True


# ---- entrants and check-ins


async def entrants(session: AsyncSession, tournament_id: str) -> list[TournamentEntrant]:
    query = (
        select(TournamentEntrant)
        .where(TournamentEntrant.tournament_id == tournament_id)
        .order_by(TournamentEntrant.registered_at)
    )
    return list((await session.execute(query)).scalars())


async def entrant(session: AsyncSession, tournament_id: str, user_id: int) -> TournamentEntrant | None:
    return await session.get(TournamentEntrant, (tournament_id, user_id), populate_existing=True)


async def count_active(session: AsyncSession, tournament_id: str) -> int:
    query = select(func.count()).where(TournamentEntrant.tournament_id == tournament_id, TournamentEntrant.status == "active")
    return int((await session.execute(query)).scalar_one())


def add_entrant(session: AsyncSession, row: TournamentEntrant) -> None:
    session.add(row)


async def checked_in(session: AsyncSession, tournament_id: str, round_number: int) -> set[int]:
    rows = await session.execute(
        select(TournamentCheckin.user_id).where(
            TournamentCheckin.tournament_id == tournament_id, TournamentCheckin.round == round_number
        )
    )
    return {uid for (uid,) in rows}


async def check_in(session: AsyncSession, tournament_id: str, round_number: int, user_id: int) -> bool:
    """False when the player had checked in for this round already."""
    if await session.get(TournamentCheckin, (tournament_id, round_number, user_id)) is not None:
        return False
    session.add(TournamentCheckin(tournament_id=tournament_id, round=round_number, user_id=user_id))
    await session.flush()
    return True


# ---- rounds


async def rounds(session: AsyncSession, tournament_id: str) -> list[TournamentRound]:
    query = select(TournamentRound).where(TournamentRound.tournament_id == tournament_id).order_by(TournamentRound.number)
    return list((await session.execute(query.execution_options(populate_existing=True))).scalars())


async def get_round(session: AsyncSession, tournament_id: str, number: int) -> TournamentRound | None:
    return await session.get(TournamentRound, (tournament_id, number), populate_existing=True)


async def claim_round(session: AsyncSession, tournament_id: str, number: int, was: str, becomes: str, **values: Any) -> bool:
    """Move the round from ``was`` to ``becomes`` (compare-and-set): True for the one caller that moved it."""
    result = await session.execute(
        update(TournamentRound)
        .where(TournamentRound.tournament_id == tournament_id, TournamentRound.number == number, TournamentRound.status == was)
        .values(status=becomes, **values)
    )
    return bool(cast(CursorResult[Any], result).rowcount == 1)


async def due_rounds(session: AsyncSession) -> list[tuple[str, int, str, datetime, float]]:
    """(tournament, round, status, start, pairing lead) of running tournaments' rounds not finished, earliest
    first: the scheduler takes the step that is due, if any, under the tournament's lock."""
    query = (
        select(
            TournamentRound.tournament_id,
            TournamentRound.number,
            TournamentRound.status,
            TournamentRound.starts_at,
            Tournament.pairing_lead_seconds,
        )
        .join(Tournament, Tournament.id == TournamentRound.tournament_id)
        .where(Tournament.status == "running", TournamentRound.status != "finished")
        .order_by(TournamentRound.starts_at)
    )
    return [(tid, n, status, starts_at, lead) for tid, n, status, starts_at, lead in await session.execute(query)]


async def open_tournament_ids(session: AsyncSession) -> list[str]:
    """Tournaments still taking registrations whose first round may come."""
    rows = await session.execute(select(Tournament.id).where(Tournament.status == "registration"))
    return [tid for (tid,) in rows]


# ---- boards and seats


async def pairings(session: AsyncSession, tournament_id: str, round_number: int | None = None) -> list[TournamentPairing]:
    query = select(TournamentPairing).where(TournamentPairing.tournament_id == tournament_id)
    if round_number is not None:
        query = query.where(TournamentPairing.round == round_number)
    query = query.order_by(TournamentPairing.round, TournamentPairing.board).execution_options(populate_existing=True)
    return list((await session.execute(query)).scalars())


async def pairing(session: AsyncSession, pairing_id: int) -> TournamentPairing | None:
    return await session.get(TournamentPairing, pairing_id, populate_existing=True)


async def pairing_of_game(session: AsyncSession, game_id: str) -> TournamentPairing | None:
    query = select(TournamentPairing).where(TournamentPairing.game_id == game_id).execution_options(populate_existing=True)
    return (await session.execute(query)).scalar_one_or_none()


async def seats(session: AsyncSession, tournament_id: str, round_number: int | None = None) -> list[TournamentSeat]:
    query = select(TournamentSeat).where(TournamentSeat.tournament_id == tournament_id)
    if round_number is not None:
        query = query.where(TournamentSeat.round == round_number)
    return list((await session.execute(query.order_by(TournamentSeat.round))).scalars())


async def add_board(session: AsyncSession, board: TournamentPairing) -> TournamentPairing:
    """Add a board and its two seats (the unique round-player key refuses a player seated twice in a round)."""
    session.add(board)
    await session.flush()
    for user_id, kind in ((board.black_id, "B"), (board.white_id, "W")):
        session.add(
            TournamentSeat(tournament_id=board.tournament_id, round=board.round, user_id=user_id, kind=kind, pairing_id=board.id)
        )
    await session.flush()
    return board


async def add_seat(session: AsyncSession, seat: TournamentSeat) -> None:
    session.add(seat)
    await session.flush()


async def clear_round(session: AsyncSession, tournament_id: str, round_number: int) -> None:
    """Take a paired round's boards and seats away (a re-pair, before any game exists)."""
    for seat in await seats(session, tournament_id, round_number):
        await session.delete(seat)
    await session.flush()
    for board in await pairings(session, tournament_id, round_number):
        await session.delete(board)
    await session.flush()


async def set_game(session: AsyncSession, pairing_id: int, game_id: str) -> bool:
    """Give the board its game, once: False when it has one already."""
    result = await session.execute(
        update(TournamentPairing)
        .where(TournamentPairing.id == pairing_id, TournamentPairing.game_id.is_(None))
        .values(game_id=game_id)
    )
    return bool(cast(CursorResult[Any], result).rowcount == 1)


async def set_outcome(
    session: AsyncSession, pairing_id: int, outcome: str, decided_by: str, by_forfeit: bool = False, *, only_if_open: bool = False
) -> bool:
    """Record a board's outcome (``only_if_open``: unless one is recorded already, as a game's end does, so a
    director's decision is never overwritten by the game ending later)."""
    statement = update(TournamentPairing).where(TournamentPairing.id == pairing_id)
    if only_if_open:
        statement = statement.where(TournamentPairing.outcome.is_(None))
    result = await session.execute(statement.values(outcome=outcome, decided_by=decided_by, by_forfeit=by_forfeit))
    return bool(cast(CursorResult[Any], result).rowcount == 1)


async def finished_without_outcome(session: AsyncSession, limit: int = 200) -> list[tuple[TournamentPairing, Game]]:
    """Boards whose game has ended and whose outcome is not recorded yet (the sweep's work)."""
    rows = await session.execute(
        select(TournamentPairing, Game)
        .join(Game, Game.id == TournamentPairing.game_id)
        .where(TournamentPairing.outcome.is_(None), Game.status == "finished")
        .limit(limit)
    )
    return [(p, g) for p, g in rows]


async def games_of(session: AsyncSession, game_ids: list[str]) -> dict[str, Game]:
    if not game_ids:
        return {}
    rows = (await session.execute(select(Game).where(Game.id.in_(game_ids)))).scalars()
    return {g.id: g for g in rows}


# ---- audit log


async def audit(session: AsyncSession, entry: TournamentAudit) -> TournamentAudit:
    session.add(entry)
    await session.flush()
    return entry


async def audit_log(session: AsyncSession, tournament_id: str, limit: int = 500) -> list[TournamentAudit]:
    query = (
        select(TournamentAudit).where(TournamentAudit.tournament_id == tournament_id).order_by(TournamentAudit.id).limit(limit)
    )
    return list((await session.execute(query)).scalars())
