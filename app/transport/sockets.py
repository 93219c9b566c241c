"""Every socket this instance holds, by user and by client address: the caps on both, and log-out.

A stranger could otherwise open sockets until the instances run out of memory or file descriptors. A user
(all of one session's tabs) may hold ``per_user`` sockets, a client address ``per_address``: in the whole
deployment when the instances share Redis (``share``: the slots of ``app/transport/socket_slots.py``, which lapse
when an instance dies), on this instance otherwise. The bundled nginx also caps connections per address
before they reach any instance (deploy/nginx.conf, ``limit_conn``). Should Redis not answer, each instance
falls back to its own count, so a Redis outage locks nobody out.

A bot connecting with its API token holds many rooms at once, one socket each: its sockets are capped by
its own limit instead (``user_cap``: the rooms it declared it holds at once, plus a few), and they do not
count towards its address's cap (``count_address=False``), since many bots may run from one machine.

Each ticket holds the credential its socket was opened with (app/transport/credentials.py), so that what ends the
credential ends the sockets it opened, on every instance, over the hub's sessions channel
(app/transport/hub_messages.py): ``announce_logout`` (the user's session cookies stop working) closes the sockets
opened with a session cookie of that user, ``announce_token_revoked`` those opened with that token, close code
4401 either way (a revoked token's socket reads an ``invalid_token`` error first: what each ending says is the
accounts' own, app/accounts/endings.py, handed to ``listen``). ``end`` closes one socket for
a reason (an ``Ending``): the ticket is marked at once, so the socket's messages are refused from then on, its
last words are said through the socket's own writer (``Ticket.say``, in order with what it was sending) and
then it is closed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable, Iterator
from dataclasses import dataclass, field

from app.transport.credentials import ANONYMOUS, CLOSE_CREDENTIAL_ENDED, Credential, Ending
from app.transport.hub import Hub, ResetCallback
from app.transport.hub_messages import SESSIONS, Logout, TokenRevoked
from app.transport.socket_slots import SharedSlots

log = logging.getLogger(__name__)

CLOSE_LOGGED_OUT = CLOSE_CREDENTIAL_ENDED
CLOSE_TOO_MANY_SOCKETS = 4429

Closer = Callable[[int, str], Awaitable[None]]
Sayer = Callable[[str], Awaitable[None]]


@dataclass(eq=False)
class Ticket:
    user_id: int | None
    address: str
    close: Closer
    counts_address: bool = True
    counts_user: bool = True
    slot: str | None = None  # its member in the shared slots (None: not shared)
    credential: Credential = field(default=ANONYMOUS)
    # The user's sanction when the socket opened (None: none), as app/moderation/notices.py keys it: a sanction
    # already in force when a socket opened does not end it again.
    sanction: Hashable | None = None
    say: Sayer | None = None  # the socket's own writer, for its last words (None: close without them)
    ended: Ending | None = None  # set once the socket is being ended: its messages are refused from then on


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
        credential: Credential | None = None,
        sanction: Hashable | None = None,
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
        if credential is None:
            credential = ANONYMOUS if user_id is None else Credential(user_id)
        ticket = Ticket(user_id, address, close, count_address, count_user, slot or None, credential, sanction)
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

    def tickets(self) -> Iterator[Ticket]:
        """Every signed-in socket's ticket on this instance (a visitor's holds no credential to lose)."""
        for tickets in list(self._by_user.values()):
            yield from list(tickets)

    def of_user(self, user_id: int) -> list[Ticket]:
        return list(self._by_user.get(user_id, ()))

    async def end(self, ticket: Ticket, ending: Ending) -> bool:
        """End one socket for ``ending``: marked at once (its messages are refused from now on), its last words
        said, then closed. False when it was being ended already."""
        if ticket.ended is not None:
            return False
        ticket.ended = ending
        if ending.last is not None and ticket.say is not None:
            with contextlib.suppress(Exception):  # gone already: the close below is all there is to do
                await ticket.say(ending.last)
        with contextlib.suppress(Exception):
            await ticket.close(ending.close_code, ending.close_reason)
        return True

    async def end_user(self, user_id: int, ending: Ending, which: Callable[[Ticket], bool] = lambda _ticket: True) -> int:
        """End the sockets of ``user_id`` on this instance that ``which`` picks; how many."""
        ended = 0
        for ticket in self.of_user(user_id):
            if which(ticket) and await self.end(ticket, ending):
                ended += 1
        return ended

    # ---- across instances

    async def listen(
        self, hub: Hub, on_reset: ResetCallback | None = None, *, logged_out: Ending, token_revoked: Ending
    ) -> Callable[[], Awaitable[None]]:
        """End, on this instance, the sockets of a session that logged out (for ``logged_out``) or of a token
        revoked (for ``token_revoked``) on any instance; ``on_reset``: called when this instance may have missed
        some of that news. Returns the unsubscribe function."""

        async def on_news(message: Logout | TokenRevoked) -> None:
            if isinstance(message, Logout):
                await self.end_user(message.user_id, logged_out, lambda ticket: not ticket.credential.is_token)
            else:
                token_id = message.token_id
                await self.end_user(message.user_id, token_revoked, lambda ticket: ticket.credential.token_id == token_id)

        return await SESSIONS.subscribe(hub, on_news, on_reset)


async def announce_logout(hub: Hub, user_id: int) -> None:
    await SESSIONS.publish(hub, Logout(user_id=user_id))


async def announce_token_revoked(hub: Hub, user_id: int, token_id: int) -> None:
    await SESSIONS.publish(hub, TokenRevoked(user_id=user_id, token_id=token_id))
