"""Moderation across two real server processes on one PostgreSQL and one Redis: a block made on one instance
hides chat on the other's open sockets at once; a suspension made on one instance closes the user's sockets
and ends their seek on the other, and ends their game there."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.moderation.people import established, moderator, registered
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, start_game
from tests.support.reviews import finished_game, make_review

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


def _last_words(sock: GameSocket) -> dict:
    """The last message a closed socket received (clock ticks and the server's pings aside)."""
    return [m for m in sock.received if m.get("t") not in ("clock", "ping")][-1]


async def test_a_sanctioned_user_hears_why_on_every_socket_and_instance_and_later_on_asking(
    cluster: Instances, database_url: str
) -> None:
    a, b = cluster.start(2)
    ana, bao = await registered(a.url), await registered(a.url)
    mod = await moderator(a.url, database_url)
    try:
        review = await make_review(bao, await finished_game(ana, bao))
        game_id = await start_game(ana, bao)
        # Bao's lobby on both instances, his game and his review on B.
        sockets = [
            await bao.lobby(base_url=a.url),
            await bao.lobby(base_url=b.url),
            await bao.socket(game_id, base_url=b.url),
            await bao.review(review["id"], base_url=b.url),
        ]
        for sock in sockets:
            await sock.of_type("snapshot")

        until = (datetime.now(UTC) + timedelta(hours=5)).replace(microsecond=0)
        done = await mod.http.post(
            f"/api/moderation/users/{bao.user['name']}/suspend", json={"until": until.isoformat(), "reason": "abuse"}
        )
        assert done.status_code == 200, done.text

        # Every socket says why before it closes: what the client needs to say it in the player's language.
        for sock in sockets:
            assert await sock.close_code(15) == 4403
            told = _last_words(sock)
            assert (told["t"], told["action"], told["reason"]) == ("account_sanctioned", "suspend", "abuse")
            assert datetime.fromisoformat(told["until"]) == until

        # Later, on either instance, the player is told again: /api/me, and the lobby's snapshot.
        for instance in (a, b):
            me = (await bao.http.get(instance.url + "/api/me")).json()
            assert me["sanction"]["action"] == "suspend" and me["sanction"]["reason"] == "abuse"
            assert datetime.fromisoformat(me["sanction"]["until"]) == until
            lobby = await bao.lobby(base_url=instance.url)
            snapshot = await lobby.of_type("snapshot")
            assert snapshot["sanction"] == me["sanction"]
            await lobby.close()
        assert (await ana.http.get(b.url + "/api/me")).json()["sanction"] is None
    finally:
        for person in (ana, bao, mod):
            await person.close()
