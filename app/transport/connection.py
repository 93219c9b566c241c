"""One WebSocket in a room: its role there, its outgoing queue, and its flood limits (every socket's, in a room or not).

Everything sent to a socket goes through its queue and one writer, so a slow client delays only itself. The
writer runs at once, in the turn of the event loop that queued the message (``app/transport/eager.py``), and
becomes a task only when a send has to wait (the socket's buffer is full) or a gap is filled from the
database: fanning an event out to a thousand sockets that keep up makes no task at all. The queue and the task
exist only while there is something to send: an idle socket (most onlookers, most of the time) holds
neither. Versioned texts are sent in order with no gaps and no repeats: the writer
remembers the last ``v`` it sent, drops anything at or below it, and fills a gap from the room (the hub's log or the database)
before going on.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from app.transport.lag import LagEstimator
from app.transport import eager

QUEUE_LIMIT = 2000
FLOOD_LIMIT = 20  # the refusal (over the message rate) that closes a socket: its 20th within FLOOD_WINDOW
FLOOD_WINDOW = 60.0  # seconds a refusal counts for: a long session is never cut for refusals long past
FLOOD_REASON = f"{FLOOD_LIMIT} messages refused within {FLOOD_WINDOW:g} s: slow down and reconnect"
# A socket whose messages keep being refused for what they say (``POINTLESS``: an action its role may not take, chat
# past the chat limit, a malformed frame), SLOW_AFTER times within FLOOD_WINDOW, is read about once every SLOW_INTERVAL
# seconds until those refusals age out: the server stops reading it meanwhile (TCP backpressure), so whatever
# it sends costs the instance one message a second. The socket stays open: a close only invites a
# reconnection, which costs more (an admission and a snapshot) than the refusals it would spare.
# Each wait is drawn between half and one and a half SLOW_INTERVAL: sockets slowed together (a flood from many
# sockets at once, each with its frames already waiting) would otherwise be read together, every second, in
# one burst that everybody else's messages queue behind; drawn, their reads spread over the second.
SLOW_AFTER = 10
SLOW_INTERVAL = 1.0
# The refusals a client's own state could have foreseen: the socket alone decides them, never the room (its
# races and outages, ``not_your_turn``, ``unavailable``... do not count, nor ``rate_limited``,
# which counts towards the close instead). A well-formed message with a value past a documented limit
# (``chat_too_long``, ``comment_too_long``, ``bad_mark``: app/field_limits.py) is an honest mistake and does not
# count either; a frame past its socket's cap (``too_large``) does, for every cap is derived from the longest
# text its messages may carry, written by any encoder (app/protocol.py): no honest message reaches it.
POINTLESS = frozenset(
    {
        "not_a_player",
        "not_allowed",
        "not_authenticated",
        "chat_rate_limited",
        "chat_repeated",
        "chat_muted",
        "account_suspended",
        "account_banned",
        "too_large",
        "bad_json",
        "invalid_message",
        "unknown_type",
    }
)
CLOSE_TOO_SLOW = 4008
CLOSE_FLOODING = 4029

_ids = itertools.count(1)
_STARTING: Any = object()  # Connection._writer while a writer runs in the pusher's turn (see _enqueue)


@dataclass(slots=True)
class TokenBucket:
    """``rate`` tokens a second up to ``burst``; ``take`` says whether one was available."""

    rate: float
    burst: float
    tokens: float = field(default=-1.0)
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Refusals:
    """The recent refusals of one socket (in a room or not): by default the ``FLOOD_LIMIT``-th within
    ``FLOOD_WINDOW`` seconds is answered like the others, and then the socket is closed (4029)."""

    __slots__ = ("_times",)

    def __init__(self, limit: int = FLOOD_LIMIT) -> None:
        self._times: deque[float] = deque(maxlen=limit)

    def count(self, now: float | None = None) -> bool:
        """Count one refused message; True when it is the ``limit``-th within ``FLOOD_WINDOW`` seconds."""
        now = time.monotonic() if now is None else now
        self._times.append(now)
        return self.reached(now)

    def reached(self, now: float | None = None) -> bool:
        """Whether ``limit`` refusals fall within the last ``FLOOD_WINDOW`` seconds."""
        now = time.monotonic() if now is None else now
        while self._times and self._times[0] <= now - FLOOD_WINDOW:
            self._times.popleft()
        return len(self._times) == self._times.maxlen


# (after_v, upto_v) -> [(v, text)]: the texts this connection missed, as its viewer sees them.
GapFiller = Callable[[int, int], Awaitable[list[tuple[int, str]]]]


class Connection:
    """A socket's place in a room. ``send`` is the socket's ``send_text``; ``send_now``, when the server offers
    one (``app/ws_protocol.py``), sends a text at once if the socket can take it and says whether it did: a
    message for a socket with nothing queued then goes out with no queue, writer or coroutine at all."""

    __slots__ = (
        "id",
        "user_id",
        "user_name",
        "role",
        "_send",
        "_send_now",
        "_close",
        "_queue",
        "last_v",
        "messages",
        "refused",
        "pointless",
        "chat_held_until",
        "_pings",
        "_lag",
        "fill_gap",
        "_writer",
        "closed",
    )

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Coroutine[Any, Any, None]],
        *,
        user_id: int | None,
        user_name: str | None,
        role: str | None,
        send_now: Callable[[str], bool] | None = None,
    ) -> None:
        self.id = f"c{next(_ids)}-{id(self):x}"
        self.user_id = user_id
        self.user_name = user_name
        self.role = role  # the socket's role in its room, as the room's domain names it; None: it holds none
        self._send = send
        self._send_now = send_now
        self._close = close
        self._queue: deque[tuple[int | None, str, bool]] | None = None  # made when there is something to send
        self.last_v: int | None = None  # None until the first snapshot or replay start is queued
        self.messages = TokenBucket(rate=10.0, burst=30.0)
        self.refused: Refusals | None = None  # made at the first refusal over the message rate
        self.pointless: Refusals | None = None  # made at the first refusal of what a message says
        self.chat_held_until = 0.0  # monotonic time before which this socket's chat is refused unasked
        self._pings: dict[str, float] | None = None
        self._lag: LagEstimator | None = None  # made at the first measured round trip
        self.fill_gap: GapFiller | None = None
        self._writer: asyncio.Task[None] | None = None  # running only while the queue has items
        self.closed = False  # no more sending: the socket went away, was too slow, or flooded

    @property
    def lag(self) -> float | None:
        """The one-way lag estimate from the server's ping round trips (None before the first pong)."""
        return None if self._lag is None else self._lag.estimate()

    @property
    def busy(self) -> bool:
        """Whether a writer is sending queued messages right now."""
        return self._writer is not None

    def refuse(self, now: float | None = None) -> bool:
        """Count one refused message; True when it is the ``FLOOD_LIMIT``-th within ``FLOOD_WINDOW`` seconds."""
        if self.refused is None:
            self.refused = Refusals()
        return self.refused.count(now)

    def refused_for(self, code: str | None, now: float | None = None) -> None:
        """Count a refusal of what a message said (``POINTLESS``) towards slowing the socket down."""
        if code in POINTLESS:
            if self.pointless is None:
                self.pointless = Refusals(SLOW_AFTER)
            self.pointless.count(now)

    def read_delay(self, now: float | None = None) -> float:
        """Seconds to wait before reading this socket's next message: on average ``SLOW_INTERVAL`` (drawn
        between half and one and a half of it) while ``SLOW_AFTER`` of its refusals fall within
        ``FLOOD_WINDOW``, else 0."""
        if self.pointless is None or not self.pointless.reached(now):
            return 0.0
        return SLOW_INTERVAL * (0.5 + random.random())

    def ping_sent(self, ping_id: str, at: float) -> None:
        if self._pings is None:
            self._pings = {}
        self._pings[ping_id] = at
        while len(self._pings) > 8:
            self._pings.pop(next(iter(self._pings)))

    def pong_received(self, ping_id: str, at: float) -> None:
        """A round trip measured by the server, for the lag estimate (:class:`~app.transport.lag.LagEstimator`)."""
        sent = None if self._pings is None else self._pings.pop(ping_id, None)
        if sent is None:
            return
        if self._lag is None:
            self._lag = LagEstimator()
        self._lag.record(at - sent)

    def start(self, fill_gap: GapFiller) -> None:
        self.fill_gap = fill_gap

    def push(self, text: str, v: int | None = None) -> None:
        """Queue a message; versioned ones are ordered and de-duplicated by the writer."""
        self._enqueue((v, text, False))

    async def reply(self, text: str) -> None:
        """Answer this socket's own message (an ack or an error): at once when nothing is queued for it.

        An answer carries no version, so only its place behind what is already queued matters. Sent inline it
        does not wait behind the writers of every other socket the same event is being delivered to.
        """
        if self._queue is not None or self.closed:
            self.push(text)
            return
        if self._send_now is not None and self._send_now(text):
            return  # written to the transport: no coroutine of the send path was needed
        try:
            await self._send(text)
        except Exception:  # the socket went away; the endpoint notices and cleans up
            self.closed = True

    def push_start(self, text: str | None, v: int) -> None:
        """Queue the start of this connection's stream: a snapshot at ``v`` (or, with no text, a replay base)."""
        self._enqueue((v, text or "", True))

    def _enqueue(self, item: tuple[int | None, str, bool]) -> None:
        if self.closed:
            return
        if self._queue is None and self._send_now is not None and self._sent_now(item):
            return
        queue = self._queue
        if queue is None:
            queue = self._queue = deque()
        elif len(queue) >= QUEUE_LIMIT:
            self.closed = True
            asyncio.get_running_loop().create_task(
                self._close(CLOSE_TOO_SLOW, "too slow to keep up: reconnect with ?v= to catch up")
            )
            return
        queue.append(item)
        if self._writer is None:
            # Sent at once while the socket takes it (the usual case: no task at all); a writer task goes on
            # only from a send that has to wait. Until then the placeholder keeps a nested push from starting
            # a second writer.
            self._writer = _STARTING
            writer = eager.start(self._write_loop())
            if writer is not None:
                self._writer = writer

    def _sent_now(self, item: tuple[int | None, str, bool]) -> bool:
        """With nothing queued: ``item`` dealt with at once, as the writer would (sent, or dropped as already
        sent). False leaves it to the queue and the writer: a gap to fill, or a socket that cannot take it now."""
        v, text, start = item
        assert self._send_now is not None
        if start:
            if text and not self._send_now(text):
                return False
            self.last_v = v
            return True
        if v is None:
            return self._send_now(text)
        if self.last_v is None or v <= self.last_v:
            return True  # before this connection's start, or already sent
        if v == self.last_v + 1 and self._send_now(text):
            self.last_v = v
            return True
        return False

    async def _write_loop(self) -> None:
        """Send everything queued, then end (the next push starts a new writer)."""
        queue = self._queue
        assert queue is not None
        try:
            while queue:
                v, text, start = queue.popleft()
                if start:
                    self.last_v = v
                    if text:
                        await self._send(text)
                    continue
                if v is None:
                    await self._send(text)
                    continue
                if self.last_v is None or v <= self.last_v:
                    continue  # before this connection's start, or already sent
                if v > self.last_v + 1 and self.fill_gap is not None:
                    for missed_v, missed in await self.fill_gap(self.last_v, v - 1):
                        if missed_v > self.last_v:
                            await self._send(missed)
                            self.last_v = missed_v
                await self._send(text)
                self.last_v = v
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away; the endpoint notices and cleans up
            self.closed = True
        finally:
            # Nothing is awaited between the last look at the queue and this: a push after it starts a new writer.
            self._writer = None
            if not queue:
                self._queue = None

    async def flush(self, timeout: float = 1.0) -> None:
        """Wait (at most ``timeout`` seconds) until everything queued so far has been sent."""
        writer = self._writer
        if isinstance(writer, asyncio.Task):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(writer), timeout)

    async def stop(self) -> None:
        self.closed = True
        writer, self._writer = self._writer, None
        if isinstance(writer, asyncio.Task):
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
