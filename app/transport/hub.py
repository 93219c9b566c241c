"""The event hub: what live rooms share across server instances.

A hub never decides anything about what a room holds. The database is the durable truth: every versioned event
is committed there (with a compare-and-set on the row's version) before it reaches the hub. The hub only

1. fans already-committed events out to every instance holding sockets for a channel,
2. keeps a bounded recent-event log per channel so a reconnecting client can be caught up from ``?v=N``
   without a database read (and says so when it cannot, so the caller resyncs instead),
3. shares presence (which connections are in a channel, each with the role its room gave it) across instances,
4. holds deadlines under opaque keys, handing each due key to exactly one instance,
5. carries any other channel a domain names (a public one every instance reads, one per user for what only
   that user's sockets see), and the instances' own news (log-outs, sanctions, blocks; typed in
   ``app.transport.hub_messages``).

Two implementations behave identically: ``MemoryHub`` (one process, the embedded default) and ``RedisHub``
(any number of instances sharing one Redis). Both are tested by the same suite.

Channels and deadline keys are plain strings, and each domain names its own beside its room (its
``live/channel.py`` or ``live/channels.py``); the hub reads nothing into them.
Payloads are bytes, serialised once per event (``app.transport.codec.encode``) and sent unchanged to every
recipient.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

__all__ = [
    "Hub",
    "MessageCallback",
    "ResetCallback",
    "Unsubscribe",
]

# A subscriber callback receives the payload bytes; it may be a plain function or a coroutine function.
MessageCallback = Callable[[bytes], Awaitable[Any] | Any]
# Called (plain or coroutine) when a subscriber may have missed messages; it should resync from the database.
ResetCallback = Callable[[], Awaitable[Any] | Any]
# Returned by ``subscribe``; awaiting it stops delivery. Calling it twice is harmless.
Unsubscribe = Callable[[], Awaitable[None]]
# Called (plain or coroutine) when the hub's shared state was lost (Redis flushed or restarted).
LostCallback = Callable[[], Awaitable[Any] | Any]

DEFAULT_LOG_SIZE = 500
DEFAULT_LEASE = 30.0
# The longest role a connection can join a channel as (a role is the room's word, opaque to the hub).
MAX_ROLE_CHARS = 32


def check_role(role: str) -> None:
    """Refuse a role the hub could not keep: empty or longer than ``MAX_ROLE_CHARS``."""
    if not isinstance(role, str) or not 0 < len(role) <= MAX_ROLE_CHARS:
        raise ValueError(f"a role is a string of 1 to {MAX_ROLE_CHARS} characters, not {role!r}")


class Hub(ABC):
    """Fan-out, recent-event log, presence and deadlines shared by live rooms."""

    # Whether every operation completes without waiting (the in-process hub): a caller may then run them
    # outside a task (app/transport/eager.py). A hub that waits on a network client needs a task around them.
    inline: ClassVar[bool] = False

    # -- lifecycle -------------------------------------------------------------------------------------

    @abstractmethod
    async def start(self) -> None:
        """Open connections and start background work. Call once before anything else."""

    @abstractmethod
    async def close(self) -> None:
        """Stop delivery, withdraw this instance's presence and release connections. Idempotent."""

    # -- fan-out and the recent log --------------------------------------------------------------------

    @abstractmethod
    async def publish(self, channel: str, data: bytes, v: int | None = None) -> bool:
        """Deliver ``data`` to every subscriber of ``channel`` on every instance, in publish order.

        Without ``v`` the message is ephemeral (presence, clock ticks, a public board's updates): it is delivered and
        not logged, and the call returns True.

        With ``v`` (the event's committed version) the event is appended to the channel's recent log and
        delivered, atomically with respect to other publishers, and the call returns True. The log stays
        contiguous and holds at most the last ``log_size`` events:

        - ``v`` not greater than the newest logged version is a duplicate: nothing is logged or delivered,
          and the call returns False;
        - ``v`` more than one past the newest logged version (a gap: an event never reached the hub, or
          the log was lost) starts the log afresh at ``v``, so ``replay`` from before the gap says None.
        """

    @abstractmethod
    async def replay(self, channel: str, after_v: int, latest: int | None = None) -> list[bytes] | None:
        """The logged events with version greater than ``after_v``, oldest first.

        Returns None, meaning "the log cannot vouch for this range; resync from the database", when:
        nothing is logged for the channel (never published, expired or lost); ``after_v`` is newer than
        the newest logged version; the oldest kept version is greater than ``after_v + 1`` (trimmed or
        reset); or ``latest`` is given and the newest logged version is older than it (the log missed
        committed events). An empty list means the client is already up to date.
        """

    @abstractmethod
    async def newest(self, channel: str) -> int | None:
        """The newest version logged for ``channel`` (None: nothing logged, expired or lost)."""

    @abstractmethod
    async def subscribe(self, channel: str, callback: MessageCallback, on_reset: ResetCallback | None = None) -> Unsubscribe:
        """Deliver every message published on ``channel`` from now on to ``callback``, in publish order.

        When this returns, the subscription is live on every instance: a message published afterwards
        (from anywhere) reaches ``callback``. Each subscriber has its own queue and worker, so a slow
        callback delays only itself. Exceptions raised by a callback are logged and do not stop delivery.

        ``on_reset`` is called, in order with the messages, when this subscriber may have missed some:
        the Redis subscription connection dropped and was re-established, or the subscriber fell more than
        ``max_pending`` messages behind (its backlog is then discarded). Its owner should resync.
        """

    # -- presence --------------------------------------------------------------------------------------

    @abstractmethod
    async def join(self, channel: str, conn_id: str, role: str, user_id: int | str | None) -> None:
        """Record connection ``conn_id`` in ``channel`` as ``role`` (the room's word for it; see ``check_role``).

        Joining again with the same ``conn_id`` replaces the earlier entry. With Redis, entries belong to
        this instance and vanish within ``presence_ttl`` seconds if the instance dies without leaving.
        """

    @abstractmethod
    async def leave(self, channel: str, conn_id: str) -> None:
        """Remove connection ``conn_id`` from ``channel``; unknown connections are ignored."""

    @abstractmethod
    async def members(self, channel: str) -> list[tuple[str, int | str | None]]:
        """Every connection in ``channel`` across all instances, as ``(role, user_id)`` pairs; the room's
        domain reads them (counts them, or shows who is there by name)."""

    # -- deadlines -------------------------------------------------------------------------------------

    @abstractmethod
    async def set_deadline(self, key: str, at: float, v: int | None = None) -> None:
        """Set (or move) the time, in epoch seconds, at which whatever ``key`` names must be looked at.

        ``v`` is the version of the row the deadline was computed at: a deadline from an older version than
        the one last set is ignored, so an instance that publishes late never replaces a newer deadline with
        an older one. Without ``v`` the deadline is set whatever was set before.
        """

    @abstractmethod
    async def clear_deadline(self, key: str, v: int | None = None) -> None:
        """Remove ``key``'s deadline (nothing is due for it any more); ``v`` as for ``set_deadline``."""

    @abstractmethod
    async def get_deadline(self, key: str) -> float | None:
        """The deadline of ``key``, or None."""

    @abstractmethod
    async def claim_due(self, now: float, limit: int = 100, lease: float = DEFAULT_LEASE) -> list[str]:
        """Claim up to ``limit`` keys whose deadline is at or before ``now``, earliest first.

        Each due key goes to exactly one caller across all instances: claiming atomically moves its
        deadline to ``now + lease``. The claimer settles what the key names (the database compare-and-set
        makes that safe) and then calls ``clear_deadline`` or ``set_deadline`` with the next deadline. If the
        claimer dies first, the key falls due again after the lease and another instance retries it.
        """

    # -- loss of shared state --------------------------------------------------------------------------

    @abstractmethod
    def on_state_lost(self, callback: LostCallback) -> None:
        """Call ``callback`` when the hub finds its shared state gone (Redis flushed or restarted).

        The first instance to notice (within ``presence_ttl / 3`` seconds) calls its callbacks; the
        others may not. Presence is re-asserted by every instance by itself and replays answer None; the
        application should re-register its deadlines from the database (an idempotent ``set_deadline`` per
        key). ``MemoryHub`` never loses its state, so it never calls back.
        """
