"""Fixtures for room tests: a real uvicorn on SQLite with the in-process hub, and on PostgreSQL with Redis."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Protocol

import pytest

from tests.conftest import LiveServer
from tests.support.hubs import delete_prefix
from tests.support.players import Player
from tests.support.services import REDIS_URL, need_redis

if TYPE_CHECKING:
    from app.settings import Settings

# The two stacks every room test runs on: (database, hub).
STACKS = pytest.mark.parametrize("database_url", ["sqlite", "postgres"], indirect=True, ids=["sqlite+memory", "postgres+redis"])


@pytest.fixture
async def stack_settings(settings: Settings, database_url: str) -> AsyncIterator[Settings]:
    """The app settings: Redis (with a key prefix of its own) whenever the database is PostgreSQL."""
    if database_url.startswith("sqlite"):
        yield settings
        return
    need_redis()
    prefix = f"tengen-test-{uuid.uuid4().hex}:"
    # With Redis the socket cap per address holds across the servers, and every test client connects from
    # 127.0.0.1: no cap here (tests of that cap set their own).
    yield settings.model_copy(update={"redis_url": REDIS_URL, "redis_prefix": prefix, "sockets_per_address": 0})
    await delete_prefix(prefix)


class Servers:
    """Real uvicorn servers on one test's database and hub."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.all: list[LiveServer] = []

    def start(self) -> LiveServer:
        server = LiveServer(self.settings)
        server.start()
        self.all.append(server)
        return server

    def stop_all(self) -> None:
        for server in self.all:
            if server.thread.is_alive():
                server.stop()


@pytest.fixture
def servers(stack_settings: Settings) -> Iterator[Servers]:
    group = Servers(stack_settings)
    yield group
    group.stop_all()


@pytest.fixture
def server(servers: Servers) -> LiveServer:
    return servers.start()


class MakePlayer(Protocol):
    """What ``make_player`` gives: a signed-in guest on ``server`` (or on the server at ``base_url``)."""

    async def __call__(self, base_url: str | None = None) -> Player: ...


@pytest.fixture
async def make_player(server: LiveServer) -> AsyncIterator[MakePlayer]:
    players: list[Player] = []

    async def make(base_url: str | None = None) -> Player:
        player = await Player(base_url or server.url).visit()
        players.append(player)
        return player

    yield make
    for player in players:
        await player.close()
