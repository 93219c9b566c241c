"""A live review room on one instance: the review's state, the sockets here, and the commit path.

The same model as a game room (docs/protocol.md §2), on the same hub: every change is committed first, with a
compare-and-set on ``reviews.version``, then published on the review's channel with its version, so the hub's
recent-event log replays what a reconnecting follower missed and every instance's sockets get the same text.
What the log cannot vouch for is answered with a snapshot, never a replay from the database.

Unlike a game, a review stores its whole state in its row (the tree, the leader's node, control, the newest
chat lines, the ids of the latest actions), so an instance that hears of a version it does not hold simply
reloads the row before it next decides anything or builds a snapshot; a retried action is then answered with
its first ack whichever instance took it. Followers' sockets need nothing of that: they get the published text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson

from app.reviews.messages import Participants, ReviewSnapshot
from app.transport.messages import Ack, ErrorMessage, at_version, encode
from app.reviews.limits import ReviewLimits
from app.reviews.loading import load_state, snapshot_view
from app.reviews.state import Actor, Person, ReviewError, ReviewState
from app.store.repositories import reviews as reviews_repo
from app.store.repositories import users as users_repo
from app.store.repositories.reviews import ReviewConflict
from app.study.workers import StudyWorkers
from app.transport.connection import Connection
from app.transport.envelope import logged_texts, pack, unpack
from app.transport.room_deps import RoomDeps

log = logging.getLogger(__name__)

Clock = Callable[[], float]
CONFLICT_RETRIES = 5
ACTION_IDS_KEPT = 100  # the latest actions whose ids are stored with the review (a retry comes within seconds)
PARTICIPANTS_COALESCE_SECONDS = 0.1


def review_channel(review_id: str) -> str:
    """The hub channel of one review room."""
    return f"review:{review_id}"


def _ack(client_id: str, v: int) -> bytes:
    return encode(Ack(id=client_id, v=v))


def _error(client_id: str | None, exc: ReviewError) -> bytes:
    return encode(ErrorMessage(id=client_id, code=exc.code, message=exc.message, reason=exc.reason))


class ReviewRoom:
    def __init__(
        self,
        review_id: str,
        deps: RoomDeps,
        limits: ReviewLimits,
        workers: StudyWorkers,
    ) -> None:
        self.review_id = review_id
        self.workers = workers  # the stored tree is rebuilt in a study worker process
        self.channel = review_channel(review_id)
        self.hub = deps.hub
        self.sessionmaker = deps.sessionmaker
        self.limits = limits
        self.clock = deps.clock
        self.lock = asyncio.Lock()
        self.v = 0
        self.state: ReviewState | None = None
        self.connections: set[Connection] = set()
        self.participants: dict[str, Any] = Participants(participants=[], anonymous=0).wire()
        self.seen: dict[tuple[int | None, str], int] = {}
        self._names: dict[int, str] = {}
        self._heard = 0  # the newest version the hub announced
        self._stale = False  # the hub may have dropped events, or a commit failed: reload before deciding
        self._unsubscribe: Callable[[], Any] | None = None
        self._participants_task: asyncio.Task[None] | None = None
        self._view: tuple[int, dict[str, Any]] | None = None  # the snapshot's review, at a version

    # ------------------------------------------------------------------ loading

    async def load(self) -> bool:
        """Build the room from the database. False when there is no such review."""
        if not await self._reload():
            return False
        self._unsubscribe = await self.hub.subscribe(self.channel, self._on_hub, self._on_reset)
        return True

    async def _reload(self) -> bool:
        async with self.sessionmaker() as session:
            loaded = await load_state(session, self.review_id, self.limits, self.workers)
        if loaded is None:
            return False
        self.state, self.v, self.seen = loaded
        self._view = None
        self._names[self.state.owner.id] = self.state.owner.name
        self._names[self.state.controller.id] = self.state.controller.name
        self._stale = False
        return True

    async def _ensure_current(self) -> None:
        """Reload the row when another instance committed a version this one does not hold (call locked)."""
        if self._stale or self._heard > self.v:
            await self._reload()

    # ------------------------------------------------------------------ hub delivery

    async def _on_hub(self, data: bytes) -> None:
        envelope = unpack(data)
        if envelope.vis == "participants":
            self.participants = orjson.loads(envelope.visible)
        elif envelope.v is not None and envelope.v > self.v:
            self._heard = max(self._heard, envelope.v)
        for conn in list(self.connections):
            conn.push(envelope.visible, envelope.v)

    async def _on_reset(self) -> None:
        # Messages may have been dropped: reload, and hand every socket the newest state.
        async with self.lock:
            self._stale = True
            with contextlib.suppress(Exception):
                await self._ensure_current()
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await self._resync(conn)

    async def check_stored_version(self) -> None:
        """Resync this instance's sockets when the database holds a version the hub never announced here: a
        change committed by an instance that died before publishing it, or a message the hub lost, would
        otherwise leave followers behind until the next change. Called by the periodic sweep."""
        async with self.sessionmaker() as session:
            stored = await reviews_repo.version_of(session, self.review_id)
        if stored is not None and stored > max(self.v, self._heard):
            self._heard = stored
            await self._on_reset()

    async def _resync(self, conn: Connection) -> None:
        async with self.lock:
            await self._ensure_current()
            conn.push_start(encode(await self.snapshot_message(conn, resync=True)).decode(), self.v)

    async def texts_since(self, conn: Connection, after_v: int, upto_v: int) -> list[tuple[int, str]]:
        """What ``conn`` missed after ``after_v`` up to ``upto_v``: from the hub's log, else a resync snapshot
        (which the client takes whole; the events it already covers are then ignored, docs/protocol.md §2)."""
        logged = await logged_texts(self.hub, self.channel, after_v, upto_v)
        if logged is not None:
            return logged
        async with self.lock:
            await self._ensure_current()
            return [(self.v, encode(await self.snapshot_message(conn, resync=True)).decode())]

    # ------------------------------------------------------------------ sockets

    async def attach(self, conn: Connection, since_v: int | None) -> None:
        """Add a socket: a snapshot, or (with ``?v=N``) exactly the events after N when the log holds them."""
        self.connections.add(conn)
        conn.start(lambda after, upto: self.texts_since(conn, after, upto))
        await self.hub.join(self.channel, conn.id, "spectator", conn.user_id)
        if conn.user_id is not None and conn.user_name is not None:
            self._names[conn.user_id] = conn.user_name
        async with self.lock:
            await self._ensure_current()
            logged = None
            if since_v is not None and 0 <= since_v <= self.v:
                logged = await self._logged_since(since_v)
            if logged is not None and since_v is not None:
                conn.push_start(None, since_v)
                for v, text in logged:
                    conn.push(text, v)
            else:
                conn.push_start(encode(await self.snapshot_message(conn, resync=since_v is not None)).decode(), self.v)
        await self.refresh_participants()

    async def _logged_since(self, since_v: int) -> list[tuple[int, str]] | None:
        if since_v == self.v:
            return []
        try:
            return await logged_texts(self.hub, self.channel, since_v, self.v)
        except Exception:  # the hub is unreachable: the snapshot needs only this room's state
            log.warning("review %s: the recent-event log could not be read", self.review_id, exc_info=True)
            return None

    async def detach(self, conn: Connection) -> None:
        self.connections.discard(conn)
        await conn.stop()
        with contextlib.suppress(Exception):
            await self.hub.leave(self.channel, conn.id)
        if self._participants_task is None:
            self._participants_task = asyncio.get_running_loop().create_task(self._coalesced_participants())

    async def _coalesced_participants(self) -> None:
        try:
            await asyncio.sleep(PARTICIPANTS_COALESCE_SECONDS)
        finally:
            self._participants_task = None
        with contextlib.suppress(Exception):
            await self.refresh_participants()

    async def present(self) -> tuple[list[int], int]:
        """The signed-in people in the room across instances (in order of arrival) and the anonymous sockets."""
        users: dict[int, None] = {}
        anonymous = 0
        for _, user_id in await self.hub.members(self.channel):
            if user_id is None:
                anonymous += 1
            else:
                users[int(user_id)] = None
        return list(users), anonymous

    async def is_full_for(self, user_id: int | None) -> bool:
        """Whether one more person would go over the cap on participants (someone already in may always open
        another tab; anonymous sockets count one each)."""
        users, anonymous = await self.present()
        if user_id is not None and user_id in users:
            return False
        return len(users) + anonymous >= self.limits.participants

    async def refresh_participants(self, publish: bool = True) -> None:
        """Who is here, by name, to every instance's sockets (each arrival or departure; and periodically, so
        the people of an instance that died leave the list once their presence expires)."""
        users, anonymous = await self.present()
        await self._learn_names(users)
        message = Participants(
            participants=[{"id": uid, "name": self._names.get(uid, "?")} for uid in users], anonymous=anonymous
        ).wire()
        if message == self.participants:
            return
        if publish:
            await self.hub.publish(self.channel, pack(orjson.dumps(message), vis="participants"))
        else:
            self.participants = message
            text = orjson.dumps(message).decode()
            for conn in list(self.connections):
                conn.push(text)

    async def _learn_names(self, user_ids: list[int]) -> None:
        unknown = {uid for uid in user_ids if uid not in self._names}
        if unknown:
            async with self.sessionmaker() as session:
                self._names.update(await users_repo.names(session, unknown))
        if len(self._names) > 4 * self.limits.participants:
            keep = set(user_ids)
            self._names = {uid: name for uid, name in self._names.items() if uid in keep}

    async def snapshot_message(self, conn: Connection, resync: bool = False) -> ReviewSnapshot:
        """The snapshot for ``conn`` (call with the lock held). The review's part is built once per version,
        however many join, in a thread (it holds the whole tree)."""
        assert self.state is not None
        user = None if conn.user_id is None else {"id": conn.user_id, "name": conn.user_name}
        if self._view is None or self._view[0] != self.v:
            self._view = (self.v, await asyncio.to_thread(snapshot_view, self.state))
        return ReviewSnapshot(
            v=self.v,
            resync=resync,
            you={"user": user, "role": self._role(conn.user_id)},
            review=self._view[1],
            participants=self.participants["participants"],
            anonymous=self.participants["anonymous"],
        )

    def _role(self, user_id: int | None) -> str:
        assert self.state is not None
        if user_id is not None and user_id == self.state.controller.id:
            return "controller"
        if user_id is not None and user_id == self.state.owner.id:
            return "owner"
        return "follower"

    # ------------------------------------------------------------------ acting

    async def act(self, conn: Connection, client_id: str, action: dict[str, Any]) -> bytes:
        """Apply one action of ``conn``'s user; the ack or error bytes (the error goes to this socket only)."""
        uid = conn.user_id
        user = None if uid is None or conn.user_name is None else Person(uid, conn.user_name)
        present: frozenset[int] = frozenset()
        if action["t"] == "hand_control":
            users, _ = await self.present()
            present = frozenset(users)
            await self._learn_names(users)
            action = {**action, "to_name": self._names.get(action["to"])}
        for _ in range(CONFLICT_RETRIES):
            async with self.lock:
                try:
                    await self._ensure_current()
                except Exception:  # the database is unreachable: refuse, the client retries
                    log.warning("review %s: cannot read the database", self.review_id, exc_info=True)
                    return self._unavailable(client_id)
                if (uid, client_id) in self.seen:
                    return _ack(client_id, self.seen[(uid, client_id)])
                assert self.state is not None
                try:
                    outcome = self.state.apply(Actor(user, present), action, self.clock())
                except ReviewError as exc:
                    return _error(client_id, exc)
                # Applied in memory only: until the commit succeeds that is not the truth.
                self._stale = True
                changes = dict(outcome.changes)
                # The action's id is stored with the change, so a retry through any instance finds it.
                kept = list(self.seen.items())[-(ACTION_IDS_KEPT - 1) :]
                changes["action_ids"] = [[u, c, seen_v] for (u, c), seen_v in kept] + [[uid, client_id, self.v + 1]]
                try:
                    if outcome.tree_changed:  # serialised in a thread: a large tree takes milliseconds
                        changes["tree"] = await asyncio.to_thread(self.state.tree_doc)
                    async with self.sessionmaker() as session:
                        v = await reviews_repo.save(session, self.review_id, self.v, **changes)
                except ReviewConflict:
                    continue  # another instance moved first: reload and decide again
                except Exception:  # not saved, or not known to be saved: never acknowledged
                    log.warning("review %s: commit failed", self.review_id, exc_info=True)
                    return self._unavailable(client_id)
                self._stale = False
                self.v = v
                self.seen = {(u, c): seen_v for u, c, seen_v in changes["action_ids"]}
                try:
                    # Under the lock, so the hub carries this room's events in version order.
                    await self.hub.publish(self.channel, pack(at_version(outcome.event, v), v=v), v=v)
                except Exception:  # committed: followers catch up by snapshot
                    log.warning("review %s: hub unreachable after a commit", self.review_id, exc_info=True)
                return _ack(client_id, v)
        return encode(ErrorMessage(id=client_id, code="busy", message="the review is busy; try again"))

    @staticmethod
    def _unavailable(client_id: str | None) -> bytes:
        return encode(
            ErrorMessage(id=client_id, code="unavailable", message="the review could not be saved right now; try again")
        )

    async def close(self) -> None:
        if self._participants_task is not None:
            self._participants_task.cancel()
            self._participants_task = None
        if self._unsubscribe is not None:
            await self._unsubscribe()
            self._unsubscribe = None
