"""Moderation across two real server processes on one PostgreSQL and one Redis: a block made on one instance
hides chat on the other's open sockets at once; a suspension made on one instance closes the user's sockets
and ends their seek on the other, and ends their game there."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.moderation.people import established, moderator, registered
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import start_game

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(240)]

SEEK = {"t": "seek", "sizes": [9], "speeds": ["blitz"], "rules": "any"}


async def test_moderation_takes_effect_on_every_instance_at_once(cluster: Instances, database_url: str) -> None:
    a, b = cluster.start(2)
    ana, bao, chen, dan, eve = [await registered(a.url) for _ in range(5)]
    await established(database_url, ana, bao)
    mod = await moderator(a.url, database_url)
    try:
        # Ana and Bao play; both their sockets are on instance B.
        game_id = await start_game(ana, bao)
        on_b = {p: await p.socket(game_id, base_url=b.url) for p in (ana, bao)}
        for sock in on_b.values():
            await sock.of_type("snapshot")
        # Ana blocks Bao through instance A: Bao's next line reaches her socket on B hidden.
        assert (await ana.http.post("/api/blocks", json={"name": bao.user["name"]})).status_code == 201
        said = await on_b[bao].act({"t": "chat", "channel": "players", "text": "hidden line"})
        assert await on_b[ana].event(said["v"]) == {"t": "hidden", "v": said["v"]}

        # Chen seeks through instance B.
        chen_lobby = await chen.lobby(base_url=b.url)
        await chen_lobby.of_type("snapshot")
        assert (await chen_lobby.act(SEEK))["t"] == "ack"

        # Suspended through instance A: Bao's and Chen's sockets on B close, Chen's seek is gone, and the game
        # on B ends with Ana winning by abandonment.
        until = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        for person in (bao, chen):
            done = await mod.http.post(
                f"/api/moderation/users/{person.user['name']}/suspend", json={"until": until, "reason": "abuse"}
            )
            assert done.status_code == 200, done.text
        assert await on_b[bao].close_code(15) == 4403
        assert await chen_lobby.close_code(15) == 4403
        over = await on_b[ana].of_type("game_over")
        assert over["result"]["text"] == "B+F" and over["result"]["reason"] == "abandonment"

        # Had Chen's seek stayed, Dan would be paired with him; he waits for Eve instead.
        dan_lobby, eve_lobby = await dan.lobby(base_url=a.url), await eve.lobby(base_url=b.url)
        for sock in (dan_lobby, eve_lobby):
            await sock.of_type("snapshot")
        assert (await dan_lobby.act(SEEK))["t"] == "ack"
        assert (await eve_lobby.act(SEEK))["t"] == "ack"
        paired = await dan_lobby.of_type("paired", timeout=20)
        players = {paired["game"]["players"][c]["id"] for c in ("B", "W")}
        assert players == {dan.user["id"], eve.user["id"]}

        # Either instance refuses what a suspended user tries.
        for instance in (a, b):
            refused = await chen.http.post(instance.url + "/api/challenges", json={"board_size": 9})
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_suspended"
    finally:
        for person in (ana, bao, chen, dan, eve, mod):
            await person.close()
