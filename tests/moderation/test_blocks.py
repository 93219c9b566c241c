"""Blocking through the API and the sockets, on SQLite with the in-process hub and on PostgreSQL with Redis:
no challenges either way, chat hidden both ways (live, after a reconnect and in snapshots), no automatch pair."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import LiveServer
from tests.support.room_fixtures import MakePlayer
from tests.support.room_fixtures import STACKS, make_player, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.moderation.people import established, registered
from tests.support.players import GameSocket, start_game
from tests.support.reviews import finished_game, make_review

pytestmark = [STACKS, pytest.mark.timeout(120)]

NINE = {"board_size": 9, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}


async def test_a_blocked_player_cannot_challenge_or_accept(make_player: MakePlayer) -> None:
    ana, bao, chen = await make_player(), await make_player(), await make_player()
    blocked = await ana.http.post("/api/blocks", json={"name": bao.user["name"]})
    assert blocked.status_code == 201 and blocked.json()["blocked"]["name"] == bao.user["name"]
    assert (await ana.http.get("/api/blocks")).json()["blocked"] == [{"id": bao.user["id"], "name": bao.user["name"]}]

    # Bao cannot accept Ana's challenge, nor Ana Bao's; Chen can.
    mine = (await ana.http.post("/api/challenges", json=NINE)).json()
    refused = await bao.http.post(f"/api/challenges/{mine['id']}/accept")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "blocked"
    theirs = (await bao.http.post("/api/challenges", json=NINE)).json()
    refused = await ana.http.post(f"/api/challenges/{theirs['id']}/accept")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "blocked"
    assert (await chen.http.post(f"/api/challenges/{mine['id']}/accept")).status_code == 201

    # Unblocked, they may play again.
    assert (await ana.http.delete(f"/api/blocks/{bao.user['name']}")).status_code == 200
    assert (await ana.http.get("/api/blocks")).json()["blocked"] == []
    assert (await ana.http.post(f"/api/challenges/{theirs['id']}/accept")).status_code == 201


async def test_open_challenges_of_a_blocked_player_are_not_listed_to_either(make_player: MakePlayer) -> None:
    ana, bao, chen = await make_player(), await make_player(), await make_player()
    ana_lobby = await ana.lobby()  # open before the block: it follows the block as it comes
    await ana_lobby.of_type("snapshot")
    anas = (await ana.http.post("/api/challenges", json=NINE)).json()["id"]
    assert (await bao.http.post("/api/blocks", json={"name": ana.user["name"]})).status_code == 201

    def listed(people: dict[str, Any]) -> set[str]:
        return {c["id"] for c in people["challenges"]}

    assert anas not in listed((await bao.http.get("/api/challenges")).json())
    assert anas in listed((await chen.http.get("/api/challenges")).json())
    bao_lobby, chen_lobby = await bao.lobby(), await chen.lobby()
    assert anas not in listed(await bao_lobby.of_type("snapshot"))
    assert anas in listed(await chen_lobby.of_type("snapshot"))

    # New challenges, either way: each reaches everyone but the other one; Chen's reaches both after them.
    baos = (await bao.http.post("/api/challenges", json=NINE)).json()["id"]
    anas_next = (await ana.http.post("/api/challenges", json=NINE)).json()["id"]
    chens = (await chen.http.post("/api/challenges", json=NINE)).json()["id"]

    def created(sock: GameSocket) -> list[str]:
        return [m["challenge"]["id"] for m in sock.received if m.get("t") == "challenge_created"]

    await ana_lobby.until(lambda m: m.get("t") == "challenge_created" and m["challenge"]["id"] == chens)
    await bao_lobby.until(lambda m: m.get("t") == "challenge_created" and m["challenge"]["id"] == chens)
    await chen_lobby.until(lambda m: m.get("t") == "challenge_created" and m["challenge"]["id"] == chens)
    assert created(ana_lobby) == [anas, anas_next, chens]
    assert created(bao_lobby) == [baos, chens]
    assert created(chen_lobby) == [baos, anas_next, chens]
    for sock in (ana_lobby, bao_lobby, chen_lobby):
        await sock.close()


async def test_blocking_refuses_bad_input(make_player: MakePlayer) -> None:
    ana = await make_player()
    own = await ana.http.post("/api/blocks", json={"name": ana.user["name"]})
    assert own.status_code == 400 and own.json()["error"]["code"] == "own_block"
    unknown = await ana.http.post("/api/blocks", json={"name": "nobody-here"})
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "user_not_found"
    empty = await ana.http.post("/api/blocks", json={"name": ""})
    assert empty.status_code == 422 and empty.json()["error"]["code"] == "invalid_request"


async def test_chat_between_blocked_players_is_hidden_both_ways(server: LiveServer, database_url: str) -> None:
    ana, bao, chen = [await registered(server.url) for _ in range(3)]
    await established(database_url, ana, bao, chen)  # they chat as established accounts (4 lines in 10 s)
    game_id = await start_game(ana, bao)
    a, b, c = await ana.socket(game_id), await bao.socket(game_id), await chen.socket(game_id)
    for sock in (a, b, c):
        await sock.of_type("snapshot")
    assert (await b.act({"t": "chat", "channel": "players", "text": "before the block"}))["t"] == "ack"
    await a.event(1)

    # Ana blocks Bao while both sockets are open: from the next line on, neither sees the other's chat.
    assert (await ana.http.post("/api/blocks", json={"name": bao.user["name"]})).status_code == 201
    said = await b.act({"t": "chat", "channel": "players", "text": "you cannot read this"})
    assert said["t"] == "ack" and said["v"] == 2
    assert await a.event(2) == {"t": "hidden", "v": 2}
    assert (await c.event(2))["text"] == "you cannot read this"  # everyone else still reads it
    said = await a.act({"t": "chat", "channel": "players", "text": "nor this"})
    assert await b.event(said["v"]) == {"t": "hidden", "v": said["v"]}

    # A new socket's snapshot leaves the other's lines out; a reconnect with ?v= gets them hidden too.
    snapshot = await (await ana.socket(game_id)).of_type("snapshot")
    assert [line["text"] for line in snapshot["game"]["chat"]] == ["nor this"]
    shown = await (await bao.socket(game_id)).of_type("snapshot")
    assert [line["text"] for line in shown["game"]["chat"]] == ["before the block", "you cannot read this"]
    replay = await ana.socket(game_id, v=1)
    assert await replay.event(2) == {"t": "hidden", "v": 2}

    # The chat pages leave the other's lines out too.
    paged = (await ana.http.get(f"/api/games/{game_id}/chat")).json()["chat"]
    assert [line["text"] for line in paged] == ["nor this"]

    # Unblocked: chat flows again.
    assert (await ana.http.delete(f"/api/blocks/{bao.user['name']}")).status_code == 200
    said = await b.act({"t": "chat", "channel": "players", "text": "friends again"})
    assert (await a.event(said["v"]))["text"] == "friends again"
    for person in (ana, bao, chen):
        await person.close()


async def test_automatch_never_pairs_blocked_players(make_player: MakePlayer) -> None:
    ana, bao, chen = await make_player(), await make_player(), await make_player()
    assert (await bao.http.post("/api/blocks", json={"name": ana.user["name"]})).status_code == 201
    a, b, c = await ana.lobby(), await bao.lobby(), await chen.lobby()
    for sock in (a, b, c):
        await sock.of_type("snapshot")
    prefs = {"t": "seek", "sizes": [9], "speeds": ["blitz"], "rules": "any"}
    assert (await a.act(prefs))["t"] == "ack"
    assert (await b.act(prefs))["t"] == "ack"  # tried at once against Ana, and not paired with her
    assert (await c.act(prefs))["t"] == "ack"
    # Had Ana and Bao been paired, nobody would be left for Chen.
    paired = await c.of_type("paired")
    players = {paired["game"]["players"]["B"]["id"], paired["game"]["players"]["W"]["id"]}
    assert chen.user["id"] in players
    left = bao if ana.user["id"] in players else ana
    assert (await (await left.lobby()).of_type("snapshot"))["seek"] is not None


async def test_chat_between_blocked_people_is_hidden_in_a_shared_review(server: LiveServer, database_url: str) -> None:
    ana, bao, chen = [await registered(server.url) for _ in range(3)]
    await established(database_url, ana, bao, chen)
    review = await make_review(ana, await finished_game(ana, bao))
    assert (await ana.http.post("/api/blocks", json={"name": bao.user["name"]})).status_code == 201
    a, b, c = await ana.review(review["id"]), await bao.review(review["id"]), await chen.review(review["id"])
    for sock in (a, b, c):
        await sock.of_type("snapshot")
    said = await b.act({"t": "chat", "text": "you cannot read this"})
    assert said["t"] == "ack"
    assert await a.event(said["v"]) == {"t": "hidden", "v": said["v"]}
    assert (await c.event(said["v"]))["text"] == "you cannot read this"  # everyone else still reads it
    said = await a.act({"t": "chat", "text": "nor this"})
    assert await b.event(said["v"]) == {"t": "hidden", "v": said["v"]}

    # A new socket's snapshot leaves the other's lines out; a third person's has both.
    mine = await (await ana.review(review["id"])).of_type("snapshot")
    assert [line["text"] for line in mine["review"]["chat"]] == ["nor this"]
    theirs = await (await chen.review(review["id"])).of_type("snapshot")
    assert [line["text"] for line in theirs["review"]["chat"]] == ["you cannot read this", "nor this"]
    for person in (ana, bao, chen):
        await person.close()
