"""A seek sent while the database cannot be had is answered ``unavailable`` on the socket that sent it, which stays
open: a real server reaching PostgreSQL through a proxy the test cuts (no pooled connection, none to be made)."""

from __future__ import annotations

import asyncio

import pytest

from tests.games.live.test_faults import proxied_cluster  # noqa: F401 - pytest fixture, taken by name
from tests.support.instances import POSTGRES_ONLY, Instances, redis_cluster_prefix  # noqa: F401 - pytest fixture
from tests.support.players import Player
from tests.support.tcp_proxy import TcpProxy

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(120)]

SEEK = {"t": "seek", "sizes": [9], "speeds": ["blitz"], "rules": "any"}


async def test_a_seek_during_a_database_outage_is_refused_and_the_socket_stays_open(
    proxied_cluster: tuple[Instances, TcpProxy],
) -> None:
    group, proxy = proxied_cluster
    (one,) = group.start(1)
    ana = await Player(one.url).visit()
    try:
        lobby = await ana.lobby()
        await lobby.of_type("snapshot")
        proxy.down()  # every database connection drops; new ones are refused
        try:
            refused = await lobby.act(SEEK, timeout=30)
            assert refused["t"] == "error" and refused["code"] == "unavailable", refused
            assert refused["message"]
        finally:
            proxy.up()
        # The same socket is still served: the seek goes through once the database is back.
        for _ in range(60):
            answer = await lobby.act(SEEK, timeout=30)
            if answer["t"] == "ack":
                break
            assert answer["code"] in ("unavailable", "rate_limited"), answer
            await asyncio.sleep(0.5)  # the pool reconnects; the socket's seek budget refills
        assert answer["t"] == "ack", answer
        assert (await lobby.of_type("seeking"))["seek"]["id"] == answer["seek_id"]
    finally:
        await ana.close()
