"""The news instances send each other over the hub's own channels (log-out, revoked tokens, sanctions, blocks),
through both hubs (``make_hub`` is parametrised memory | redis): what one instance announces, another acts on,
on the sockets that news concerns only; the wire is the objects the models make; a malformed message is logged
and dropped, and the next one is still acted on."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import orjson
import pytest
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.accounts.endings import LOGGED_OUT, TOKEN_REVOKED
from app.moderation import notices
from app.moderation.chat_filter import ChatFilters
from app.protocol import AccountSanctioned
from app.transport.credentials import Credential
from app.transport.hub import Hub
from app.moderation.hub_news import MODERATION, BlocksChanged, Sanction
from app.transport.hub_messages import SESSIONS, Logout, TokenRevoked
from app.transport.sockets import CLOSE_LOGGED_OUT, SocketRegistry, Ticket, announce_logout, announce_token_revoked
from tests.support.collect import WAIT, Collector
from tests.support.hubs import HubMaker

MALFORMED = [
    b"not json",
    b"[1, 2]",
    b'{"t": "logout"}',
    b'{"t": "logout", "user_id": "7"}',
    b'{"t": "logout", "user_id": 7, "extra": 1}',
    b'{"t": "token_revoked", "user_id": 7}',
    b'{"t": "sanction", "user_id": 7}',  # without what the user is told; and not one of the sessions channel's
    b'{"t": "blocks", "user_ids": [7, "8"]}',
    b'{"t": "unknown", "user_id": 7}',
]


class Closed:
    """The close calls of one socket, awaitable, and the last words it said before (``say``)."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str]] = []
        self.said: list[str] = []
        self.event = asyncio.Event()

    async def __call__(self, code: int, reason: str) -> None:
        self.calls.append((code, reason))
        self.event.set()

    async def say(self, text: str) -> None:
        assert not self.calls, "said after the close"
        self.said.append(text)

    async def wait(self) -> None:
        await asyncio.wait_for(self.event.wait(), WAIT)


class RecordedFilters(ChatFilters):
    """The chat filters of an instance, recording whose blocks are read again."""

    def __init__(self) -> None:
        super().__init__(async_sessionmaker())  # bound to no database: refresh is recorded, never read
        self.refreshed: list[int] = []
        self.event = asyncio.Event()

    async def refresh(self, user_id: int) -> None:
        self.refreshed.append(user_id)
        self.event.set()


@dataclass
class TwoInstances:
    """Two instances on one hub: ``a`` announces, ``b`` holds the sockets of users 7 (``target``) and 8
    (``bystander``), each from an address of its own."""

    a: Hub
    b: Hub
    registry: SocketRegistry
    target: Closed
    bystander: Closed


@pytest.fixture
async def instances(make_hub: HubMaker) -> TwoInstances:
    a = await make_hub()
    b = await make_hub.peer(a)
    registry = SocketRegistry(per_user=0, per_address=0)
    target, bystander = Closed(), Closed()
    for user_id, address, closed in ((7, "10.0.0.1", target), (8, "10.0.0.2", bystander)):
        ticket = await registry.admit(user_id, address, closed, credential=Credential(user_id, session_version=1))
        assert ticket is not None
        ticket.say = closed.say
    return TwoInstances(a, b, registry, target, bystander)


NOTICE = AccountSanctioned(action="suspend", reason="abuse", until="2031-01-02T03:04:05+00:00")


async def test_the_wire_is_the_objects_the_models_make(make_hub: HubMaker) -> None:
    hub = await make_hub()
    sessions, moderation = Collector(), Collector()
    await hub.subscribe(SESSIONS.name, sessions)
    await hub.subscribe(MODERATION.name, moderation)
    await announce_logout(hub, 5)
    await announce_token_revoked(hub, 5, 12)
    await notices.announce_sanction(hub, 6, NOTICE)
    await notices.announce_blocks(hub, [6, 7])
    await sessions.wait_count(2)
    await moderation.wait_count(2)
    assert [orjson.loads(item) for item in sessions.items] == [
        {"t": "logout", "user_id": 5},
        {"t": "token_revoked", "user_id": 5, "token_id": 12},
    ]
    sanction = {"t": "sanction", "user_id": 6, "action": "suspend", "reason": "abuse", "until": NOTICE.until}
    assert [orjson.loads(item) for item in moderation.items] == [sanction, {"t": "blocks", "user_ids": [6, 7]}]
    assert [SESSIONS.decode(item) for item in sessions.items if isinstance(item, bytes)] == [
        Logout(user_id=5),
        TokenRevoked(user_id=5, token_id=12),
    ]
    assert [MODERATION.decode(item) for item in moderation.items if isinstance(item, bytes)] == [
        Sanction(user_id=6, action="suspend", reason="abuse", until=NOTICE.until),
        BlocksChanged(user_ids=[6, 7]),
    ]


async def test_a_logout_on_one_instance_closes_the_users_sockets_on_another_after_malformed_news(
    instances: TwoInstances, caplog: pytest.LogCaptureFixture
) -> None:
    stop = await instances.registry.listen(instances.b, logged_out=LOGGED_OUT, token_revoked=TOKEN_REVOKED)
    try:
        with caplog.at_level(logging.WARNING, logger="app.transport.hub_messages"):
            for data in MALFORMED:
                await instances.a.publish(SESSIONS.name, data)
            await announce_logout(instances.a, 7)
            await instances.target.wait()
        assert instances.target.calls == [(CLOSE_LOGGED_OUT, "logged out")]
        assert instances.target.said == []  # the close says it all
        assert instances.bystander.calls == []
        dropped = [r for r in caplog.records if "malformed message on the hub's sessions channel" in r.getMessage()]
        assert len(dropped) == len(MALFORMED)
    finally:
        await stop()


async def test_a_revoked_token_closes_the_sockets_it_opened_on_another_instance_and_no_other(
    instances: TwoInstances,
) -> None:
    """User 7's sockets opened with token 12 close (an ``invalid_token`` error first); those opened with their
    token 13 or their session cookie stay, as do user 8's."""
    opened: dict[str, Closed] = {}
    for name, credential in (("12", Credential(7, token_id=12, scopes=frozenset({"read", "play"}))),
                             ("13", Credential(7, token_id=13, scopes=frozenset({"read"})))):  # fmt: skip
        opened[name] = Closed()
        ticket = await instances.registry.admit(7, "10.0.0.3", opened[name], credential=credential)
        assert isinstance(ticket, Ticket)
        ticket.say = opened[name].say
    stop = await instances.registry.listen(instances.b, logged_out=LOGGED_OUT, token_revoked=TOKEN_REVOKED)
    try:
        await announce_token_revoked(instances.a, 7, 12)
        await opened["12"].wait()
        assert opened["12"].calls == [(4401, "token revoked")]
        assert [orjson.loads(text)["code"] for text in opened["12"].said] == ["invalid_token"]
        await announce_logout(instances.a, 8)  # news after the revocation, so that it has been acted on
        await instances.bystander.wait()
        assert opened["13"].calls == [] and instances.target.calls == []
    finally:
        await stop()


async def test_sanctions_and_blocks_on_one_instance_are_acted_on_by_another_after_malformed_news(
    instances: TwoInstances, caplog: pytest.LogCaptureFixture
) -> None:
    filters = RecordedFilters()
    seeks_ended: list[int] = []

    async def end_seek(user_id: int) -> None:
        seeks_ended.append(user_id)

    stop = await notices.listen(instances.b, instances.registry, filters, end_seek)
    try:
        malformed = [*MALFORMED, b'{"t": "logout", "user_id": 7}', b'{"t": "blocks", "user_ids": 7}', b'{"t": "sanction"}']
        with caplog.at_level(logging.WARNING, logger="app.transport.hub_messages"):
            for data in malformed:
                await instances.a.publish(MODERATION.name, data)
            await notices.announce_blocks(instances.a, [7, 9])
            await notices.announce_sanction(instances.a, 7, NOTICE)
            await instances.target.wait()
        assert filters.refreshed == [7, 9]
        assert seeks_ended == [7]
        # The socket reads why, then closes.
        assert [orjson.loads(text) for text in instances.target.said] == [NOTICE.wire()]
        assert instances.target.calls == [(notices.CLOSE_SANCTIONED, "account suspended")]
        assert instances.bystander.calls == []
        dropped = [r for r in caplog.records if "malformed message on the hub's moderation channel" in r.getMessage()]
        assert len(dropped) == len(malformed)
    finally:
        await stop()
