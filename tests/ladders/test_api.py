"""Ladders through a real server on both stacks (SQLite with the in-process hub, PostgreSQL with Redis): joining,
every refusal with its code, the page's greyed-out rungs held to what the server answers, a decline counting,
leaving, the history and ``ladder_changed`` on the lobby socket."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import LiveServer
from tests.ladders.people import LADDER, names, on_ladder, registered, set_ladder, view
from tests.support.room_fixtures import STACKS, Servers, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import Lobby
from tests.support.players import Player

pytestmark = [STACKS, pytest.mark.timeout(120)]


async def _close(*people: Player) -> None:
    for person in people:
        await person.close()


async def _challenge(person: Player, defender: Player, color: str = "nigiri") -> tuple[int, dict]:
    response = await person.http.post(
        f"/api/ladders/{LADDER}/challenges", json={"defender_id": defender.user["id"], "color": color}
    )
    return response.status_code, response.json()


async def test_ladders_are_listed_and_joined_from_the_bottom(server: LiveServer, database_url: str) -> None:
    listed = (await Player(server.url).http.get("/api/ladders")).json()["ladders"]
    assert [(la["id"], la["board_size"], la["speed"], la["players"]) for la in listed] == [
        ("9x9-live", 9, "live", 0),
        ("19x19-live", 19, "live", 0),
    ]
    people = await on_ladder(server.url, 3)
    guest = await Player(server.url).visit()
    refused = await guest.http.post(f"/api/ladders/{LADDER}/join")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_required"
    again = await people[0].http.post(f"/api/ladders/{LADDER}/join")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_on_ladder"
    missing = await people[0].http.post("/api/ladders/no-such/join")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "ladder_not_found"
    seen = await view(guest)
    assert names(seen) == [p.user["name"] for p in people]
    assert [r["position"] for r in seen["rungs"]] == [1, 2, 3]
    assert {r["reason"] for r in seen["rungs"]} == {"account_required"} and seen["me"]["join"] == "account_required"
    assert (await view(people[2]))["me"]["position"] == 3
    await set_ladder(database_url, capacity=3)
    late = await registered(server.url)
    full = await late.http.post(f"/api/ladders/{LADDER}/join")
    assert full.status_code == 409 and full.json()["error"]["code"] == "ladder_full"
    assert (await view(late))["me"]["join"] == "ladder_full"
    await _close(guest, late, *people)


async def test_every_greyed_out_rung_is_refused_with_the_reason_shown_and_every_offered_one_is_taken(
    server: LiveServer,
) -> None:
    people = await on_ladder(server.url, 6)
    outsider = await registered(server.url)
    for person in [*people, outsider]:
        for rung in (await view(person))["rungs"]:
            defender = next(p for p in people if p.user["id"] == rung["player"]["id"])
            if not rung["challengeable"]:
                status, body = await _challenge(person, defender)
                assert status >= 400 and body["error"]["code"] == rung["reason"], (rung, body)
    bottom = (await view(people[5]))["rungs"]
    assert [(r["challengeable"], r["reason"]) for r in bottom] == [
        (False, "too_far_above"),
        (False, "too_far_above"),
        (True, None),
        (True, None),
        (True, None),
        (False, "own_rung"),
    ]
    assert {r["reason"] for r in (await view(outsider))["rungs"]} == {"not_on_ladder"}
    assert (await view(people[0]))["rungs"][1]["reason"] == "not_above"
    # One challenge taken: the challenger's others are now greyed out as too many, and refused so.
    status, made = await _challenge(people[5], people[2], "black")
    assert status == 201 and made["status"] == "open" and made["defender_position"] == 3
    after = (await view(people[5]))["rungs"]
    assert [r["reason"] for r in after] == [
        "too_far_above",
        "too_far_above",
        "already_challenged",
        "too_many_ladder_challenges",
        "too_many_ladder_challenges",
        "own_rung",
    ]
    status, body = await _challenge(people[5], people[3])
    assert status == 409 and body["error"]["code"] == "too_many_ladder_challenges"
    # The defender sees it from the other side: the challenger is below, and engaged.
    mine = (await view(people[2]))["me"]["challenges"]
    assert [(c["id"], c["challenger"]["id"], c["status"]) for c in mine] == [(made["id"], people[5].user["id"], "open")]
    await _close(outsider, *people)


async def test_a_defender_takes_at_most_max_incoming_and_a_bad_colour_is_refused(server: LiveServer, database_url: str) -> None:
    people = await on_ladder(server.url, 4)
    status, body = await _challenge(people[3], people[2], "purple")
    assert status == 422 and body["error"]["code"] == "bad_color"
    await set_ladder(database_url, max_incoming=1)
    assert (await _challenge(people[2], people[1]))[0] == 201
    status, body = await _challenge(people[3], people[1])
    assert status == 409 and body["error"]["code"] == "defender_busy"
    assert (await view(people[3]))["rungs"][1]["reason"] == "defender_busy"
    await _close(*people)


async def test_a_decline_counts_as_a_loss_and_the_same_pair_waits_before_a_rechallenge(
    server: LiveServer, database_url: str
) -> None:
    top, middle, bottom = await on_ladder(server.url, 3)
    watcher = await Lobby.open(top)
    status, made = await _challenge(bottom, top)
    assert status == 201
    changed = await watcher.of_type("ladder_changed", ladder=LADDER)
    assert changed["version"] == (await view(top))["version"]
    not_mine = await bottom.http.post(f"/api/ladders/challenges/{made['id']}/decline")
    assert not_mine.status_code == 403 and not_mine.json()["error"]["code"] == "not_your_challenge"
    declined = await top.http.post(f"/api/ladders/challenges/{made['id']}/decline")
    assert declined.status_code == 200 and (declined.json()["status"], declined.json()["outcome"]) == ("settled", "declined")
    await watcher.of_type("ladder_changed", ladder=LADDER, version=changed["version"] + 1)
    ladder = await view(top)
    assert names(ladder) == [bottom.user["name"], top.user["name"], middle.user["name"]]
    again = await top.http.post(f"/api/ladders/challenges/{made['id']}/decline")
    assert again.status_code == 409 and again.json()["error"]["code"] == "challenge_not_open"
    # The former top is now second: challenging back at once is refused until the period has passed.
    assert ladder["rungs"][0]["reason"] == "rechallenge_too_soon"
    status, body = await _challenge(top, bottom)
    assert status == 409 and body["error"]["code"] == "rechallenge_too_soon"
    await set_ladder(database_url, rechallenge_hours=0.0)
    assert (await _challenge(top, bottom))[0] == 201
    history = (await top.http.get(f"/api/ladders/{LADDER}/history")).json()
    kinds = [
        (e["kind"], e["player"]["name"], e["other"]["name"] if e["other"] else None, e["position"]) for e in history["events"]
    ]
    assert kinds == [
        ("declined", bottom.user["name"], top.user["name"], 1),
        ("joined", bottom.user["name"], None, 3),
        ("joined", middle.user["name"], None, 2),
        ("joined", top.user["name"], None, 1),
    ]
    page = (
        await top.http.get(f"/api/ladders/{LADDER}/history", params={"before": history["events"][1]["id"], "limit": 1})
    ).json()
    assert [e["kind"] for e in page["events"]] == ["joined"] and page["more"] is True
    await watcher.close()
    await _close(top, middle, bottom)


async def test_leaving_moves_those_below_up_and_voids_open_challenges(server: LiveServer) -> None:
    a, b, c, d = await on_ladder(server.url, 4)
    status, made = await _challenge(d, b)
    assert status == 201
    left = await b.http.post(f"/api/ladders/{LADDER}/leave")
    assert left.status_code == 200
    ladder = await view(a)
    assert names(ladder) == [a.user["name"], c.user["name"], d.user["name"]] and [r["position"] for r in ladder["rungs"]] == [
        1,
        2,
        3,
    ]
    late = await b.http.post(f"/api/ladders/challenges/{made['id']}/accept")
    assert late.status_code == 409 and late.json()["error"]["code"] == "challenge_not_open"
    again = await b.http.post(f"/api/ladders/{LADDER}/leave")
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_on_ladder"
    events = (await a.http.get(f"/api/ladders/{LADDER}/history")).json()["events"]
    assert [(e["kind"], e["position"]) for e in events[:2]] == [("left", 2), ("void", 2)]
    await _close(a, b, c, d)


@pytest.fixture
def quick(servers: Servers) -> LiveServer:
    """A server whose ladder keeper looks every fifth of a second."""
    servers.settings = servers.settings.model_copy(update={"ladder_sweep_seconds": 0.2})
    return servers.start()


async def test_an_unanswered_challenge_is_lost_by_the_defender_at_its_deadline(quick: LiveServer, database_url: str) -> None:
    top, bottom = await on_ladder(quick.url, 2)
    await set_ladder(database_url, answer_hours=1.5 / 3600)  # a second and a half
    status, made = await _challenge(bottom, top)
    assert status == 201
    for _ in range(200):
        if names(await view(top))[0] == bottom.user["name"]:
            break
        await asyncio.sleep(0.05)
    assert names(await view(top)) == [bottom.user["name"], top.user["name"]]
    late = await top.http.post(f"/api/ladders/challenges/{made['id']}/accept")
    assert late.status_code == 409 and late.json()["error"]["code"] in ("challenge_not_open", "challenge_expired")
    events = (await top.http.get(f"/api/ladders/{LADDER}/history")).json()["events"]
    assert (events[0]["kind"], events[0]["challenge_id"]) == ("expired", made["id"])
    await _close(top, bottom)
