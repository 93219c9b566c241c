"""Challenges through the real ASGI app: create, list, view, cancel, accept, and who may do what."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import MakeClient


async def _create(http: httpx.AsyncClient, **settings: Any) -> dict[str, Any]:
    response = await http.post("/api/challenges", json=settings)
    assert response.status_code == 201, response.text
    return response.json()


@pytest.mark.parametrize(
    ("time_control", "stored"),
    [
        (
            {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30},
            {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30},
        ),
        (
            {"kind": "fischer", "main": 300, "increment": 5, "cap": 600},
            {"kind": "fischer", "main": 300, "increment": 5, "cap": 600},
        ),
        (
            {"kind": "canadian", "main": 600, "stones": 25, "period_time": 300},
            {"kind": "canadian", "main": 600, "stones": 25, "period_time": 300},
        ),
        ({"kind": "absolute", "main": 1200}, {"kind": "absolute", "main": 1200}),
        ({"kind": "none"}, {"kind": "none"}),
        ("chinese_countdown", {"kind": "chinese_countdown", "main": 1800, "periods": 3, "period_time": 60}),
        (
            {"kind": "chinese_countdown", "main": 1200, "periods": 3},
            {"kind": "chinese_countdown", "main": 1200, "periods": 3, "period_time": 60},
        ),
    ],
)
async def test_time_controls(client: httpx.AsyncClient, time_control: str | dict[str, Any], stored: dict[str, Any]) -> None:
    challenge = await _create(client, time_control=time_control)
    assert challenge["time_control"] == stored


@pytest.mark.parametrize(
    ("rules", "handicap", "komi"),
    [
        ("chinese", 0, 7.5),
        ("japanese", 0, 6.5),
        ("korean", 0, 6.5),
        ("aga", 0, 7.5),
        ("new_zealand", 0, 7.0),
        ("ing", 0, 8.0),
        ("japanese", 3, 0.5),
    ],
)
async def test_default_komi_from_the_preset(client: httpx.AsyncClient, rules: str, handicap: int, komi: float) -> None:
    challenge = await _create(client, rules=rules, handicap=handicap, board_size=19)
    assert challenge["komi"] == komi and challenge["rules"] == rules


@pytest.mark.parametrize(
    "body",
    [
        {"board_size": 1},
        {"board_size": 26},
        {"rules": "klingon"},
        {"handicap": 10},
        {"handicap": -1},
        {"color": "red"},
        {"komi": 6.3},
        {"time_control": {"kind": "byoyomi", "main": 600}},
        {"time_control": {"kind": "fischer", "main": 300, "increment": 5, "cap": 100}},
        {"time_control": {"kind": "hourglass", "main": 60}},
        {"time_control": "blitz"},
        {"board_size": 5, "handicap": 2},
        {"surprise": True},
        {"board_size": 8, "handicap": 5},
        {"board_size": 7, "handicap": 9},
        {"handicap": 1},
    ],
)
async def test_invalid_settings_get_one_error_shape_and_create_nothing(client: httpx.AsyncClient, body: dict) -> None:
    response = await client.post("/api/challenges", json=body)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and error["message"]
    assert set(response.json()) == {"error"}
    assert (await client.get("/api/challenges")).json()["challenges"] == []


async def test_open_challenges_are_listed_private_ones_are_not(make_client: MakeClient) -> None:
    alice, bob = make_client(), make_client()
    public = await _create(alice, board_size=13)
    private = await _create(alice, private=True)
    assert "token" not in public and private["token"] and private["invite_url"].endswith(private["token"])
    listed = (await bob.get("/api/challenges")).json()["challenges"]
    assert [c["id"] for c in listed] == [public["id"]]
    assert "token" not in listed[0]
    # A private challenge is invisible without its token, visible with it, and its token is only shown to its creator.
    assert (await bob.get(f"/api/challenges/{private['id']}")).status_code == 404
    seen = await bob.get(f"/api/challenges/{private['id']}", params={"token": private["token"]})
    assert seen.status_code == 200 and "token" not in seen.json()
    assert (await alice.get(f"/api/challenges/{private['id']}")).json()["token"] == private["token"]


async def test_accept_creates_a_game_with_the_right_colours(make_client: MakeClient) -> None:
    alice, bob = make_client(), make_client()
    alice_id = (await alice.post("/api/guest")).json()["id"]
    bob_id = (await bob.post("/api/guest")).json()["id"]
    challenge = await _create(alice, board_size=9, color="white", komi=5.5, time_control={"kind": "absolute", "main": 60})
    response = await bob.post(f"/api/challenges/{challenge['id']}/accept")
    assert response.status_code == 201, response.text
    body = response.json()
    game = body["game"]
    assert body["url"] == f"/#/game/{body['game_id']}" and game["id"] == body["game_id"]
    assert game["players"]["W"]["id"] == alice_id and game["players"]["B"]["id"] == bob_id
    assert (game["board_size"], game["komi"], game["status"], game["move_count"]) == (9, 5.5, "playing", 0)
    assert game["time_control"] == {"kind": "absolute", "main": 60}
    # The challenge is gone from the list and cannot be accepted twice.
    assert (await bob.get("/api/challenges")).json()["challenges"] == []
    again = await make_client().post(f"/api/challenges/{challenge['id']}/accept")
    assert again.status_code == 409 and again.json()["error"]["code"] == "challenge_not_open"
    # Both players see it among their games to rejoin; it is on the live list.
    for http in (alice, bob):
        assert [g["id"] for g in (await http.get("/api/me/games/active")).json()["games"]] == [game["id"]]
        assert (await http.get("/api/me/games/history")).json()["games"] == []
    live = (await make_client().get("/api/games/live")).json()["games"]
    assert [(g["id"], g["spectators"]) for g in live] == [(game["id"], 0)]
    detail = (await make_client().get(f"/api/games/{game['id']}")).json()
    assert detail["moves"] == [] and detail["version"] == 0


async def test_nigiri_gives_each_player_one_colour(make_client: MakeClient) -> None:
    alice, bob = make_client(), make_client()
    ids = {(await alice.post("/api/guest")).json()["id"], (await bob.post("/api/guest")).json()["id"]}
    challenge = await _create(alice, color="nigiri")
    game = (await bob.post(f"/api/challenges/{challenge['id']}/accept")).json()["game"]
    assert {game["players"]["B"]["id"], game["players"]["W"]["id"]} == ids


async def test_private_challenge_needs_its_token(make_client: MakeClient) -> None:
    alice, bob = make_client(), make_client()
    challenge = await _create(alice, private=True)
    for body in (None, {"token": "wrong"}):
        refused = await bob.post(f"/api/challenges/{challenge['id']}/accept", json=body)
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "challenge_not_found"
    accepted = await bob.post(f"/api/challenges/{challenge['id']}/accept", json={"token": challenge["token"]})
    assert accepted.status_code == 201


async def test_a_stranger_cannot_cancel_and_nobody_accepts_their_own(make_client: MakeClient) -> None:
    alice, mallory = make_client(), make_client()
    challenge = await _create(alice)
    anonymous = await mallory.delete(f"/api/challenges/{challenge['id']}")
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "not_authenticated"
    await mallory.post("/api/guest")
    refused = await mallory.delete(f"/api/challenges/{challenge['id']}")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_challenge"
    own = await alice.post(f"/api/challenges/{challenge['id']}/accept")
    assert own.status_code == 400 and own.json()["error"]["code"] == "own_challenge"
    assert len((await alice.get("/api/challenges")).json()["challenges"]) == 1
    assert (await alice.get("/api/games/live")).json()["games"] == []

    cancelled = await alice.delete(f"/api/challenges/{challenge['id']}")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert (await alice.get("/api/challenges")).json()["challenges"] == []
    late = await mallory.post(f"/api/challenges/{challenge['id']}/accept")
    assert late.status_code == 409
    assert (await alice.delete(f"/api/challenges/{challenge['id']}")).status_code == 409


async def test_accepting_as_someone_else_needs_their_cookie(make_client: MakeClient) -> None:
    """Acceptance always acts as the cookie's user: a client cannot name another player."""
    alice, bob, carol = make_client(), make_client(), make_client()
    carol_id = (await carol.post("/api/guest")).json()["id"]
    challenge = await _create(alice)
    response = await bob.post(f"/api/challenges/{challenge['id']}/accept", json={"user_id": carol_id})
    assert response.status_code == 422
    assert (await carol.get("/api/me/games/active")).json()["games"] == []


async def test_rated_games_need_accounts(make_client: MakeClient) -> None:
    guest = make_client()
    refused = await guest.post("/api/challenges", json={"rated": True})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_required"
    member = make_client()
    await member.post("/api/auth/register", json={"username": "Kitani", "password": "Minoru-1909"})
    challenge = await _create(member, rated=True)
    refused = await guest.post(f"/api/challenges/{challenge['id']}/accept")
    assert refused.status_code == 403


async def test_unknown_ids_answer_404_in_the_error_shape(client: httpx.AsyncClient) -> None:
    await client.post("/api/guest")
    for method, path in [
        ("GET", "/api/challenges/nope"),
        ("DELETE", "/api/challenges/nope"),
        ("POST", "/api/challenges/nope/accept"),
        ("GET", "/api/games/nope"),
        ("GET", "/api/games/nope/sgf"),
        ("GET", "/api/nothing-here"),
    ]:
        response = await client.request(method, path)
        assert response.status_code == 404, (method, path)
        assert set(response.json()["error"]) == {"code", "message"}
