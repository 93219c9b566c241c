"""Every socket this instance holds, by user and by client address: the caps on both, and log-out.

A stranger could otherwise open sockets until the instances run out of memory or file descriptors. A user
(all of one session's tabs) may hold ``per_user`` sockets, a client address ``per_address``: in the whole
deployment when the instances share Redis (``share``: the slots of ``app/live/socket_slots.py``, which lapse
when an instance dies), on this instance otherwise. The bundled nginx also caps connections per address
before they reach any instance (deploy/nginx.conf, ``limit_conn``). Should Redis not answer, each instance
falls back to its own count, so a Redis outage locks nobody out.

A bot connecting with its API token plays many games at once, one socket each: its sockets are capped by
its own limit instead (``user_cap``: the games it declared it plays at once, plus a few), and they do not
count towards its address's cap (``count_address=False``), since many bots may run from one machine.

Logging out ends the user's sessions everywhere: ``announce_logout`` sends a ``Logout`` over the hub's sessions
channel (app/live/hub_messages.py), and every instance closes that user's sockets (close code 4401).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.live.hub import Hub
from app.live.hub_messages import SESSIONS, Logout
from app.live.socket_slots import SharedSlots

log = logging.getLogger(__name__)

CLOSE_LOGGED_OUT = 4401
CLOSE_TOO_MANY_SOCKETS = 4429

Closer = Callable[[int, str], Awaitable[None]]


@dataclass(eq=False)
class Ticket:
    user_id: int | None
    address: str
    close: Closer
    counts_address: bool = True
    counts_user: bool = True
    slot: str | None = None  # its member in the shared slots (None: not shared)


class SocketRegistry:
    def __init__(self, per_user: int, per_address: int) -> None:
        self.per_user = per_user
        self.per_address = per_address
        self._by_user: dict[int, set[Ticket]] = {}
        self._by_address: dict[str, int] = {}
        self.slots: SharedSlots | None = None

    def share(self, slots: SharedSlots) -> None:
        """Count against the slots every instance shares from now on."""
        self.slots = slots

    async def admit(
        self,
        user_id: int | None,
        address: str,
        close: Closer,
        *,
        user_cap: int | None = None,
        count_address: bool = True,
        count_user: bool = True,
    ) -> Ticket | None:
        """A ticket for one more socket, or None when the user or the address holds its cap already.
        ``user_cap`` replaces ``per_user`` for this user; ``count_address=False`` leaves the address out;
        ``count_user=False`` leaves the user's cap out, though the socket is still closed when the user logs out."""
        address_capped = count_address and self.per_address > 0
        if address_capped and self._by_address.get(address, 0) >= self.per_address:
            return None
        cap = self.per_user if user_cap is None else user_cap
        user_capped = user_id is not None and count_user and cap > 0
        if user_capped and self.count(user_id=user_id) >= cap:
            return None
        slot = None
        if self.slots is not None:
            caps = [(self.slots.key("a", address), self.per_address)] if address_capped else []
            if user_capped:
                caps.append((self.slots.key("u", user_id or 0), cap))
            try:
                slot = await self.slots.take(caps)
            except Exception:  # Redis did not answer: this instance's own count stands
                log.warning("shared socket slots unavailable; counting this instance's sockets only", exc_info=True)
                slot = ""
            if slot is None:
                return None
        ticket = Ticket(user_id, address, close, count_address, count_user, slot or None)
        if count_address:
            self._by_address[address] = self._by_address.get(address, 0) + 1
        if user_id is not None:
            self._by_user.setdefault(user_id, set()).add(ticket)
        return ticket

    async def release(self, ticket: Ticket) -> None:
        if ticket.slot is not None and self.slots is not None:
            try:
                await self.slots.give_back(ticket.slot)
            except Exception:  # the slot lapses by itself
                log.warning("a shared socket slot could not be given back", exc_info=True)
        if ticket.counts_address:
            left = self._by_address.get(ticket.address, 0) - 1
            if left > 0:
                self._by_address[ticket.address] = left
            else:
                self._by_address.pop(ticket.address, None)
        if ticket.user_id is not None:
            tickets = self._by_user.get(ticket.user_id)
            if tickets is not None:
                tickets.discard(ticket)
                if not tickets:
                    del self._by_user[ticket.user_id]

    def count(self, *, user_id: int | None = None, address: str | None = None) -> int:
        if user_id is not None:
            return sum(1 for ticket in self._by_user.get(user_id, ()) if ticket.counts_user)
        return self._by_address.get(address or "", 0)

    async def close_user(self, user_id: int, code: int = CLOSE_LOGGED_OUT, reason: str = "logged out") -> int:
        """Close every socket of ``user_id`` on this instance; how many."""
        tickets = list(self._by_user.get(user_id, ()))
        for ticket in tickets:
            with contextlib.suppress(Exception):
                await ticket.close(code, reason)
        return len(tickets)

    # ---- across instances

    async def listen(self, hub: Hub) -> Callable[[], Awaitable[None]]:
        """Close the sockets of users who log out on any instance; returns the unsubscribe function."""

        async def on_logout(message: Logout) -> None:
            await self.close_user(message.user_id)

        return await SESSIONS.subscribe(hub, on_logout)


async def announce_logout(hub: Hub, user_id: int) -> None:
    await SESSIONS.publish(hub, Logout(user_id=user_id))
