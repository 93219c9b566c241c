"""``TournamentService``: making an event, registering, withdrawing, checking in, the directors' actions (each
in the audit log), the scheduler's tick that moves the rounds on, and recording results as games end.

One module over 400 lines: every change to an event takes the same row lock and ends with the same
announcement, and keeping the player's, the director's and the scheduler's steps together keeps that one
pattern in view. A round's own steps are in ``rounds.py``, what the pages show in ``views.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import Conflict, Forbidden, NotFound, ServiceError
from app.lobby.game_settings import InvalidGameSettings, build_config
from app.lobby.live.broadcaster import LobbyBroadcaster
from app.lobby.starting import game_started
from app.ratings import ranks
from app.ratings.lookup import rank_numbers
from app.store.ids import short_id
from app.store.models import Tournament, TournamentAudit, TournamentEntrant, TournamentRound, User
from app.store.repositories import games as games_repo
from app.store.repositories import ratings as ratings_repo
from app.store.repositories import tournaments as repo
from app.store.repositories import users
from app.tournaments import rounds, views
from app.tournaments.messages import Change, TournamentChanged
from app.tournaments.model import LOWEST_RANK, TOP_RANK, Bye, Entrant, Result, RoundInput, TournamentRules, Why
from app.tournaments.pairing import PairingError, pair_round
from app.tournaments.schemas import CreateTournament, Repair, SetResult, Withdraw
from app.transport.hub import Hub

log = logging.getLogger(__name__)

EndGame = Callable[[str, int], Awaitable[None]]
"""Ends a game as lost by the player (game id, user id): the room's own ending of an abandoned game."""


def rank_of(text: str) -> int:
    """``"5k"`` -> 25, ``"1d"`` -> 30 on the core's scale (ServiceError ``bad_rank`` otherwise)."""
    try:
        return int(ranks.parse_rank(text))
    except ValueError:
        raise ServiceError("bad_rank", f"{text!r} is not a rank like 5k or 2d", 422) from None


def now_utc() -> datetime:
    return datetime.now(UTC)


class TournamentService:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        hub: Hub,
        lobby: LobbyBroadcaster,
        end_game: EndGame,
        *,
        max_players: int,
        max_rounds: int,
        per_director: int,
        clock: Callable[[], datetime] = now_utc,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.hub = hub
        self.lobby = lobby
        self.end_game = end_game
        self.max_players = max_players
        self.max_rounds = max_rounds
        self.per_director = per_director
        self.clock = clock

    # ---- reading

    async def listing(self, status: str | None, limit: int) -> dict[str, Any]:
        statuses = (status,) if status else ("registration", "running", "paused", "finished")
        async with self.sessionmaker() as session:
            rows = await repo.listing(session, statuses, limit)
        return {"tournaments": [views.summary(t, n) for t, n in rows]}

    async def view(self, tournament_id: str, viewer: User | None) -> dict[str, Any]:
        async with self.sessionmaker() as session:
            t = await self._get(session, tournament_id)
            entrants = await repo.entrants(session, t.id)
            rounds_ = await repo.rounds(session, t.id)
            boards = await repo.pairings(session, t.id)
            seats = await repo.seats(session, t.id)
            games = await repo.games_of(session, [b.game_id for b in boards if b.game_id])
            codirectors = await repo.directors(session, t.id)
            people = {u: await users.get(session, u) for u in codirectors | ({t.director_id} if t.director_id else set())}
            is_director = viewer is not None and (viewer.id == t.director_id or viewer.id in codirectors)
            audit = await repo.audit_log(session, t.id) if is_director else None
            coming = self._next_round(rounds_)
            checked = await repo.checked_in(session, t.id, coming) if viewer is not None and coming is not None else set()
        names = {e.user_id: e.name for e in entrants}
        name_of = {uid: (u.name if u is not None else None) for uid, u in people.items()}
        out: dict[str, Any] = {
            **views.summary(t, sum(1 for e in entrants if e.status == "active")),
            "settings": views.settings_view(
                t, name_of.get(t.director_id or -1), sorted(n for u, n in name_of.items() if u in codirectors and n)
            ),
            "entrants": [views.entrant_view(e) for e in entrants],
            "rounds": [views.round_view(t, r, boards, seats, names, games) for r in rounds_],
            "standings": views.standings(t, entrants, boards, seats),
            "tiebreak_definitions": views.tiebreak_definitions(t),
            "crosstable": views.crosstable(entrants, boards, seats, t.rules["rounds"]),
            "to_watch": views.to_watch(boards, games),
            "you": {
                "director": is_director,
                "registered": viewer is not None and any(e.user_id == viewer.id and e.status == "active" for e in entrants),
                "checked_in": viewer is not None and viewer.id in checked,
            },
        }
        if is_director:
            out["overdue"] = views.overdue(rounds_, boards, self.clock())
            out["audit"] = [views.audit_view(a) for a in audit or []]
        return out

    async def h9(self, tournament_id: str, country: str, city: str) -> tuple[str, str]:
        """The event's finished rounds in the EGD's h9 format: (file name, text)."""
        async with self.sessionmaker() as session:
            t = await self._get(session, tournament_id)
            entrants = await repo.entrants(session, t.id)
            rounds_ = await repo.rounds(session, t.id)
            boards = await repo.pairings(session, t.id)
            seats = await repo.seats(session, t.id)
        text = await asyncio.to_thread(views.h9, t, entrants, rounds_, boards, seats, country, city)
        return f"tengen-tournament-{t.id}.h9", text

    async def replay(self, tournament_id: str, number: int) -> dict[str, Any]:
        """Round ``number`` paired again from its recorded input: the same digest and pairing as recorded."""
        async with self.sessionmaker() as session:
            t = await self._get(session, tournament_id)
            rnd = await repo.get_round(session, t.id, number)
        if rnd is None or rnd.inputs is None:
            raise NotFound("round_not_paired", "That round has not been paired yet.")
        inp = input_from_json(rnd.inputs)
        try:
            again = pair_round(inp)
        except PairingError as exc:
            return {"recorded_digest": rnd.digest, "error": exc.code}
        return {
            "recorded_digest": rnd.digest,
            "digest": again.inputs_digest,
            "same": json.loads(json.dumps(rounds.as_json(again))) == rnd.pairing,
        }

    # ---- making an event

    async def create(self, user: User, body: CreateTournament) -> dict[str, Any]:
        if user.is_guest:
            raise Forbidden("account_required", "Only registered players may run a tournament.")
        if body.rounds > self.max_rounds:
            raise ServiceError("too_many_rounds", f"A tournament has at most {self.max_rounds} rounds.", 422)
        if body.max_players > self.max_players:
            raise ServiceError("too_many_players", f"A tournament takes at most {self.max_players} players.", 422)
        if body.late_until_round > body.rounds:
            raise ServiceError("bad_late_registration", "Late registration ends by the last round.", 422)
        if body.schedule.first_round_at.tzinfo is None:
            raise ServiceError("bad_time", "Give the first round's time with its time zone.", 422)
        if body.schedule.first_round_at <= self.clock():
            raise ServiceError("start_in_past", "The first round starts in the future.", 422)
        if body.schedule.deadline_seconds > body.schedule.round_seconds and body.rounds > 1:
            raise ServiceError("deadline_after_next_round", "A round's deadline comes before the next round starts.", 422)
        if body.format not in ("mcmahon",) and (body.top_bar or body.bottom_bar):
            raise ServiceError("bars_mcmahon_only", "Bars belong to McMahon events only.", 422)
        bars = {k: rank_of(v) if v else None for k, v in (("top_bar", body.top_bar), ("bottom_bar", body.bottom_bar))}
        limits = {k: rank_of(v) if v else None for k, v in (("min_rank", body.min_rank), ("max_rank", body.max_rank))}
        if limits["min_rank"] is not None and limits["max_rank"] is not None and limits["min_rank"] > limits["max_rank"]:
            raise ServiceError("bad_rank_limits", "The lowest rank allowed is above the highest.", 422)
        try:
            config = build_config(
                board_size=body.game.board_size,
                rules=body.game.rules,
                komi=body.game.komi,
                handicap=0,
                time_control=body.game.time_control,
            )
        except InvalidGameSettings as exc:
            raise ServiceError("bad_game_settings", exc.message, 422) from None
        if config.time_control.kind == "none":
            raise ServiceError(
                "clock_required", "Tournament games need a clock: a round never waits for a player who is gone.", 422
            )
        seed = random.SystemRandom().randrange(2**31)
        rules = TournamentRules(
            format=body.format,
            rounds=body.rounds,
            top_bar=bars["top_bar"],
            bottom_bar=bars["bottom_bar"],
            handicap=body.handicap,
            handicap_correction=body.handicap_correction,
            handicap_ceiling=body.handicap_ceiling,
            tiebreaks=tuple(body.tiebreaks),
            seed=seed,
        )
        try:  # the core says whether it pairs this format (and these rules) at all
            pair_round(RoundInput(rules=rules, entrants=(), round=1))
        except PairingError as exc:
            if exc.code == "format_not_paired_here":
                raise ServiceError("format_not_available", f"{body.format} events cannot be run yet.", 422) from None
        schedule = body.schedule
        async with self.sessionmaker() as session:
            await users.lock(session, [user.id])
            if await repo.count_open_by(session, user.id) >= self.per_director:
                raise ServiceError(
                    "too_many_tournaments", f"One director runs at most {self.per_director} unfinished tournaments.", 429
                )
            t = Tournament(
                id=short_id(),
                name=body.name,
                director_id=user.id,
                format=body.format,
                rules={k: v for k, v in rounds.as_json(rules).items() if k != "format"},
                game={**body.game.model_dump(), "time_control": config.time_control.to_dict()},
                status="registration",
                max_players=body.max_players,
                min_rank=limits["min_rank"],
                max_rank=limits["max_rank"],
                late_until_round=body.late_until_round,
                first_round_at=schedule.first_round_at.astimezone(UTC),
                round_seconds=schedule.round_seconds,
                pairing_lead_seconds=schedule.pairing_lead_seconds,
                checkin_seconds=schedule.checkin_seconds,
                deadline_seconds=schedule.deadline_seconds,
                version=1,
            )
            session.add(t)
            await session.flush()
            for n in range(1, body.rounds + 1):
                session.add(
                    TournamentRound(tournament_id=t.id, number=n, status="pending", starts_at=rounds.round_times(t, n), seed=seed)
                )
            await self._audit(session, t, user, "create", "created")
            await session.commit()
            tid = t.id
        await self._announce(tid, 1, "created", None)
        return await self.view(tid, user)

    # ---- players

    async def register(self, user: User, tournament_id: str) -> dict[str, Any]:
        if user.is_guest:
            raise Forbidden("account_required", "Register an account to play in tournaments (guests have no rank).")
        async with self.sessionmaker() as session:
            t = await self._locked(session, tournament_id)
            existing = await repo.entrant(session, t.id, user.id)
            if existing is not None and existing.status == "disqualified":
                raise Forbidden("disqualified", "You were disqualified from this tournament.")
            if existing is not None and existing.status == "active":
                raise Conflict("already_registered", "You are registered already.")
            next_round = await self._round_to_pair(session, t)
            if t.status == "finished" or next_round is None or next_round > t.late_until_round:
                raise Conflict("registration_closed", "Registration for this tournament is closed.")
            if await repo.count_active(session, t.id) >= t.max_players:
                raise Conflict("tournament_full", f"The tournament is full ({t.max_players} players).")
            rank = (await rank_numbers(session, [user.id])).get(user.id)
            assert rank is not None  # registered accounts have a rank (the starting one at least)
            whole = int(rank)
            if (t.min_rank is not None and whole < t.min_rank) or (t.max_rank is not None and whole > t.max_rank):
                raise Forbidden("rank_out_of_limits", "Your rank is outside this tournament's limits.")
            rows = await ratings_repo.of_users(session, {user.id}, "overall")
            rating = rows[user.id].rating if user.id in rows else ranks.rating_for_rank_number(rank)
            if existing is not None:  # back after withdrawing, from the next round
                existing.status, existing.left_round, existing.registered_round = "active", None, next_round
            else:
                repo.add_entrant(
                    session,
                    TournamentEntrant(
                        tournament_id=t.id,
                        user_id=user.id,
                        name=user.name,
                        rating=rating,
                        rank=min(max(whole, LOWEST_RANK), TOP_RANK),
                        registered_round=next_round,
                        status="active",
                    ),
                )
            repo.touch(t)
            version = t.version
            await session.commit()
        await self._announce(tournament_id, version, "registered", None)
        return {"registered": True, "from_round": next_round}

    async def withdraw(self, user: User, tournament_id: str, body: Withdraw) -> dict[str, Any]:
        """Leave the event: never paired again; of the player's unfinished games in it, those named in
        ``finish`` are played out, every other one is resigned for them."""
        async with self.sessionmaker() as session:
            t = await self._locked(session, tournament_id)
            entrant = await repo.entrant(session, t.id, user.id)
            if entrant is None or entrant.status != "active":
                raise Conflict("not_registered", "You are not playing in this tournament.")
            boards = await repo.pairings(session, t.id)
            games = await repo.games_of(session, [b.game_id for b in boards if b.game_id])
            running = [
                b.game_id
                for b in boards
                if b.game_id and user.id in (b.black_id, b.white_id) and games[b.game_id].status != "finished"
            ]
            unknown = set(body.finish) - set(running)
            if unknown:
                raise ServiceError("not_your_game", "Only your unfinished games in this tournament can be kept.", 422)
            entrant.status = "withdrawn"
            entrant.left_round = await self._round_to_pair(session, t) or t.rules["rounds"] + 1
            repo.touch(t)
            version = t.version
            await session.commit()
        resigned = [g for g in running if g not in body.finish]
        for game_id in resigned:
            await self.end_game(game_id, user.id)
        await self._announce(tournament_id, version, "withdrawn", None)
        return {"withdrawn": True, "resigned": resigned, "finishing": list(body.finish)}

    async def check_in(self, user: User, tournament_id: str) -> dict[str, Any]:
        now = self.clock()
        async with self.sessionmaker() as session:
            t = await self._locked(session, tournament_id)
            if t.checkin_seconds <= 0:
                raise Conflict("checkin_not_required", "This tournament has no check-in: everyone registered plays.")
            entrant = await repo.entrant(session, t.id, user.id)
            if entrant is None or entrant.status != "active":
                raise Conflict("not_registered", "You are not playing in this tournament.")
            number = await self._round_to_pair(session, t)
            rnd = await repo.get_round(session, t.id, number) if number is not None else None
            if number is None or rnd is None:
                raise Conflict("checkin_closed", "No round is left to check in for.")
            opens, closes = rounds.checkin_window(t, rnd)
            if now < opens:
                raise Conflict("checkin_not_open", f"Check-in for round {number} opens at {opens.isoformat()}.")
            if now >= closes or t.status == "paused":
                raise Conflict("checkin_closed", f"Check-in for round {number} is closed.")
            if entrant.registered_round > number:
                raise Conflict("not_registered", f"You play from round {entrant.registered_round}.")
            await repo.check_in(session, t.id, number, user.id)
            repo.touch(t)
            version = t.version
            await session.commit()
        await self._announce(tournament_id, version, "checked_in", number)
        return {"checked_in": True, "round": number}

    # ---- directors

    async def pause(self, user: User, tournament_id: str, reason: str) -> dict[str, Any]:
        async with self.sessionmaker() as session:
            t = await self._directed(session, tournament_id, user)
            if t.status != "running":
                raise Conflict("not_running", "Only a running tournament can be paused.")
            t.status, t.paused_at = "paused", self.clock()
            await self._audit(session, t, user, "pause", reason)
            version = t.version
            await session.commit()
        await self._announce(tournament_id, version, "paused", None)
        return {"status": "paused"}

    async def resume(self, user: User, tournament_id: str, reason: str) -> dict[str, Any]:
        """Running again; every round not started yet moves later by the time the event was paused."""
        now = self.clock()
        async with self.sessionmaker() as session:
            t = await self._directed(session, tournament_id, user)
            if t.status != "paused" or t.paused_at is None:
                raise Conflict("not_paused", "The tournament is not paused.")
            shift = now - t.paused_at
            for rnd in await repo.rounds(session, t.id):
                if rnd.status in ("pending", "paired"):
                    rnd.starts_at = rnd.starts_at + shift
            t.status, t.paused_at = "running", None
            await self._audit(session, t, user, "resume", reason, details={"shifted_seconds": shift.total_seconds()})
            version = t.version
            await session.commit()
        await self._announce(tournament_id, version, "resumed", None)
        return {"status": "running", "shifted_seconds": shift.total_seconds()}

    async def repair(self, user: User, tournament_id: str, number: int, body: Repair) -> dict[str, Any]:
        """Pair a round again before it starts (its games do not exist yet), from the store as it is now (a
        withdrawal, a check-in, a disqualification since) and with ``seed`` if given, the reason recorded."""
        async with self.sessionmaker() as session:
            t = await self._directed(session, tournament_id, user)
            rnd = await repo.get_round(session, t.id, number)
            if rnd is None:
                raise NotFound("round_not_found", "No such round.")
            if rnd.status != "paired":
                raise Conflict("round_not_repairable", "Only a round paired and not started yet can be paired again.")
            before = rnd.digest
            await repo.clear_round(session, t.id, number)
            if body.seed is not None:
                rnd.seed = body.seed
            if await rounds.pair(session, t, rnd, self.clock()) != "paired":
                raise Conflict("round_not_repairable", "This round cannot be paired now.")
            rnd.repaired_reason = body.reason
            await self._audit(
                session,
                t,
                user,
                "repair",
                body.reason,
                number,
                details={"digest_before": before, "digest": rnd.digest, "seed": rnd.seed},
            )
            version = t.version
            await session.commit()
        await self._announce(tournament_id, version, "repaired", number)
        return {"round": number, "digest": rnd.digest}

    async def set_result(self, user: User, tournament_id: str, pairing_id: int, body: SetResult) -> dict[str, Any]:
        """The director's result for a board (an unfinished game past the deadline, a correction): it stands,
        and the game's own end later does not replace it."""
        async with self.sessionmaker() as session:
            t = await self._directed(session, tournament_id, user)
            board = await repo.pairing(session, pairing_id)
            if board is None or board.tournament_id != t.id:
                raise NotFound("pairing_not_found", "No such board in this tournament.")
            rnd = await repo.get_round(session, t.id, board.round)
            if rnd is None or rnd.status not in ("started", "finished"):
                raise Conflict("round_not_started", "A result is set once the round has started.")
            before = board.outcome
            await repo.set_outcome(session, board.id, body.outcome, "director", body.by_forfeit)
            await self._audit(
                session,
                t,
                user,
                "set_result",
                body.reason,
                board.round,
                details={"pairing_id": board.id, "before": before, "outcome": body.outcome},
            )
            finished = await rounds.settle_round(session, t, board.round)
            await self._finish_if_done(session, t)
            version = t.version
            await session.commit()
        await self._announce(tournament_id, version, "round_finished" if finished else "result", board.round)
        return {"pairing_id": pairing_id, "outcome": body.outcome}

    async def disqualify(self, user: User, tournament_id: str, name: str, reason: str) -> dict[str, Any]:
        """Out of the event from the next round, every unfinished game of theirs in it lost."""
        async with self.sessionmaker() as session:
            t = await self._directed(session, tournament_id, user)
            target = await users.get_by_name_key(session, name.lower())
            entrant = await repo.entrant(session, t.id, target.id) if target is not None else None
            if target is None or entrant is None:
                raise NotFound("not_an_entrant", "No such player in this tournament.")
            if entrant.status == "disqualified":
                raise Conflict("already_disqualified", "That player is disqualified already.")
            entrant.status = "disqualified"
            entrant.left_round = await self._round_to_pair(session, t) or t.rules["rounds"] + 1
            boards = await repo.pairings(session, t.id)
            games = await repo.games_of(session, [b.game_id for b in boards if b.game_id])
            running = [
                b.game_id
                for b in boards
                if b.game_id and target.id in (b.black_id, b.white_id) and games[b.game_id].status != "finished"
            ]
            await self._audit(session, t, user, "disqualify", reason, target=target, details={"games_ended": running})
            version = t.version
            await session.commit()
            target_id = target.id
        for game_id in running:
            await self.end_game(game_id, target_id)
        await self._announce(tournament_id, version, "disqualified", None)
        return {"disqualified": name, "games_ended": running}

    async def add_co_director(self, user: User, tournament_id: str, name: str) -> dict[str, Any]:
        async with self.sessionmaker() as session:
            t = await self._directed(session, tournament_id, user, owner_only=True)
            target = await users.get_by_name_key(session, name.lower())
            if target is None or target.is_guest:
                raise NotFound("user_not_found", "No such registered player.")
            if not await repo.add_director(session, t.id, target.id):
                raise Conflict("already_director", "That player directs this tournament already.")
            await self._audit(session, t, user, "add_co_director", f"co-director {target.name}", target=target)
            version = t.version
            await session.commit()
        await self._announce(tournament_id, version, "directors", None)
        return {"co_director": name}

    # ---- the scheduler's work (every instance, every tick)

    async def tick(self) -> None:
        """Move every event on: registration -> running when round 1 is to be paired; each round paired at its
        pairing time, started at its start, finished once every board has its outcome; results of games that
        ended without this instance hearing of it. Each step is claimed, so instances never repeat one."""
        now = self.clock()
        async with self.sessionmaker() as session:
            opening = await repo.open_tournament_ids(session)
            due = await repo.due_rounds(session)
            ended = await repo.finished_without_outcome(session)
        for tid in opening:
            await self._guarded(self._open(tid, now))
        for _board, game in ended:
            await self._guarded(self.game_finished(game.id))
        seen: dict[str, int] = {}
        for tid, number, status, starts_at, lead in sorted(due, key=lambda d: d[1]):
            seen[tid] = seen.get(tid, 0) + 1
            if seen[tid] > 2:  # a started round and the one after it: later ones wait their turn
                continue
            if status == "started" or now >= starts_at - timedelta(seconds=lead if status == "pending" else 0):
                await self._guarded(self._step(tid, number, now))

    async def _guarded(self, step: Awaitable[None]) -> None:
        try:
            await step
        except Exception:  # the next tick tries again
            log.warning("tournament step failed; the next tick retries it", exc_info=True)

    async def _open(self, tournament_id: str, now: datetime) -> None:
        async with self.sessionmaker() as session:
            t = await repo.lock(session, tournament_id)
            first = await repo.get_round(session, tournament_id, 1) if t is not None else None
            if t is None or first is None or t.status != "registration" or now < rounds.pairing_time(t, first):
                return
            t.status = "running"
            repo.touch(t)
            await session.commit()

    async def _step(self, tournament_id: str, number: int, now: datetime) -> None:
        announce: tuple[int, Change] | None = None
        started: list[str] = []
        async with self.sessionmaker() as session:
            t = await repo.lock(session, tournament_id)
            rnd = await repo.get_round(session, tournament_id, number)
            if t is None or rnd is None or t.status != "running":
                return
            if rnd.status == "pending" and now >= rounds.pairing_time(t, rnd):
                earlier = await repo.get_round(session, t.id, number - 1) if number > 1 else None
                if earlier is not None and earlier.status in ("pending", "paired"):
                    return  # rounds go in order
                if not await repo.claim_round(session, t.id, number, "pending", "paired"):
                    return
                await session.refresh(rnd)
                outcome = await rounds.pair(session, t, rnd, now)
                if outcome == "wait":
                    await session.rollback()
                    return
                if outcome == "over":
                    await self._close_rounds(session, t, number)
                    announce = (t.version, "finished")
                else:
                    repo.touch(t)
                    announce = (t.version, "paired")
            elif rnd.status == "paired" and now >= rnd.starts_at:
                deadline = now + timedelta(seconds=t.deadline_seconds)
                if not await repo.claim_round(session, t.id, number, "paired", "started", started_at=now, deadline_at=deadline):
                    return
                started = await rounds.start_games(session, t, number)
                await rounds.settle_round(session, t, number)  # a round of byes alone is over at once
                await self._finish_if_done(session, t)
                repo.touch(t)
                announce = (t.version, "started")
            elif rnd.status == "started":
                if await rounds.settle_round(session, t, number):
                    await self._finish_if_done(session, t)
                    repo.touch(t)
                    announce = (t.version, "finished" if t.status == "finished" else "round_finished")
            if announce is None:
                return
            await session.commit()
        await self._games_started(started)
        await self._announce(tournament_id, announce[0], announce[1], number)

    async def _close_rounds(self, session: AsyncSession, t: Tournament, from_number: int) -> None:
        """Nothing is left to pair (an elimination bracket is decided): the rounds from here are dropped."""
        for rnd in await repo.rounds(session, t.id):
            if rnd.number >= from_number and rnd.status in ("pending", "paired"):
                await session.delete(rnd)
        await session.flush()
        t.rules = {**t.rules, "rounds": from_number - 1}
        await self._finish_if_done(session, t, force=True)
        repo.touch(t)

    async def _finish_if_done(self, session: AsyncSession, t: Tournament, force: bool = False) -> None:
        all_rounds = await repo.rounds(session, t.id)
        if force or (all_rounds and all(r.status == "finished" for r in all_rounds)):
            t.status = "finished"

    async def _games_started(self, game_ids: list[str]) -> None:
        for game_id in game_ids:
            try:
                async with self.sessionmaker() as session:
                    row = await games_repo.get_with_players(session, game_id)
                if row is not None:
                    await game_started(self.hub, self.lobby, row)
            except Exception:  # the rooms' sweep arms its deadline later
                log.warning("tournament game %s: its start was not announced", game_id, exc_info=True)

    async def game_finished(self, game_id: str) -> None:
        """Record a tournament game's outcome as it ends (not over a director's result), and finish its round
        when it was the last. Called by the room that ended it, and by the tick for any it missed."""
        async with self.sessionmaker() as session:
            board = await repo.pairing_of_game(session, game_id)
            if board is None or board.outcome is not None:
                return
            t = await repo.lock(session, board.tournament_id)
            game = (await repo.games_of(session, [game_id])).get(game_id)
            if t is None or game is None or game.status != "finished":
                return
            if not await repo.set_outcome(session, board.id, rounds.outcome_of(game), "game", only_if_open=True):
                return
            finished = await rounds.settle_round(session, t, board.round)
            if finished:
                await self._finish_if_done(session, t)
            repo.touch(t)
            version, tid, number = t.version, t.id, board.round
            await session.commit()
        await self._announce(tid, version, "round_finished" if finished else "result", number)

    # ---- shared steps

    async def _get(self, session: AsyncSession, tournament_id: str) -> Tournament:
        t = await repo.get(session, tournament_id)
        if t is None:
            raise NotFound("tournament_not_found", "No such tournament.")
        return t

    async def _locked(self, session: AsyncSession, tournament_id: str) -> Tournament:
        t = await repo.lock(session, tournament_id)
        if t is None:
            raise NotFound("tournament_not_found", "No such tournament.")
        return t

    async def _directed(self, session: AsyncSession, tournament_id: str, user: User, owner_only: bool = False) -> Tournament:
        t = await self._locked(session, tournament_id)
        if user.id != t.director_id and (owner_only or user.id not in await repo.directors(session, t.id)):
            raise Forbidden("not_director", "Only the tournament's directors may do that.")
        return t

    @staticmethod
    def _next_round(all_rounds: list[TournamentRound]) -> int | None:
        return next((r.number for r in all_rounds if r.status == "pending"), None)

    async def _round_to_pair(self, session: AsyncSession, t: Tournament) -> int | None:
        """The first round not paired yet (None: every round is paired)."""
        return self._next_round(await repo.rounds(session, t.id))

    async def _audit(
        self,
        session: AsyncSession,
        t: Tournament,
        user: User,
        action: str,
        reason: str,
        round_number: int | None = None,
        target: User | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        await repo.audit(
            session,
            TournamentAudit(
                tournament_id=t.id,
                actor_id=user.id,
                actor=user.name,
                action=action,
                round=round_number,
                target_user_id=target.id if target is not None else None,
                reason=reason,
                details=details,
            ),
        )
        repo.touch(t)

    async def _announce(self, tournament_id: str, version: int, what: Change, number: int | None) -> None:
        try:
            await self.lobby.publish(
                TournamentChanged(tournament_id=tournament_id, version=version, what=what, round=number).wire()
            )
        except Exception:  # the page reads the event again on its next visit
            log.warning("tournament %s: tournament_changed was not published", tournament_id, exc_info=True)


def input_from_json(data: dict[str, Any]) -> RoundInput:
    """A recorded round input back as the core's value (the inverse of ``dataclasses.asdict``)."""
    rules = TournamentRules(**{**data["rules"], "tiebreaks": tuple(data["rules"]["tiebreaks"])})

    def why(w: dict[str, Any] | None) -> Why | None:
        if w is None:
            return None
        return Why(w["rule"], tuple(w.get("notes", ())), tuple(tuple(f) for f in w.get("figures", ())))

    return RoundInput(
        rules=rules,
        entrants=tuple(Entrant(**e) for e in data["entrants"]),
        round=data["round"],
        absent=tuple(data["absent"]),
        withdrawn=tuple(data["withdrawn"]),
        results=tuple(Result(**r) for r in data["results"]),
        byes=tuple(Bye(b["round"], b["player"], b["kind"], why(b.get("why"))) for b in data["byes"]),
        everyone=tuple(Entrant(**e) for e in data["everyone"]),
    )
