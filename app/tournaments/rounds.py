"""A round's life in the store: its input read from what is recorded, paired by the core, its games started, its
results recorded as the games end. Each step runs in the caller's transaction after the tournament's row is
locked, and moves the round's status by compare-and-set (pending -> paired -> started -> finished), so whichever
instance takes a step takes it alone; the seats' key (tournament, round, player) refuses a second seat anyway.

The round's input (the core's ``RoundInput``, seed included) is stored with its digest and the pairing with each
``why``: pairing the stored input again gives the same round (docs/tournaments.md, "Reproducible pairings").
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import ServiceError
from app.lobby.starting import create_game
from app.store.models import Game, Tournament, TournamentEntrant, TournamentPairing, TournamentRound, TournamentSeat
from app.store.repositories import tournaments as repo
from app.tournaments.model import Bye, Entrant, Outcome, PairingError, Result, RoundInput, RoundPairing, TournamentRules
from app.tournaments.pairing import pair_round

WAIT_FOR_RESULTS = frozenset({"result_missing"})  # the core needs the last round's results first: try again later
EVENT_OVER = frozenset({"bracket_finished", "rounds_exhausted"})  # nothing left to pair: the event is over


def rules_of(tournament: Tournament, seed: int | None = None) -> TournamentRules:
    r = tournament.rules
    return TournamentRules(
        format=tournament.format,  # type: ignore[arg-type]  # checked against FORMATS when the event was made
        rounds=int(r["rounds"]),
        top_bar=r.get("top_bar"),
        bottom_bar=r.get("bottom_bar"),
        handicap=bool(r.get("handicap", False)),
        handicap_correction=int(r.get("handicap_correction", 0)),
        handicap_ceiling=int(r.get("handicap_ceiling", 9)),
        tiebreaks=tuple(r.get("tiebreaks", ("sos", "sosos"))),
        seed=int(r.get("seed", 0) if seed is None else seed),
    )


def entrant_of(row: TournamentEntrant) -> Entrant:
    return Entrant(str(row.user_id), row.name, row.rating, row.rank, row.registered_round)


def outcome_of(game: Game) -> Outcome:
    """A finished game's outcome for the event: a win, a jigo as a jigo (never B+0), a void game unplayed."""
    text = game.result or ""
    if text.startswith("B+"):
        return "B"
    if text.startswith("W+"):
        return "W"
    if text == "Draw":
        return "jigo"
    return "unplayed"


def history(boards: Sequence[TournamentPairing], seats: Sequence[TournamentSeat], before: int) -> tuple[list[Result], list[Bye]]:
    """Every earlier round's games and byes as the core reads them. A game still on when a later round is paired
    counts as met and unplayed in that round's input (recorded so): a round never waits for a game."""
    results = [
        Result(b.round, str(b.black_id), str(b.white_id), b.outcome or "unplayed", b.by_forfeit)  # type: ignore[arg-type]  # the column holds OUTCOMES only
        for b in boards
        if b.round < before
    ]
    byes = [Bye(s.round, str(s.user_id), s.kind) for s in seats if s.round < before and s.kind in ("bye", "absent")]  # type: ignore[arg-type]  # kind is B, W, bye or absent
    return results, byes


async def round_input(session: AsyncSession, tournament: Tournament, number: int, seed: int) -> RoundInput:
    """Round ``number``'s input from the store as it is now: who may play (registered by then, still in),
    who did not check in (absent), who left, and every earlier result and bye."""
    rows = await repo.entrants(session, tournament.id)
    everyone = tuple(entrant_of(e) for e in rows)
    eligible = [e for e in rows if e.registered_round <= number]
    withdrawn = tuple(str(e.user_id) for e in eligible if e.status != "active" and (e.left_round or 0) <= number)
    absent: tuple[str, ...] = ()
    if tournament.checkin_seconds > 0:
        present = await repo.checked_in(session, tournament.id, number)
        absent = tuple(str(e.user_id) for e in eligible if e.user_id not in present and str(e.user_id) not in withdrawn)
    results, byes = history(await repo.pairings(session, tournament.id), await repo.seats(session, tournament.id), number)
    return RoundInput(
        rules=rules_of(tournament, seed),
        entrants=tuple(entrant_of(e) for e in eligible),
        round=number,
        absent=absent,
        withdrawn=withdrawn,
        results=tuple(results),
        byes=tuple(byes),
        everyone=everyone,
    )


def as_json(value: Any) -> Any:
    return dataclasses.asdict(value)


async def pair(session: AsyncSession, tournament: Tournament, rnd: TournamentRound, now: datetime) -> str:
    """Pair ``rnd`` (its status already claimed as paired by the caller, or a paired round being re-paired):
    returns "paired", "wait" (the core needs results first: the caller rolls back) or "over" (nothing left to
    pair: the event ends)."""
    inp = await round_input(session, tournament, rnd.number, rnd.seed)
    try:
        # A 500-player round is a matching over the field: off the event loop.
        paired: RoundPairing = await asyncio.to_thread(pair_round, inp)
    except PairingError as exc:
        if exc.code in WAIT_FOR_RESULTS:
            return "wait"
        if exc.code in EVENT_OVER:
            return "over"
        rnd.inputs, rnd.digest, rnd.pairing, rnd.paired_at = as_json(inp), None, {"error": exc.code, "message": exc.message}, now
        return "paired"
    rnd.inputs, rnd.digest, rnd.paired_at = as_json(inp), paired.inputs_digest, now
    rnd.pairing = as_json(paired)
    for p in paired.pairings:
        why = {**as_json(p.why), "komi_note": p.komi_note}
        board = TournamentPairing(
            tournament_id=tournament.id,
            round=rnd.number,
            board=p.board,
            black_id=int(p.black),
            white_id=int(p.white),
            handicap=p.handicap,
            why=why,
            by_forfeit=False,
        )
        await repo.add_board(session, board)
    for b in paired.byes:
        why_ = as_json(b.why) if b.why is not None else None
        await repo.add_seat(
            session, TournamentSeat(tournament_id=tournament.id, round=rnd.number, user_id=int(b.player), kind=b.kind, why=why_)
        )
    return "paired"


async def start_games(session: AsyncSession, tournament: Tournament, number: int) -> list[str]:
    """A game for every board of the round that has none (in the caller's transaction, after it claimed the
    round's start): the ordinary way a game starts (app/lobby/starting.py), with the event's settings. A board
    whose game cannot start (a player banned, or one blocked the other) is recorded unplayed, decided by the
    server. Returns the new games' ids (the caller announces them after its commit)."""
    settings = tournament.game
    started: list[str] = []
    for board in await repo.pairings(session, tournament.id, number):
        if board.game_id is not None or board.outcome is not None:
            continue
        note = board.why.get("komi_note", "even")
        handicap = board.handicap if note == "handicap" else 0
        komi = 0.5 if note == "no_komi" else (None if note == "handicap" else settings.get("komi"))
        try:
            async with session.begin_nested():
                game = await create_game(
                    session,
                    board_size=settings["board_size"],
                    rules=settings["rules"],
                    komi=komi,
                    handicap=handicap,
                    time_control=settings["time_control"],
                    rated=settings["rated"],
                    black_id=board.black_id,
                    white_id=board.white_id,
                )
        except ServiceError as exc:
            await repo.set_outcome(session, board.id, "unplayed", "server", True)
            board.why = {**board.why, "not_started": exc.code}
            continue
        if await repo.set_game(session, board.id, game.id):
            started.append(game.id)
    return started


async def settle_round(session: AsyncSession, tournament: Tournament, number: int) -> bool:
    """Finish the started round once every board has its outcome; True when this call finished it."""
    boards = await repo.pairings(session, tournament.id, number)
    if any(b.outcome is None for b in boards):
        return False
    return await repo.claim_round(session, tournament.id, number, "started", "finished")


def round_times(tournament: Tournament, number: int) -> datetime:
    return tournament.first_round_at + timedelta(seconds=tournament.round_seconds * (number - 1))


def pairing_time(tournament: Tournament, rnd: TournamentRound) -> datetime:
    return rnd.starts_at - timedelta(seconds=tournament.pairing_lead_seconds)


def checkin_window(tournament: Tournament, rnd: TournamentRound) -> tuple[datetime, datetime]:
    closes = pairing_time(tournament, rnd)
    return closes - timedelta(seconds=tournament.checkin_seconds), closes
