"""The automatch service of one instance: takes seeks from lobby sockets, pairs them, starts their games.

Seeks wait in the shared ``SeekPool``. Each instance keeps a local record of the seeks its own lobby sockets
placed (``_local``), and

- tries to pair a new seek at once with the closest compatible seeker already waiting;
- every ``SWEEP_EVERY`` seconds pairs whatever became compatible as gaps widen (closest first), claiming
  both seeks of a pair in one atomic step, so no seek is ever taken by two instances;
- starts the game through the lobby's game-creation path, in a transaction that locks both players' rows and
  checks that neither is already playing, so nobody is ever put into two games at once, whatever Redis did;
- checks its own seeks against the pool every sweep: a seek gone from it without a game (Redis flushed, a
  claimer died, a pair fell through) is placed again; one the pool cannot take (Redis unreachable for
  ``UNAVAILABLE_GRACE`` seconds) is ended with ``seek_cancelled`` / ``unavailable``, so its player is told
  to search again rather than left waiting for nothing;
- ends a seek when the last lobby socket of its player on this instance closes.

Messages to players go through the lobby broadcaster as private messages (``_to``), so a player's sockets on
any instance hear them. The rules of pairing are in ``pairing.py``; docs/lobby.md describes them.

Over 400 lines because one seek's whole life (placed, paired, placed again, ended) is one state machine over
``_local`` and the pool; split across modules, each part would reach into the others' state.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.automatch import pairing
from app.automatch.house_bots import BOT_OFFER_AFTER, bot_offer
from app.automatch.messages import Paired, SeekCancelled, Seeking, paired_message, seek_view
from app.automatch.pairing import PairTerms, Seeker
from app.automatch.pool import SeekPool
from app.automatch.preferences import SeekPreferences
from app.automatch.strength import Avoid, Strength, avoid_nobody, player_rating
from app.background import BackgroundTask
from app.errors import Conflict, Forbidden, ServiceError
from app.lobby.live.broadcaster import LobbyBroadcaster
from app.lobby.starting import create_game, game_started
from app.lobby.views import player_ids
from app.metrics import Metrics
from app.moderation.fair_play import DEFAULT_FAIR_PLAY, FairPlay, check_may_play_rated
from app.moderation.standing import check_may_play
from app.ratings.lookup import display_ranks
from app.store.models import User
from app.store.repositories import games, users
from app.transport.hub import Hub

log = logging.getLogger(__name__)

SWEEP_EVERY = 1.0  # seconds between sweeps (pairing as gaps widen, checking this instance's seeks)
CLAIM_LEASE = 15.0  # seconds a claim may stay unfinished before its seeks are placed again
UNAVAILABLE_GRACE = 10.0  # seconds the pool may be unreachable before waiting players are told
MAX_SEEKERS = 1000  # seeks the pool takes at once; more get "pool_full" (try again)
HEARTBEAT_TTL = 10.0  # seconds an instance counts as alive after its last sweep
BOT_RETRY = 10.0  # seconds between two looks for a house bot for one seek while none fits
INSTANT_TRIES = 3  # partners tried at once for a new seek before it waits for the sweep


class Unavailable(ServiceError):
    def __init__(self) -> None:
        super().__init__("unavailable", "The seek pool cannot be reached right now; try again in a moment.")


@dataclass
class LocalSeek:
    seeker: Seeker
    data: bytes


@dataclass
class _Sockets:
    """This instance's lobby sockets, by user."""

    by_user: dict[int, set[str]] = field(default_factory=dict)


class Automatch:
    def __init__(
        self,
        pool: SeekPool,
        lobby: LobbyBroadcaster,
        sessionmaker: async_sessionmaker[AsyncSession],
        *,
        hub: Hub,
        strength: Strength = player_rating,
        avoid: Avoid = avoid_nobody,
        clock: Callable[[], float] = time.time,
        sweep_every: float = SWEEP_EVERY,
        metrics: Metrics | None = None,
        bot_offer_after: float = BOT_OFFER_AFTER,
        fair_play: FairPlay = DEFAULT_FAIR_PLAY,
    ) -> None:
        self.pool = pool
        self.fair_play = fair_play
        self.lobby = lobby
        self.hub = hub  # where a new game's first deadline is registered (app/lobby/starting.py)
        self.sessionmaker = sessionmaker
        self.strength = strength
        self.avoid = avoid
        self.clock = clock
        self.sweep_every = sweep_every
        self.bot_offer_after = bot_offer_after
        self.metrics = metrics or Metrics()
        self.metrics.automatch_seekers.set_function(lambda: float(len(self._local)))
        self.instance = uuid.uuid4().hex[:12]
        self._local: dict[int, LocalSeek] = {}
        self._bots_here: set[int] = set()  # bot accounts with a lobby socket on this instance
        self._bot_checked: dict[str, float] = {}  # seek id -> when a house bot was last looked for it
        self._sockets = _Sockets()
        self._task = BackgroundTask("automatch")
        self._unreachable_since: float | None = None
        self._wake = asyncio.Event()
        self._background: set[asyncio.Task[None]] = set()
        lobby.listen(self._heard)

    # -- lifecycle -----------------------------------------------------------------------------------------

    async def start(self) -> None:
        try:
            await self.pool.heartbeat(self.instance, HEARTBEAT_TTL)
        except Exception:
            log.warning("the seek pool cannot be reached at start; the sweep keeps trying", exc_info=True)
        self._task.start(self._loop())

    async def close(self) -> None:
        await self._task.close()
        for task in list(self._background):
            task.cancel()
        for user_id, seek in list(self._local.items()):
            try:
                await self.pool.withdraw(user_id, seek.data)
            except Exception:  # the pool is gone too; the seek's owner is gone with this instance
                log.debug("could not withdraw a seek on close", exc_info=True)
        self._local.clear()

    # -- sockets -------------------------------------------------------------------------------------------

    def socket_opened(self, user_id: int, conn_id: str, *, bot: bool = False) -> None:
        """A lobby socket of ``user_id`` opened here (``bot``: a bot account's, so it may be offered)."""
        self._sockets.by_user.setdefault(user_id, set()).add(conn_id)
        if bot:
            self._bots_here.add(user_id)

    async def socket_closed(self, user_id: int, conn_id: str) -> None:
        held = self._sockets.by_user.get(user_id)
        if held is None:
            return
        held.discard(conn_id)
        if held:
            return
        del self._sockets.by_user[user_id]
        self._bots_here.discard(user_id)
        seek = self._local.pop(user_id, None)
        if seek is not None:
            try:
                await self.pool.withdraw(user_id, seek.data)
            except Exception:
                log.warning("could not withdraw the seek of user %s whose sockets closed", user_id, exc_info=True)

    # -- seeking -------------------------------------------------------------------------------------------

    async def seek(self, user: User, prefs: SeekPreferences) -> Seeker:
        """Place (or replace) ``user``'s seek and try to pair it at once."""
        if prefs.rated and user.is_guest:
            raise Forbidden("account_required", "Register to play rated games.")
        async with self.sessionmaker() as session:
            await check_may_play(session, {user.id})
            if prefs.rated:
                await check_may_play_rated(session, {user.id}, self.fair_play)
            playing = await games.live_game_of(session, user.id)
            if playing is not None:
                raise Conflict("already_playing", f"Finish your game {playing} before looking for another.")
            rating = await self.strength(session, user)
            avoid = (await self.avoid(session, [user.id])).get(user.id, frozenset())
        seeker = Seeker(
            seek_id=uuid.uuid4().hex,
            user_id=user.id,
            rating=rating,
            prefs=prefs,
            since=self.clock(),
            name=user.name,
            avoid=avoid,
            instance=self.instance,
        )
        data = orjson.dumps(seeker.to_json())
        try:
            if user.id not in self._local and await self.pool.count() >= MAX_SEEKERS:
                raise Conflict("pool_full", "Too many players are looking for a game right now; try again soon.")
            self._local[user.id] = LocalSeek(seeker, data)
            await self.pool.put(user.id, data)
        except ServiceError:
            raise
        except Exception as exc:
            self._local.pop(user.id, None)
            raise Unavailable() from exc
        await self._tell(user.id, Seeking(seek=seek_view(seeker)).wire())
        try:
            await self._pair_now(seeker, data)
        except Exception:
            log.warning("pairing a new seek failed; the sweep tries again", exc_info=True)
        return seeker

    async def cancel(self, user_id: int) -> bool:
        """End ``user_id``'s seek, wherever it was placed; False when it is already being made into a game (the
        game follows)."""
        seek = self._local.pop(user_id, None)
        if seek is None:
            return await self._cancel_elsewhere(user_id)
        try:
            withdrawn = await self.pool.withdraw(user_id, seek.data)
            if not withdrawn:
                status = (await self.pool.status([user_id]))[user_id]
                if status.claimed == seek.data:
                    self._local[user_id] = seek
                    return False
        except Exception as exc:
            raise Unavailable() from exc
        await self._tell(user_id, SeekCancelled(reason="cancelled").wire())
        return True

    async def _cancel_elsewhere(self, user_id: int) -> bool:
        """End a seek another instance holds: out of the pool, then ``seek_cancelled`` to the user's sockets on
        every instance; the owner forgets it on hearing that (``_heard``, by its seek id) rather than placing it
        again."""
        try:
            status = (await self.pool.status([user_id]))[user_id]
            if status.waiting is None:
                return status.claimed is None
            withdrawn = await self.pool.withdraw(user_id, status.waiting)
        except Exception as exc:
            raise Unavailable() from exc
        if not withdrawn:  # claimed or replaced meanwhile: what happens to it is told by its owner
            return False
        seeker = _seeker_of(status.waiting)
        await self._tell(user_id, {**SeekCancelled(reason="cancelled").wire(), "_seek": seeker.seek_id if seeker else None})
        return True

    def seeking(self, user_id: int) -> Seeker | None:
        """The seek this instance holds for ``user_id`` (placed through one of its sockets)."""
        seek = self._local.get(user_id)
        return seek.seeker if seek else None

    async def live_seek(self, user_id: int) -> Seeker | None:
        """``user_id``'s live seek, wherever it was placed: the one the pool holds for them (waiting, or being
        made into a game), which any instance reads; None when the pool holds none (it was paired, or ended,
        though the instance that placed it may not know yet). Should the pool be unreachable, this instance's
        own record."""
        try:
            status = (await self.pool.status([user_id]))[user_id]
        except Exception:
            log.warning("the seek pool cannot be read for a lobby snapshot", exc_info=True)
            return self.seeking(user_id)
        raw = status.waiting or status.claimed
        return None if raw is None else _seeker_of(raw)

    # -- pairing -------------------------------------------------------------------------------------------

    async def _pair_now(self, seeker: Seeker, data: bytes) -> None:
        now = self.clock()
        others = await self._waiting()
        candidates = {s.user_id: (s, raw) for s, raw in others if s.user_id != seeker.user_id}
        for _ in range(INSTANT_TRIES):
            partner = pairing.best_partner(seeker, (s for s, _ in candidates.values()), now)
            if partner is None:
                return
            if await self._pair((seeker, data), candidates.pop(partner.user_id)):
                return
            if self._local.get(seeker.user_id) is None or self._local[seeker.user_id].data != data:
                return  # our own seek was taken by someone else's pairing, or replaced

    async def _waiting(self) -> list[tuple[Seeker, bytes]]:
        """The waiting seeks whose instance is alive (the others are withdrawn: nobody is behind them)."""
        entries = []
        for raw in (await self.pool.waiting()).values():
            try:
                entries.append((Seeker.from_json(orjson.loads(raw)), raw))
            except Exception:  # not a seek this version understands: leave it to its owner
                continue
        alive = await self.pool.alive({seeker.instance for seeker, _ in entries} - {self.instance})
        alive.add(self.instance)
        kept = []
        for seeker, raw in entries:
            if seeker.instance in alive:
                kept.append((seeker, raw))
            else:
                await self.pool.withdraw(seeker.user_id, raw)
        return kept

    async def sweep(self) -> int:
        """Pair what can be paired now (each pair has at least one seek of this instance); returns pairs made."""
        if not self._local:
            return 0
        now = self.clock()
        entries = await self._waiting()
        if len(entries) < 2:
            return 0
        raw_of = {s.seek_id: raw for s, raw in entries}
        seekers = await self._with_current_blocks([s for s, _ in entries])
        made = 0
        for a, b in pairing.choose_pairs(seekers, now, eligible=lambda s: s.instance == self.instance):
            if await self._pair((a, raw_of[a.seek_id]), (b, raw_of[b.seek_id])):
                made += 1
        return made

    async def _with_current_blocks(self, seekers: list[Seeker]) -> list[Seeker]:
        """The seekers with whom each avoids as the blocks stand now: a seek's ``avoid`` is only what its owner
        read when it was placed, and a block made since (on any instance) must keep the two apart."""
        async with self.sessionmaker() as session:
            avoid = await self.avoid(session, [s.user_id for s in seekers])
        return [replace(s, avoid=avoid.get(s.user_id, frozenset())) for s in seekers]

    async def _pair(self, first: tuple[Seeker, bytes], second: tuple[Seeker, bytes]) -> bool:
        (a, a_data), (b, b_data) = first, second
        if not await self.pool.claim((a.user_id, a_data), (b.user_id, b_data), self.clock()):
            return False
        try:
            agreed = pairing.terms(a, b)
            row = await self._start_game(agreed)
        except ServiceError as exc:  # refused as the game was added (a block or a sanction made meanwhile)
            log.info("an automatch game was refused as it started (%s); both seeks are placed again", exc.code)
            row = None
        except Exception:
            log.exception("starting an automatch game failed; both seeks are placed again by their owners")
            row = None
        finally:
            for user_id, data in ((a.user_id, a_data), (b.user_id, b_data)):
                try:
                    await self.pool.release(user_id, data)
                except Exception:
                    log.warning("could not release a claimed seek; its owner finds it by its age", exc_info=True)
        if row is None:
            for seeker in (a, b):
                if seeker.instance == self.instance:
                    self._wake.set()  # our own seeks: check them at once rather than at the next sweep
            return False
        for seeker in (a, b):
            local = self._local.get(seeker.user_id)
            if local is not None and local.seeker.seek_id == seeker.seek_id:
                del self._local[seeker.user_id]
        self.metrics.automatch_pairs.inc()
        paired_at = self.clock()
        for seeker in (a, b):
            self.metrics.automatch_wait.observe(max(0.0, paired_at - seeker.since))
        async with self.sessionmaker() as session:
            shown = await display_ranks(session, player_ids([row]))
        await self._tell_many([a.user_id, b.user_id], paired_message(row, agreed, [a.seek_id, b.seek_id], shown))
        await game_started(self.hub, self.lobby, row, ranks=shown, automatch=True)
        return True

    async def _start_game(self, agreed: PairTerms) -> games.GameWithPlayers | None:
        black, white = agreed.black.user_id, agreed.white.user_id
        async with self.sessionmaker() as session:
            await users.lock(session, [black, white])
            for user_id in (black, white):
                if await games.live_game_of(session, user_id) is not None:
                    await session.rollback()
                    return None
            game = await create_game(
                session,
                board_size=agreed.board_size,
                rules=agreed.rules,
                komi=agreed.komi,
                handicap=agreed.handicap,
                time_control=agreed.time_control,
                rated=agreed.rated,
                black_id=black,
                white_id=white,
            )
            await session.commit()
            return await games.get_with_players(session, game.id)

    # -- news from other instances -------------------------------------------------------------------------

    def _heard(self, message: dict[str, Any]) -> None:
        """A pairing (from any instance) ends its seeks here, as does a cancel made through another instance; any
        other game started ends its players' seeks."""
        kind = message.get("t")
        if kind == "paired":
            seeks = set(message.get("seeks") or ())
            for user_id in message.get("_to") or ():
                local = self._local.pop(user_id, None)
                if local is not None and local.seeker.seek_id not in seeks:
                    # A newer seek placed while the older one was being paired: the player has their game now.
                    self._spawn(self._withdraw_quietly(user_id, local.data))
        elif kind == "seek_cancelled" and message.get("_seek"):
            for user_id in message.get("_to") or ():  # cancelled through another instance: not placed again
                local = self._local.get(user_id)
                if local is not None and local.seeker.seek_id == message["_seek"]:
                    del self._local[user_id]
        elif kind == "game_started" and not message.get("automatch"):
            players = (message.get("game") or {}).get("players") or {}
            for side in players.values():
                user_id = side.get("id") if isinstance(side, dict) else None
                if user_id in self._local:
                    self._spawn(self._end_for_game(user_id, message))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _withdraw_quietly(self, user_id: int, data: bytes) -> None:
        try:
            await self.pool.withdraw(user_id, data)
        except Exception:  # a pairing refuses a player already in a game: the seek goes nowhere
            log.warning("could not withdraw a superseded seek of user %s", user_id, exc_info=True)

    async def _end_for_game(self, user_id: int, started: dict[str, Any]) -> None:
        """``user_id`` began a game some other way (a challenge): their search is over; send them there."""
        seek = self._local.pop(user_id, None)
        if seek is None:
            return
        try:
            await self.pool.withdraw(user_id, seek.data)
        except Exception:  # the sweep finds it: the pairing refuses a player already in a game
            log.warning("could not withdraw the seek of user %s who started a game", user_id, exc_info=True)
        await self._tell(
            user_id,
            Paired(
                game_id=started.get("game_id"), url=started.get("url"), game=started.get("game"), seeks=[seek.seeker.seek_id]
            ).wire(),
        )

    # -- the sweep -----------------------------------------------------------------------------------------

    async def _loop(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), self.sweep_every)
            except TimeoutError:
                pass
            self._wake.clear()
            await self.tick()

    async def tick(self) -> None:
        """One sweep: heartbeat, this instance's seeks checked against the pool, then pairing."""
        try:
            await self.pool.heartbeat(self.instance, HEARTBEAT_TTL)
            await self.pool.mark_present(set(self._bots_here), HEARTBEAT_TTL)
            await self.check_local()
            await self.sweep()
            await self.offer_bots()
            self._unreachable_since = None
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await self._pool_failed(exc)

    async def check_local(self) -> None:
        """Place again this instance's seeks that left the pool without a game; end those that found one."""
        if not self._local:
            return
        now = self.clock()
        snapshot = dict(self._local)
        status = await self.pool.status(list(snapshot))
        for user_id, seek in snapshot.items():
            state = status[user_id]
            if state.waiting == seek.data:
                continue
            if state.claimed == seek.data and state.claimed_at is not None and now - state.claimed_at < CLAIM_LEASE:
                continue
            if self._local.get(user_id) is not seek:
                continue  # changed while we looked
            if state.waiting is not None:  # replaced by a newer seek of the same player (another instance)
                del self._local[user_id]
                continue
            async with self.sessionmaker() as session:
                game_id = await games.started_since(session, user_id, _datetime(seek.seeker.since))
                game_id = game_id or await games.live_game_of(session, user_id)
                row = await games.get_with_players(session, game_id) if game_id else None
            if self._local.get(user_id) is not seek:
                continue
            if row is not None:  # paired (or a challenge accepted meanwhile): the game is where they belong
                del self._local[user_id]
                await self._tell(user_id, paired_message(row, None, [seek.seeker.seek_id]))
                continue
            if state.claimed == seek.data:
                await self.pool.release(user_id, seek.data)
            log.info("seek of user %s was no longer in the pool; placed again", user_id)
            self.metrics.automatch_replaced.inc()
            await self.pool.put(user_id, seek.data)

    async def offer_bots(self) -> None:
        """Offer a house bot to this instance's seekers who have waited ``bot_offer_after`` seconds (once a seek;
        looked for again every ``BOT_RETRY`` seconds while none is there)."""
        now = self.clock()
        live = {seek.seeker.seek_id for seek in self._local.values()}
        for seek_id in [k for k in self._bot_checked if k not in live]:
            del self._bot_checked[seek_id]
        due = [
            seek
            for seek in self._local.values()
            if now - seek.seeker.since >= self.bot_offer_after
            and now - self._bot_checked.get(seek.seeker.seek_id, -BOT_RETRY) >= BOT_RETRY
        ]
        if not due:
            return
        for seek in due:
            self._bot_checked[seek.seeker.seek_id] = now
        async with self.sessionmaker() as session:
            bots = await users.bots_of(session, None)
            present = await self.pool.present({bot.id for bot in bots}) if bots else set()
            available = [bot for bot in bots if bot.id in present]
            if not available:
                return
            for seek in due:
                offer = await bot_offer(session, seek.seeker, available, self.strength, now)
                if offer is not None and self._local.get(seek.seeker.user_id) is seek:
                    self._bot_checked[seek.seeker.seek_id] = float("inf")  # offered: once a seek
                    await self._tell(seek.seeker.user_id, offer)

    async def _pool_failed(self, exc: Exception) -> None:
        now = self.clock()
        if self._unreachable_since is None:
            self._unreachable_since = now
            log.warning("the seek pool cannot be reached (%s); retrying", exc)
        if now - self._unreachable_since < UNAVAILABLE_GRACE or not self._local:
            return
        ended = list(self._local)
        self._local.clear()
        log.warning("the seek pool stayed unreachable; %d waiting players are told to search again", len(ended))
        for user_id in ended:
            await self._tell(user_id, SeekCancelled(reason="unavailable").wire())

    # -- telling players -----------------------------------------------------------------------------------

    async def _tell(self, user_id: int, message: dict[str, Any]) -> None:
        await self._tell_many([user_id], message)

    async def _tell_many(self, user_ids: list[int], message: dict[str, Any]) -> None:
        # Should the hub not carry it now, this instance's sockets still hear it, and the others are told to
        # resync (app/lobby/live/hub_broadcaster.py): their snapshot shows the seek, or the game it became (``playing``).
        await self.lobby.publish({**message, "_to": user_ids})


def _seeker_of(raw: bytes) -> Seeker | None:
    try:
        return Seeker.from_json(orjson.loads(raw))
    except Exception:  # not a seek this version understands
        return None


def _datetime(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)
