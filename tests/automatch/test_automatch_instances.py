"""Automatch across two real server processes on one PostgreSQL and one Redis.

200 seekers with random preferences, half on each instance: nobody is paired twice, every pair is
compatible, and everyone who could be paired is. A Redis that loses its keys loses no seeker.
"""

from __future__ import annotations

import asyncio
import random
import time

import asyncpg
import orjson
import pytest

from app.automatch.pairing import Seeker, compatible
from app.automatch.preferences import SPEED_TIME_CONTROLS, SeekPreferences
from app.ratings.ranks import starting_rating
from tests.support.instances import (  # noqa: F401 - pytest fixtures, taken by name as test parameters
    POSTGRES_ONLY,
    Instances,
    cluster,
    delete_redis_prefix,
    redis_cluster_prefix,
)
from tests.support.players import GameSocket, Player

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(240)]

SEEKERS = 200
STRENGTHS = [None, None, "8k", "7k", "5k"]  # ratings within three ranks: every gap is accepted within 20 s
SPEED_OF = {orjson.dumps(tc): speed for speed, tc in SPEED_TIME_CONTROLS.items()}


def _reading(sock: GameSocket) -> asyncio.Task[None]:
    async def read() -> None:
        async for raw in sock.connection:
            sock.received.append(orjson.loads(raw))

    return asyncio.create_task(read())


def _paired(sock: GameSocket) -> list[dict]:
    return [m for m in sock.received if m.get("t") == "paired"]


async def _set_strength(database_url: str, strengths: dict[int, str]) -> None:
    connection = await asyncpg.connect(database_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        for user_id, strength in strengths.items():
            await connection.execute("UPDATE users SET strength = $1 WHERE id = $2", strength, user_id)
    finally:
        await connection.close()


async def test_two_hundred_seekers_over_two_instances(cluster: Instances, database_url: str) -> None:
    cluster.env["TENGEN_SOCKETS_PER_ADDRESS"] = "0"
    a, b = cluster.start(2)
    rng = random.Random(16)
    people = [Player((a if n % 2 else b).url) for n in range(SEEKERS)]
    sockets: list[GameSocket] = []
    readers: list[asyncio.Task[None]] = []
    try:
        for person in people:
            await person.visit()
        strengths = {p.user["id"]: s for p in people if (s := rng.choice(STRENGTHS))}
        await _set_strength(database_url, strengths)
        prefs = {}
        for person in people:
            prefs[person.user["id"]] = SeekPreferences(
                sizes=rng.sample([9, 13, 19], rng.randint(1, 2)),
                speeds=rng.sample(["blitz", "rapid", "classical"], rng.randint(1, 2)),
                rules=rng.choice(["any", "any", "chinese", "japanese"]),
                handicap=rng.random() < 0.5,
            )
        for person in people:
            sock = await person.lobby()
            sockets.append(sock)
            readers.append(_reading(sock))
        placed_at = {}
        for person, sock in zip(people, sockets):
            message = {"t": "seek", "id": f"s{person.user['id']}", **prefs[person.user["id"]].model_dump()}
            await sock.send(message)
            placed_at[person.user["id"]] = time.time()
        # Wait until every seeker has waited long enough to accept any gap in this crowd (by the servers' clock:
        # a seek's waiting time starts when the server placed it, in its ``seeking``), and pairing is quiet.
        quiet_since, count = time.time(), -1
        while True:
            await asyncio.sleep(0.5)
            now_count = sum(len(_paired(s)) for s in sockets)
            if now_count != count:
                count, quiet_since = now_count, time.time()
            placed = [m["seek"]["since"] for s in sockets for m in s.received if m.get("t") == "seeking"]
            if len(placed) == SEEKERS and time.time() - max(placed) > 22 and time.time() - quiet_since > 3:
                break
        for person, sock in zip(people, sockets):
            placed_at[person.user["id"]] = next(m["seek"]["since"] for m in sock.received if m.get("t") == "seeking")
        acks = [m for s in sockets for m in s.received if m.get("t") in ("ack", "error") and str(m.get("id", "")).startswith("s")]
        assert all(m["t"] == "ack" for m in acks) and len(acks) == SEEKERS, [m for m in acks if m["t"] != "ack"][:3]

        games: dict[str, dict] = {}
        paired_users: dict[int, str] = {}
        for person, sock in zip(people, sockets):
            ids = {m["game_id"] for m in _paired(sock)}
            assert len(ids) <= 1, (person.user, ids)  # nobody paired twice
            for m in _paired(sock):
                games[m["game_id"]] = m["game"]
            if ids:
                paired_users[person.user["id"]] = ids.pop()
        for game_id, game in games.items():
            black, white = game["players"]["B"]["id"], game["players"]["W"]["id"]
            assert black != white and paired_users[black] == game_id and paired_users[white] == game_id
            speed = SPEED_OF[orjson.dumps(game["time_control"])]
            for user_id in (black, white):  # every pair compatible
                mine = prefs[user_id]
                assert game["board_size"] in mine.sizes and speed in mine.speeds
                assert mine.rules in ("any", game["rules"]) and not game["rated"]
        # Everyone who could be paired is: no two of those left are compatible, even now.
        now = time.time()
        left = [
            Seeker(seek_id=str(u), user_id=u, rating=starting_rating(strengths.get(u)).rating, prefs=prefs[u], since=placed_at[u])
            for u in prefs
            if u not in paired_users
        ]
        assert not [(x.user_id, y.user_id) for i, x in enumerate(left) for y in left[i + 1 :] if compatible(x, y, now)]
        assert len(games) >= SEEKERS // 4, len(games)  # the crowd overlaps enough for many games
        # The database agrees: one game per paired player, none for the others.
        connection = await asyncpg.connect(database_url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            rows = await connection.fetch("SELECT id, black_id, white_id FROM games")
        finally:
            await connection.close()
        assert {r["id"] for r in rows} == set(games)
        in_games = [u for r in rows for u in (r["black_id"], r["white_id"])]
        assert len(in_games) == len(set(in_games)) == len(paired_users)
        # Pairs were made across the two instances, not only within each.
        instance_of = {p.user["id"]: p.base_url for p in people}
        assert any(instance_of[g["players"]["B"]["id"]] != instance_of[g["players"]["W"]["id"]] for g in games.values())
    finally:
        for reader in readers:
            reader.cancel()
        for sock in sockets:
            await sock.close()
        for person in people:
            await person.close()


async def test_a_seek_survives_redis_losing_its_keys(cluster: Instances, redis_cluster_prefix: str) -> None:
    a, b = cluster.start(2)
    ana, bao = Player(a.url), Player(b.url)
    try:
        await ana.visit()
        await bao.visit()
        on_a, on_b = await ana.lobby(), await bao.lobby()
        assert (await on_a.act({"t": "seek", "sizes": [9], "speeds": ["blitz"]}))["t"] == "ack"
        await asyncio.sleep(0.5)
        assert delete_redis_prefix(redis_cluster_prefix) > 0  # the Redis lost everything of ours
        await asyncio.sleep(2.5)  # a sweep or two: instance A places Ana's seek again
        assert (await on_b.act({"t": "seek", "sizes": [9, 13], "speeds": ["blitz", "rapid"]}))["t"] == "ack"
        paired_a, paired_b = await on_a.of_type("paired"), await on_b.of_type("paired")
        assert paired_a["game_id"] == paired_b["game_id"] and paired_a["game"]["board_size"] == 9
        assert "seek_cancelled" not in {m.get("t") for m in on_a.received}
        for sock in (on_a, on_b):
            await sock.close()
    finally:
        await ana.close()
        await bao.close()
