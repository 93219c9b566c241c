"""A room's game as this instance knows it, and how it catches up with what other instances committed.

The state is the authority rebuilt from the committed events, the version, the chat lines a snapshot shows
and the client ids already acknowledged. Events another instance committed arrive through the hub: carried in
order, they are applied as they are (``carried``); only a gap, a hub reset (``stale``) or a commit that failed
midway (``broken``) costs a read of the database.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.games.authority import GameAuthority
from app.games.config import GameConfig
from app.games.live.seats import committed_payload
from app.metrics import Metrics
from app.store.repositories import games as games_repo
from app.store.repositories.games import GameWithPlayers
from app.transport.envelope import Envelope

SEEN_IDS_LIMIT = 5000
CARRIED_LIMIT = 5000  # events held for a gap to fill; beyond it the database is read instead


def game_config(row: GameWithPlayers) -> GameConfig:
    """The configuration the game was created with, exactly as stored (see app/lobby/game_settings.py)."""
    return GameConfig.from_dict(row.game.config)


class GameState:
    def __init__(
        self,
        game_id: str,
        sessionmaker: async_sessionmaker[AsyncSession],
        metrics: Metrics | None,
        on_rebuilt: Callable[[], None],
    ) -> None:
        self.game_id = game_id
        self.on_rebuilt = on_rebuilt  # after a rebuild: the room tells the new authority who is present
        self.sessionmaker = sessionmaker
        self.metrics = metrics
        self.v = 0
        self.authority: GameAuthority | None = None
        self.chat: list[dict[str, Any]] = []
        self.seen: dict[tuple[int | None, str], int] = {}
        self.stale = False  # the hub may have dropped events: read the database before deciding anything
        self.heard = 0  # the newest version the hub announced
        self.carried: dict[int, dict[str, Any]] = {}  # committed elsewhere, as the hub carried them, by version
        self.broken = False  # a commit failed midway: rebuild from the database before deciding anything

    async def absorb(self, session: AsyncSession) -> None:
        """Apply the events committed after ``self.v`` (by this instance or any other)."""
        for row in await games_repo.events_after(session, self.game_id, self.v):
            self.absorb_one(row.v, row.payload)

    def absorb_one(self, v: int, payload: dict[str, Any]) -> None:
        assert self.authority is not None
        action = payload.get("_action")
        if action is not None:
            self.authority.apply(action["actor"], action["action"], action["now"], action.get("facts"))
        self.keep_chat(payload, v)
        cid = payload.get("_cid")
        if cid is not None:
            self.seen[(payload.get("_uid"), cid)] = payload.get("_ack", v)
            if len(self.seen) > SEEN_IDS_LIMIT:
                self.seen.pop(next(iter(self.seen)))
        self.v = v

    def absorb_committed(self, event: dict[str, Any]) -> None:
        """An event this instance just committed."""
        self.v += 1
        self.keep_chat(event, self.v)

    def keep_chat(self, event: dict[str, Any], v: int) -> None:
        """Keep a chat line for snapshots; drop the lines a moderator removed (``chat_removed``)."""
        if event.get("t") == "chat":
            self.chat.append({**event, "v": v})
        elif event.get("t") == "chat_removed":
            removed = set(event.get("lines") or ())
            self.chat = [c for c in self.chat if c["v"] not in removed]

    def hear(self, envelope: Envelope) -> bool:
        """Note an event the hub delivered; whether it is newer than this state (catch up then)."""
        if envelope.v is None or envelope.v <= self.v:
            return False
        # Committed elsewhere: catch up before the next decision, from the carried payload when it has one.
        self.heard = max(self.heard, envelope.v)
        payload = committed_payload(envelope)
        if payload is not None and len(self.carried) < CARRIED_LIMIT:
            self.carried[envelope.v] = payload
        return True

    async def sync(self) -> None:
        """Catch up with the database. Call with the room's lock held."""
        self.count_read()
        async with self.sessionmaker() as session:
            await self.absorb(session)
        self.stale = False
        self.drop_carried()

    def absorb_carried(self) -> None:
        """Apply the events other instances committed, as the hub carried them, while they follow on."""
        while self.carried:
            payload = self.carried.pop(self.v + 1, None)
            if payload is None:
                break
            self.absorb_one(self.v + 1, payload)
        self.drop_carried()

    def drop_carried(self) -> None:
        for v in [v for v in self.carried if v <= self.v]:
            del self.carried[v]

    @property
    def behind(self) -> bool:
        """Whether events committed elsewhere are known and not yet applied here."""
        return self.stale or self.heard > self.v

    async def ensure_current(self) -> bool:
        """Make the in-memory state match the database (raises when the database cannot be read).

        Events the hub carried in order are applied as they are; only a gap (or a hub reset) costs a read of
        the database. Returns whether the database was read.
        """
        if self.broken:
            await self.rebuild()
            return True
        if self.carried:
            self.absorb_carried()
        if self.behind:
            await self.sync()
            return True
        return False

    async def rebuild(self) -> None:
        """Forget the in-memory state and replay the database (after a lost race or a failed commit)."""
        self.count_read()
        async with self.sessionmaker() as session:
            row = await games_repo.get_with_players(session, self.game_id)
            assert row is not None
            self.authority = GameAuthority(game_config(row), row.game.started_at.timestamp())
            self.v = 0
            self.chat = []
            await self.absorb(session)
        self.on_rebuilt()
        self.stale = False
        self.broken = False
        self.drop_carried()

    def count_read(self) -> None:
        if self.metrics is not None:
            self.metrics.catchup_reads.inc()
