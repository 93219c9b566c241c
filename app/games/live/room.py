"""A live game room on one instance: the authority's state, the sockets here, and the commit path.

The database is the truth. A room applies an action by (1) catching up with any events other instances
committed, (2) asking the authority, (3) committing the events with a compare-and-set on the game's version,
then (4) acknowledging and (5) publishing them through the hub, in version order, from a task of its own.
A lost race re-reads and decides again. Every instance holding sockets for the game subscribes to its hub
channel and hands each event to its sockets as their seat may see it.

Around the acting room, one module per concern: the game as this instance knows it and its catching up
(game_state.py), the sockets and presence (audience.py), the way to the hub (outbox.py), what a socket missed
(catchup.py) and what an action came to (outcome.py). One module over 400 lines all the same: acting (the lock,
the authority's answer, the commit and its retries, the acknowledgement) is one sequence under one lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from app.errors import ServiceError
from app.games.authority import SYSTEM, GameAuthority
from app.games.errors import GameError, ProposalNeeded
from app.games.events import build
from app.games.live.audience import Audience
from app.games.live.catchup import SocketCatchUp
from app.games.live.outcome import Outcome
from app.games.live.proposals import DeadStoneProposer
from app.games.live.rows import rows_for, with_turn
from app.games.live.state import GameState, game_config
from app.games.live.turns_lock import TurnsLock
from app.games.visibility import chat_visible, public, split
from app.lobby.starting import create_rematch
from app.lobby.views import player_view
from app.metrics import Metrics
from app.games.messages import NOT_A_PLAYER_MESSAGE, ClockTick, GameView, Snapshot
from app.transport.messages import encode
from app.ratings.lookup import display_ranks
from app.ratings.verdict import Verdict, verdict
from app.store.db import is_connection_lost
from app.store.ids import short_id
from app.store.repositories import games as games_repo
from app.store.repositories.games import NewEvent, VersionConflict
from app.transport.connection import Connection, TokenBucket
from app.transport.envelope import unpack
from app.games.live.channel import deadline_key, game_channel
from app.transport.outbox import Outbox
from app.transport.room_deps import RoomDeps

log = logging.getLogger(__name__)

Clock = Callable[[], float]
CONFLICT_RETRIES = 5
# Refusals that re-read the database when the hub knows of nothing newer, per room: a few a second is far more
# than play needs (one per move at most), and bounds what a flood of refused actions costs the game.
REFUSAL_REREADS_PER_SECOND = 4.0
REFUSAL_REREADS_BURST = 10.0
SNAPSHOT_CHAT_LINES = 50  # chat lines a snapshot carries; older ones are paged over HTTP


@dataclass(frozen=True, slots=True)
class GameHooks:
    """What a game's rooms tell the rest of the server: given once to the instance's rooms (rooms.py) and by
    them to each room, beside the ``RoomDeps`` every room of any domain is built from."""

    metrics: Metrics | None = None
    on_finished: Callable[[str, dict[str, Any]], Any] | None = None  # (game id, its result), once it ended
    on_rematch: Callable[[str, str], Any] | None = None  # (new game id, this game's id), after the rematch commits
    on_committed: Callable[[Room, list[dict[str, Any]]], Any] | None = None  # (the room, the events), after each commit


NO_HOOKS = GameHooks()  # a room nobody else hears from (tests, benches)


class Room:
    def __init__(
        self, game_id: str, deps: RoomDeps, hooks: GameHooks = NO_HOOKS, proposer: DeadStoneProposer | None = None
    ) -> None:
        self.game_id = game_id
        self.on_committed = hooks.on_committed
        # Computes the dead-stone proposal away from the loop (None: the authority computes it in place).
        self.proposer = proposer
        self.on_rematch = hooks.on_rematch
        self.metrics = hooks.metrics
        self.channel = game_channel(game_id)
        self.hub = hub = deps.hub
        self.sessionmaker = sessionmaker = deps.sessionmaker
        self.clock = deps.clock
        self.on_finished = hooks.on_finished
        self.lock = TurnsLock()  # chat waits behind the game's actions (app/games/live/turns_lock.py)
        self.state = GameState(game_id, sessionmaker, hooks.metrics, self._rebuilt)
        self.players: dict[str, dict[str, Any]] = {}
        self.user_seats: dict[int, str] = {}
        self.audience = Audience(hub, self.channel, self._presence_seen)
        self.outbox = Outbox(hub, self.channel, deadline_key(game_id), split)
        self.catchup = SocketCatchUp(hub, self.channel, sessionmaker, game_id, self.outbox)
        self._unsubscribe: Callable[[], Any] | None = None
        self.practice = False  # one user on both sides: see _actors
        # Whether the game counts for the ratings (app/ratings/verdict.py), as the last snapshot read it.
        self.counts = Verdict(False, "casual")
        self._rereads = TokenBucket(rate=REFUSAL_REREADS_PER_SECOND, burst=REFUSAL_REREADS_BURST)

    # The game as this instance knows it (app/games/live/state.py).
    @property
    def v(self) -> int:
        return self.state.v

    @property
    def authority(self) -> GameAuthority | None:
        return self.state.authority

    @property
    def chat(self) -> list[dict[str, Any]]:
        return self.state.chat

    @property
    def seen(self) -> dict[tuple[int | None, str], int]:
        return self.state.seen

    @property
    def connections(self) -> set[Connection]:
        return self.audience.connections

    @property
    def presence(self) -> dict[str, Any]:
        return self.audience.presence

    # ------------------------------------------------------------------ loading and catching up

    async def load(self) -> bool:
        """Build the room from the database. False when there is no such game."""
        async with self.sessionmaker() as session:
            row = await games_repo.get_with_players(session, self.game_id)
            if row is None:
                return False
            shown = await display_ranks(session, [row.black.id, row.white.id])
            self.players = {
                "B": player_view(row.black, shown),
                "W": player_view(row.white, shown),
            }
            self.user_seats = {row.black.id: "B", row.white.id: "W"}
            self.counts = verdict(row)
            self.practice = row.black.id == row.white.id
            created = row.game.started_at.timestamp()
            authority = self.state.authority = GameAuthority(game_config(row), created)
            await self.state.absorb(session)
            phase = authority.phase
            if row.game.status != phase and "finished" not in (phase, row.game.status):
                # Stored before every phase change was kept in the status (scoring, adjourned): put it right.
                await games_repo.set_status(session, self.game_id, phase, self.v)
        self._unsubscribe = await self.hub.subscribe(self.channel, self._on_hub, self._on_reset)
        await self.audience.refresh(publish=False)
        await self._update_deadline()
        return True

    # ------------------------------------------------------------------ hub delivery

    async def _on_hub(self, data: bytes) -> None:
        envelope = unpack(data)
        if envelope.vis == "presence":
            self.audience.apply(orjson.loads(envelope.visible))
        if self.state.hear(envelope):
            asyncio.get_running_loop().create_task(self._catch_up())
        self.audience.deliver(envelope)

    async def _on_reset(self) -> None:
        # The hub may have dropped messages (a reconnect, a subscriber that fell behind): catch up, then hand
        # every socket the latest event. No later event may come to reveal the gap to them.
        self.state.stale = True
        await self._catch_up()
        await self._redeliver_latest()

    async def _redeliver_latest(self) -> None:
        """Push each socket the latest committed event: it skips it if already sent, else first fills its gap."""
        latest = self.v
        if latest == 0:
            return
        texts: dict[str | None, str | None] = {}
        for conn in list(self.connections):
            if conn.role not in texts:
                try:
                    found = await self.texts_since(conn.role, latest - 1, latest)
                except Exception:  # the socket fills the gap with the next event instead
                    log.warning("game %s: re-delivery after a hub reset failed", self.game_id, exc_info=True)
                    return
                texts[conn.role] = found[-1][1] if found and found[-1][0] == latest else None
            text = texts[conn.role]
            if text is not None:
                conn.push(text, latest)

    async def _catch_up(self) -> None:
        async with self.lock:
            state = self.state
            if state.behind or state.broken or state.carried:
                try:
                    if await state.ensure_current():
                        await self._update_deadline()  # the instance that committed may have died before it did
                except Exception:  # still stale: the next action or event tries again
                    log.warning("game %s: catching up failed", self.game_id, exc_info=True)

    async def texts_since(self, seat: str | None, after_v: int, upto_v: int | None = None) -> list[tuple[int, str]]:
        """The versioned texts after ``after_v`` as ``seat`` sees them (app/games/live/catchup.py)."""
        return await self.catchup.texts_since(seat, after_v, upto_v)

    # ------------------------------------------------------------------ sockets

    def seat_of(self, user_id: int | None) -> str | None:
        return None if user_id is None else self.user_seats.get(user_id)

    async def attach(self, conn: Connection, since_v: int | None) -> None:
        """Add a socket: a snapshot, or (with ``?v=N``) exactly the events after N."""
        self.audience.add(conn)
        conn.start(lambda after, upto: self.texts_since(conn.role, after, upto))
        async with self.lock:
            await self.state.ensure_current()
            logged = None
            if since_v is not None and 0 <= since_v <= self.v:
                logged = await self.catchup.logged_since(conn.role, since_v, self.v)
            if logged is not None and since_v is not None:
                conn.push_start(None, since_v)
                for v, text in logged:
                    conn.push(text, v)
            else:
                # A first connection, or a range the recent-event log cannot prove it holds whole (trimmed,
                # lost, never logged here, or newer than the game): one snapshot replaces the client's state.
                await self._read_counts()
                conn.push_start(encode(self.snapshot_message(conn, resync=since_v is not None)).decode(), self.v)
        await self.audience.joined(conn)

    async def detach(self, conn: Connection) -> None:
        await self.audience.remove(conn)

    def _presence_seen(self, presence: dict[str, Any]) -> None:
        """Presence as the hub announced it: the authority learns who left and returned (abandonment claims)."""
        if self.authority is None:
            return
        now = self.clock()
        for color, here in presence["players"].items():
            if here:
                self.authority.player_returned(color, now)
            else:
                self.authority.player_left(color, now)

    async def _read_counts(self) -> None:
        """Whether a finished game counted, read when a snapshot is made: its rating update, or a moderator's
        annulment on any instance, comes after the game's last event, so no event brings it to this room."""
        if self.authority is not None and self.authority.phase == "finished":
            async with self.sessionmaker() as session:
                row = await games_repo.get_with_players(session, self.game_id)
            if row is not None:
                self.counts = verdict(row)

    def snapshot_message(self, conn: Connection, resync: bool = False) -> Snapshot:
        assert self.authority is not None
        seat = conn.role
        game = self.authority.snapshot(seat, self.clock())
        finished = game["phase"] == "finished"
        game.update(
            id=self.game_id,
            players=self.players,
            rated=self.counts.rated,
            unrated_reason=self.counts.reason,
            presence=self.presence["players"],
            spectators=self.presence["spectators"],
        )
        game.update(self._snapshot_chat(seat, finished))
        user = None if conn.user_id is None else {"id": conn.user_id, "name": conn.user_name}
        role = "practice" if self.practice and seat is not None else {"B": "black", "W": "white"}.get(seat or "", "spectator")
        game["practice"] = self.practice
        return Snapshot(
            v=self.v, resync=resync, you={"role": role, "color": seat, "user": user}, game=GameView.model_validate(game)
        )

    def _snapshot_chat(self, seat: str | None, finished: bool) -> dict[str, Any]:
        """The newest ``SNAPSHOT_CHAT_LINES`` lines this seat may see; older ones are paged over HTTP
        (``GET /api/games/{id}/chat?before=<v>``), so a flood of chat never makes every snapshot huge."""
        lines: list[dict[str, Any]] = []
        more = False
        for c in reversed(self.chat):
            if chat_visible(c, seat, finished):
                if len(lines) == SNAPSHOT_CHAT_LINES:
                    more = True
                    break
                lines.append(public(c, c["v"]))
        lines.reverse()
        return {"chat": lines, "chat_more": more}

    def clock_tick(self) -> bytes | None:
        if self.authority is None or self.authority.phase != "playing":
            return None
        now = self.clock()
        clocks = self.authority.clock.view(now)
        if clocks is None:
            return None
        return encode(ClockTick(clocks=clocks, server_time=now))

    # ------------------------------------------------------------------ acting

    async def act(
        self, conn: Connection | None, client_id: str | None, action: dict[str, Any], facts: dict[str, Any] | None = None
    ) -> Outcome:
        """Apply one action for ``conn``'s seat (None: the server itself); the endpoint encodes the outcome."""
        uid = None if conn is None else conn.user_id
        actor = SYSTEM if conn is None else conn.role
        if actor is None and action["t"] != "chat":
            # A spectator's game action: refused on the seat alone, which never changes; no lock, no I/O.
            return Outcome.refused(client_id, "not_a_player", NOT_A_PLAYER_MESSAGE)
        rechecked = False
        # A chat line waits for the lock behind every action of the game: a move never waits for chat lines
        # queued before it, only for the one commit holding the lock.
        lock = self.lock.behind() if action["t"] == "chat" else self.lock
        for _ in range(CONFLICT_RETRIES):
            async with lock:
                try:
                    await self.state.ensure_current()
                except Exception:  # the database is unreachable: refuse, the client retries
                    log.warning("game %s: cannot read the database", self.game_id, exc_info=True)
                    return self._unavailable(client_id)
                if client_id is not None and (uid, client_id) in self.seen:
                    return Outcome.ack(client_id, self.seen[(uid, client_id)])
                assert self.authority is not None
                now = self.clock()
                try:
                    if action["t"] == "chat":
                        events = [self._chat_event(conn, action, now)]
                    elif action["t"] == "chat_removed" and conn is None:  # a moderator's (app/moderation)
                        events = [build("chat_removed", {"lines": list(action["lines"])})]
                    else:
                        events = await self._apply_proposing(actor, action, now, facts)
                except GameError as exc:
                    # Refused on what this instance knows: if another instance committed meanwhile (its event
                    # may still be on its way through the hub, or not yet published), re-read and decide again.
                    # The database is read when the hub has logged a newer version, and otherwise within
                    # REFUSAL_REREADS_PER_SECOND: a flood of refused actions must not hold the lock on reads.
                    if not rechecked:
                        rechecked, known = True, self.v
                        try:
                            if await self._worth_rereading():
                                await self.state.sync()
                        except Exception:  # a refusal not checked against the store may be wrong
                            log.warning("game %s: cannot re-read the database", self.game_id, exc_info=True)
                            return self._unavailable(client_id)
                        if self.v != known:
                            continue
                    return Outcome.refused(client_id, exc.code, exc.message, getattr(exc, "reason", None))
                if not events:
                    if conn is None:
                        # A tick that found nothing due (the claim moved the deadline a lease ahead): arm the
                        # game's real deadline again, or its flag would fall a lease late.
                        await self._update_deadline()
                    return Outcome.ack(client_id, self.v)
                if client_id is not None:
                    events[0]["_cid"] = client_id
                    events[0]["_uid"] = uid
                    events[0]["_ack"] = self.v + len(events)
                # The authority has applied the action in memory: until the commit succeeds, that state is
                # not the truth, so any failure below leaves the room to be rebuilt from the database.
                self.state.broken = True
                try:
                    await self._commit(events)
                except VersionConflict:
                    with contextlib.suppress(Exception):
                        await self.state.rebuild()  # a lost race: re-read and decide again
                    continue
                except ServiceError as exc:  # refused where it takes effect (a rematch between blocked players)
                    with contextlib.suppress(Exception):
                        await self.state.rebuild()
                    return Outcome.refused(client_id, exc.code, exc.message)
                except Exception:  # not saved, or not known to be saved: never acknowledged
                    log.warning("game %s: commit failed", self.game_id, exc_info=True)
                    with contextlib.suppress(Exception):
                        await self.state.rebuild()
                    return self._unavailable(client_id)
                self.state.broken = False
                first = self.v + 1
                for event in events:
                    self.state.absorb_committed(event)
                self._record(action, events, first)
                self._send_out(events, first)
                if client_id is not None:
                    self.seen[(uid, client_id)] = self.v
                ack_v = self.v
            await self._after_commit(events)
            return Outcome.ack(client_id, ack_v)
        return Outcome.refused(client_id, "busy", "the game is busy; try again")

    async def _worth_rereading(self) -> bool:
        """Whether a refusal should re-read the database first (call with the lock held)."""
        newest = await self.hub.newest(self.channel)
        if newest is not None and newest > self.v:
            return True
        return self._rereads.take()

    def _record(self, action: dict[str, Any], events: list[dict[str, Any]], first_v: int) -> None:
        """Count and log committed events (their types and versions, never chat text)."""
        if self.metrics is not None:
            self.metrics.events_committed(events)
        if log.isEnabledFor(logging.INFO):
            log.info(
                "applied %s",
                action["t"],
                extra={
                    "game_id": self.game_id,
                    "action": action["t"],
                    "v": first_v,
                    "events": [event.get("t") for event in events],
                },
            )

    async def _apply_proposing(
        self, actor: str | None, action: dict[str, Any], now: float, facts: dict[str, Any] | None
    ) -> list[dict[str, Any]]:
        """``_apply``; when the action starts scoring, the dead-stone proposal is computed off the event loop
        (only this game waits for it, under its lock) and the action is applied again carrying it as the fact
        ``dead``, which is stored with the action so that a replay never computes it again."""
        assert self.authority is not None
        self.authority.defer_proposals = self.proposer is not None
        try:
            try:
                return self._apply(actor, action, now, facts)
            except ProposalNeeded as needed:
                assert self.proposer is not None
                if needed.second_opinion:  # a player asked KataGo: its answer, or a refusal (GameError)
                    proposal = await self.proposer.second_opinion(needed.game)
                else:
                    proposal = await self.proposer.propose(needed.game)
            assert self.authority is not None  # the lock is held: nothing replaced it meanwhile
            return self._apply(actor, action, now, {**(facts or {}), **proposal})
        finally:
            if self.authority is not None:
                self.authority.defer_proposals = False

    def _apply(self, actor: str | None, action: dict[str, Any], now: float, facts: dict[str, Any] | None) -> list[dict[str, Any]]:
        """Ask the authority; each applied action rides on its first event so that replay repeats it."""
        assert self.authority is not None
        if action["t"] in ("rematch_offer", "rematch_accept", "rematch_decline"):
            if self.practice:
                raise GameError("not_allowed", "a practice game has no rematch")
            # The rematch's game is created in the same commit as the event that names it (see _commit).
            facts = {**(facts or {}), "game_id": short_id()}
        events: list[dict[str, Any]] = []
        for who in self._actors(actor, action):
            before = len(self.authority.log)
            try:
                step = self.authority.apply(who, action, now, facts)
            except GameError:
                if events:
                    break  # practice: what was already applied stands (e.g. one colour's acceptance)
                raise
            if step and len(self.authority.log) > before:
                step[0]["_action"] = self.authority.log[-1]
            events += step
        return events

    def _actors(self, actor: str | None, action: dict[str, Any]) -> list[str | None]:
        """Practice mode (one user on both sides): the seat acts as the side to move, and accepts for both."""
        assert self.authority is not None
        if not self.practice or actor not in ("B", "W"):
            return [actor]
        if action["t"] == "accept_score":
            return [c for c in ("B", "W") if not self.authority.accepted.get(c)] or [actor]
        return [self.authority.game.to_move]

    @staticmethod
    def _unavailable(client_id: str | None) -> Outcome:
        return Outcome.refused(client_id, "unavailable", "the game could not be saved right now; send the move again")

    def _chat_event(self, conn: Connection | None, action: dict[str, Any], now: float) -> dict[str, Any]:
        assert self.authority is not None and conn is not None
        channel = action["channel"]
        finished = self.authority.phase == "finished"
        if channel == "spectators" and conn.role is not None and not finished:
            raise GameError("not_allowed", "players cannot write in the spectators' chat during the game")
        if channel == "players" and conn.role is None:
            raise GameError("not_allowed", "only the players write in the players' chat")
        if conn.user_id is None:
            raise GameError("not_authenticated", "load the site once to get a name before chatting")
        line = build(
            "chat",
            {
                "channel": channel,
                # A player's line carries their rank, as the board's player cards show it.
                "from": {
                    "id": conn.user_id,
                    "name": conn.user_name,
                    "rank": self.players[conn.role].get("rank") if conn.role in self.players else None,
                },
                "text": action["text"],
                "at": now,
            },
        )
        line["visibility"] = "spectators" if channel == "spectators" and not finished else "all"
        return line

    async def _commit(self, events: list[dict[str, Any]]) -> None:
        assert self.authority is not None
        new = with_turn([NewEvent(type=e["t"], payload=e, **rows_for(e)) for e in events], self.authority)
        rematch = next((e["game_id"] for e in events if e["t"] == "rematch"), None)
        if rematch is not None:
            # The new game (colours swapped, this game's stored settings) and the event naming it: one commit.
            async with self.sessionmaker() as session:
                await create_rematch(session, self.game_id, rematch)
                await games_repo.append(session, self.game_id, self.v, new)
            return
        try:
            await games_repo.append(self.sessionmaker, self.game_id, self.v, new)
        except Exception as exc:
            if not is_connection_lost(exc):
                raise
            # A pooled connection had died unnoticed (it has been dropped since): once more on another one.
            # Safe even if the first attempt did commit: the compare-and-set then refuses this one.
            await games_repo.append(self.sessionmaker, self.game_id, self.v, new)

    def _rebuilt(self) -> None:
        """After the state was rebuilt from the database: the new authority learns who is present."""
        self._presence_seen(dict(self.presence))

    def _send_out(self, events: list[dict[str, Any]], first_v: int) -> None:
        """Queue committed events for the hub with the clock deadline they leave (see app/transport/outbox.py)."""
        assert self.authority is not None
        self.outbox.send(events, first_v, self.authority.deadline())

    async def _after_commit(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event.get("t") == "rematch" and self.on_rematch is not None:
                started = self.on_rematch(event["game_id"], self.game_id)
                if asyncio.iscoroutine(started):
                    await started
            if event.get("t") == "game_over" and self.on_finished is not None:
                result = self.on_finished(self.game_id, event["result"])
                if asyncio.iscoroutine(result):
                    await result
        if self.on_committed is not None:
            self.on_committed(self, events)

    async def _update_deadline(self) -> None:
        await self.outbox.set_deadline(None if self.authority is None else self.authority.deadline(), self.v)

    async def settle(self) -> None:
        """Apply whatever is due now (a flag fall, a byo-yomi period, automatic acceptance of the score)."""
        await self.act(None, None, {"t": "tick"})

    async def restart(self, down_from: float, up_at: float | None = None) -> None:
        """After downtime since ``down_from``: settle what was due by then and restart the running clock now.

        ``up_at``: when serving resumed; a game acted on since then already has running clocks.
        """
        async with self.lock:
            await self.state.sync()
            assert self.authority is not None
            if self.authority.phase == "finished":
                return
            if up_at is not None and self.authority.last_now >= up_at:
                return
            last = self.authority.log[-1] if self.authority.log else None
            if last is not None and last["action"]["t"] == "server_restart" and last["action"]["down_from"] >= down_from:
                return  # another instance restarted this game's clocks after the same downtime
            # The server was certainly up when it committed the game's last action.
            down_from = max(down_from, self.authority.last_now)
        await self.act(None, None, {"t": "server_restart", "down_from": down_from})

    def broadcast_local(self, text: str) -> None:
        self.audience.broadcast(text)

    async def close(self) -> None:
        await self.outbox.close()  # committed events still on their way to the hub go first
        self.audience.close()
        if self._unsubscribe is not None:
            await self._unsubscribe()
            self._unsubscribe = None
