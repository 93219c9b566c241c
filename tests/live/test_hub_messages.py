"""The news instances send each other over the hub's own channels (log-out, sanctions, blocks), through both
hubs (``make_hub`` is parametrised memory | redis): what one instance announces, another acts on; the wire is
the objects the models make; a malformed message is logged and dropped, and the next one is still acted on."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import orjson
import pytest
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.live.hub_messages import MODERATION, SESSIONS, BlocksChanged, Logout, Sanction
from app.live.sockets import CLOSE_LOGGED_OUT, SocketRegistry, announce_logout
from app.moderation import notices
from app.moderation.chat_filter import ChatFilters
from tests.live.collect import WAIT, Collector
from tests.live.conftest import HubMaker
from app.live.hub import Hub

MALFORMED = [
    b"not json",
    b"[1, 2]",
    b'{"t": "logout"}',
    b'{"t": "logout", "user_id": "7"}',
    b'{"t": "logout", "user_id": 7, "extra": 1}',
    b'{"t": "sanction", "user_id": 7}',  # a moderation message: not one of the sessions channel's
    b'{"t": "blocks", "user_ids": [7, "8"]}',
    b'{"t": "unknown", "user_id": 7}',
]


class Closed:
    """The close calls of one socket, awaitable."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str]] = []
        self.event = asyncio.Event()

    async def __call__(self, code: int, reason: str) -> None:
        self.calls.append((code, reason))
        self.event.set()

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
    await registry.admit(7, "10.0.0.1", target)
    await registry.admit(8, "10.0.0.2", bystander)
    return TwoInstances(a, b, registry, target, bystander)


async def test_the_wire_is_the_objects_the_models_make(make_hub: HubMaker) -> None:
    hub = await make_hub()
    sessions, moderation = Collector(), Collector()
    await hub.subscribe(SESSIONS.name, sessions)
    await hub.subscribe(MODERATION.name, moderation)
    await announce_logout(hub, 5)
    await notices.announce_sanction(hub, 6)
    await notices.announce_blocks(hub, [6, 7])
    await sessions.wait_count(1)
    await moderation.wait_count(2)
    assert [orjson.loads(item) for item in sessions.items] == [{"t": "logout", "user_id": 5}]
    assert [orjson.loads(item) for item in moderation.items] == [
        {"t": "sanction", "user_id": 6},
        {"t": "blocks", "user_ids": [6, 7]},
    ]
    assert [SESSIONS.decode(item) for item in sessions.items if isinstance(item, bytes)] == [Logout(user_id=5)]
    assert [MODERATION.decode(item) for item in moderation.items if isinstance(item, bytes)] == [
        Sanction(user_id=6),
        BlocksChanged(user_ids=[6, 7]),
    ]


async def test_a_logout_on_one_instance_closes_the_users_sockets_on_another_after_malformed_news(
    instances: TwoInstances, caplog: pytest.LogCaptureFixture
) -> None:
    stop = await instances.registry.listen(instances.b)
    try:
        with caplog.at_level(logging.WARNING, logger="app.live.hub_messages"):
            for data in MALFORMED:
                await instances.a.publish(SESSIONS.name, data)
            await announce_logout(instances.a, 7)
            await instances.target.wait()
        assert instances.target.calls == [(CLOSE_LOGGED_OUT, "logged out")]
        assert instances.bystander.calls == []
        dropped = [r for r in caplog.records if "malformed message on the hub's sessions channel" in r.getMessage()]
        assert len(dropped) == len(MALFORMED)
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
        malformed = [data for data in MALFORMED if data != b'{"t": "sanction", "user_id": 7}']
        malformed += [b'{"t": "logout", "user_id": 7}', b'{"t": "blocks", "user_ids": 7}', b'{"t": "sanction"}']
        with caplog.at_level(logging.WARNING, logger="app.live.hub_messages"):
            for data in malformed:
                await instances.a.publish(MODERATION.name, data)
            await notices.announce_blocks(instances.a, [7, 9])
            await notices.announce_sanction(instances.a, 7)
            await instances.target.wait()
        assert filters.refreshed == [7, 9]
        assert seeks_ended == [7]
        assert instances.target.calls == [(notices.CLOSE_SANCTIONED, "account suspended")]
        assert instances.bystander.calls == []
        dropped = [r for r in caplog.records if "malformed message on the hub's moderation channel" in r.getMessage()]
        assert len(dropped) == len(malformed)
    finally:
        await stop()
