"""Practice games (issue #6): one user plays both colours under the server's rules; not rated, not listed."""

from __future__ import annotations

from typing import Any

from tests.support.room_fixtures import MakePlayer, Servers
from tests.support.room_fixtures import STACKS, make_player, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import Player

pytestmark = STACKS


async def _practice(player: Player, **body: Any) -> str:
    response = await player.http.post("/api/practice", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    assert data["url"] == f"/#/game/{data['game_id']}"
    return data["game_id"]


async def test_one_user_plays_both_colours_and_accepts_for_both(make_player: MakePlayer, servers: Servers) -> None:
    me, watcher = await make_player(), await make_player()
    game_id = await _practice(me)

    listed = (await watcher.http.get("/api/games/live")).json()["games"]
    assert game_id not in [g["id"] for g in listed]

    sock, spectator = await me.socket(game_id), await watcher.socket(game_id)
    snap = await sock.of_type("snapshot")
    assert snap["you"]["role"] == "practice" and snap["game"]["practice"] is True
    assert snap["game"]["size"] == 9
    assert (await spectator.of_type("snapshot"))["you"]["role"] == "spectator"

    # The same socket plays black, then white, then black: the seat is the side to move.
    for point in ([2, 2], [6, 6], [2, 3]):
        assert (await sock.act({"t": "play", "p": point}))["t"] == "ack"
    await sock.until(lambda m: m.get("t") == "move" and m.get("v") == 3)
    colours = [m["color"] for m in sock.versioned() if m["t"] == "move"]
    assert colours == ["B", "W", "B"]

    # Rules still apply: an occupied point is refused and nothing changes.
    refused = await sock.act({"t": "play", "p": [2, 2]})
    assert refused["t"] == "error" and refused["code"] == "illegal_move" and refused["reason"] == "occupied"
    # A spectator still cannot play.
    assert (await spectator.act({"t": "play", "p": [4, 4]}))["code"] == "not_a_player"

    assert (await sock.act({"t": "pass"}))["t"] == "ack"
    assert (await sock.act({"t": "pass"}))["t"] == "ack"
    await sock.of_type("phase")
    ack = await sock.act({"t": "accept_score"})
    assert ack["t"] == "ack"
    over = await sock.of_type("game_over")
    accepted = [m for m in sock.versioned() if m["t"] == "score_accepted"]
    assert [m["color"] for m in accepted] == ["B", "W"]
    assert over["result"]["reason"] == "score"
    assert ack["v"] == over["v"]

    # A second server replays the stored events (both acceptances included) to the same end.
    other = servers.start()
    late = await me.socket(game_id, base_url=other.url)
    replayed = await late.of_type("snapshot")
    assert replayed["game"]["phase"] == "finished"
    assert replayed["game"]["result"] == over["result"]
    for s in (sock, spectator, late):
        await s.close()


async def test_a_practice_game_has_a_chosen_size_and_is_not_rated(make_player: MakePlayer) -> None:
    me = await make_player()
    bad = await me.http.post("/api/practice", json={"size": 10})
    assert bad.status_code == 422
    game_id = await _practice(me, size=13)
    detail = (await me.http.get(f"/api/games/{game_id}")).json()
    assert detail["rated"] is False
    sock = await me.socket(game_id)
    snap = await sock.of_type("snapshot")
    assert snap["game"]["size"] == 13
    await sock.close()
