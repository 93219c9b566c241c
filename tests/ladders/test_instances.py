"""Two real server processes on one PostgreSQL database and one Redis, each running its ladder keeper every tenth
of a second: every challenge whose deadline passes is settled exactly once (one history event, the ladder's
version advanced once per settlement, the order swapped once), and both instances' lobby sockets hear of it."""

from __future__ import annotations

import asyncio

import pytest

from tests.ladders.people import LADDER, names, on_ladder, set_ladder, view
from tests.support.endings import Lobby
from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(120)]

PAIRS = 4


async def test_each_deadline_is_settled_once_whichever_instance_gets_there(cluster: Instances, database_url: str) -> None:
    cluster.env["TENGEN_LADDER_SWEEP_SECONDS"] = "0.1"
    a, b = cluster.start(2)
    people = await on_ladder(a.url, 2 * PAIRS)
    people[1].base_url = b.url  # a lobby socket on each instance
    watchers = [await Lobby.open(people[0]), await Lobby.open(people[1])]
    await set_ladder(database_url, answer_hours=2.0 / 3600)  # two seconds to answer
    start = (await view(people[0]))["version"]
    challenges = []
    for i in range(PAIRS):  # the second of each pair challenges the first, half on each instance
        challenger, defender = people[2 * i + 1], people[2 * i]
        challenger.http.base_url = (a if i % 2 else b).url
        made = await challenger.http.post(f"/api/ladders/{LADDER}/challenges", json={"defender_id": defender.user["id"]})
        assert made.status_code == 201, made.text
        challenges.append(made.json()["id"])
    for watcher in watchers:  # each settlement is heard on both instances, in order
        for n in range(PAIRS):
            await watcher.of_type("ladder_changed", timeout=20, ladder=LADDER, version=start + PAIRS + n + 1)
    await asyncio.sleep(1.0)  # ten more rounds of each keeper: nothing more may be settled
    ladder = await view(people[0])
    assert ladder["version"] == start + 2 * PAIRS
    swapped = [p.user["name"] for i in range(PAIRS) for p in (people[2 * i + 1], people[2 * i])]
    assert names(ladder) == swapped
    events = (await people[0].http.get(f"/api/ladders/{LADDER}/history")).json()["events"]
    settled = sorted((e["challenge_id"], e["kind"]) for e in events if e["challenge_id"])
    assert settled == sorted((c, "expired") for c in challenges)
    for instance in (a, b):  # neither keeper failed a settlement (a lost race writes nothing and logs nothing)
        assert "Traceback" not in instance.log_text()
    for watcher in watchers:
        await watcher.close()
    for person in people:
        await person.close()
