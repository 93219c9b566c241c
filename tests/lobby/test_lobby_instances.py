"""The lobby across real server processes on one PostgreSQL and one Redis: what is addressed to one user
travels to the instances holding that user's lobby sockets, and no others."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from app.lobby.live.channels import user_channel
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import Player, start_game
from tests.support.services import REDIS_URL

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(90)]


async def test_a_players_turn_reaches_their_lobby_on_another_instance_and_only_that_instance_listens(
    cluster: Instances, redis_cluster_prefix: str
) -> None:
    a, b, _ = cluster.start(3)
    black, white = await Player(a.url).visit(), await Player(b.url).visit()
    client = aioredis.Redis.from_url(REDIS_URL)
    channel = f"{redis_cluster_prefix}ch:{user_channel(black.user['id'])}"

    async def listening() -> int:
        return int(dict(await client.pubsub_numsub(channel))[channel.encode()])

    try:
        game_id = await start_game(black, white)
        assert await listening() == 0
        lobby = await black.lobby(base_url=b.url)
        await lobby.of_type("snapshot")
        # The socket's instance, and none of the other two, receives what is addressed to this player.
        assert await listening() == 1
        board = await black.socket(game_id, base_url=a.url)
        await board.of_type("snapshot")
        assert (await board.act({"t": "play", "p": [2, 2]}))["t"] == "ack"
        entry = await lobby.until(lambda m: m.get("t") == "my_game" and m["game"]["id"] == game_id)
        assert entry["game"]["v"] == 1 and "_to" not in entry
        await board.close()
        await lobby.close()

        async def given_up() -> None:
            while await listening():
                await asyncio.sleep(0.05)

        await asyncio.wait_for(given_up(), 10)
    finally:
        await client.aclose()
        for player in (black, white):
            await player.close()
