"""Bot accounts through the real API: owned by a user, marked as bots, refusing what they do not accept,
and reached by a token on HTTP and on the lobby and game sockets."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.asyncio.client import connect

from tests.bots.accounts import bearer, make_bot, register
from tests.conftest import MakeClient

BLITZ = {"kind": "byoyomi", "main": 60, "periods": 3, "period_time": 10}


async def test_a_bot_declares_what_it_accepts_and_refusals_say_why(make_client: MakeClient) -> None:
    owner = make_client()
    await register(owner)
    bot, token = await make_bot(
        owner, board_sizes=[9, 13], time_controls=["byoyomi", "fischer"], rated=False, max_games=1, min_move_seconds=5
    )
    assert bot["bot"] and not bot["house"] and bot["accepts"]["board_sizes"] == [9, 13]
    listed = (await owner.get("/api/bots")).json()["bots"]
    assert [(b["name"], b["active_games"]) for b in listed] == [(bot["name"], 0)]

    me = (await make_client().get("/api/me", headers=bearer(token))).json()
    assert me["bot"] and me["accepts"]["max_games"] == 1 and me["accepts"]["rated"] is False

    guest = make_client()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"board_size": 19}, "plays only on 9x9, 13x13 boards"),
        ({"board_size": 9, "time_control": {"kind": "absolute", "main": 600}}, "accepts only these time controls"),
        (
            {"board_size": 9, "time_control": {"kind": "byoyomi", "main": 60, "periods": 3, "period_time": 2}},
            "needs at least 5 seconds per move",
        ),
    ]
    for body, reason in cases:
        refused = await guest.post("/api/challenges", json={**body, "opponent": bot["name"]})
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "bot_refuses" and reason in error["message"] and bot["name"] in error["message"]

    player = make_client()
    await register(player)
    rated = await player.post(
        "/api/challenges", json={"board_size": 9, "time_control": BLITZ, "rated": True, "opponent": bot["name"]}
    )
    assert rated.status_code == 422 and "plays only unrated games" in rated.json()["error"]["message"]

    # The owner loosens the declaration; the bot's own token may change it too.
    changed = await make_client().put(
        f"/api/bots/{bot['id']}/accepts", headers=bearer(token), json={"board_sizes": [9], "max_games": 1}
    )
    assert changed.status_code == 200 and changed.json()["accepts"]["rated"] is True

    challenge = (
        await guest.post("/api/challenges", json={"board_size": 9, "time_control": BLITZ, "opponent": bot["name"]})
    ).json()
    assert challenge["opponent"] == {"id": bot["id"], "name": bot["name"], "bot": True, "rank": "6k?"}
    assert challenge["id"] not in [c["id"] for c in (await guest.get("/api/challenges")).json()["challenges"]]
    stranger = make_client()
    assert (await stranger.post(f"/api/challenges/{challenge['id']}/accept")).status_code == 404

    program = make_client()
    incoming = (await program.get("/api/challenges/incoming", headers=bearer(token))).json()["challenges"]
    assert [c["id"] for c in incoming] == [challenge["id"]]
    accepted = await program.post(f"/api/challenges/{challenge['id']}/accept", headers=bearer(token))
    assert accepted.status_code == 201, accepted.text
    players = accepted.json()["game"]["players"]
    assert {players["B"]["bot"], players["W"]["bot"]} == {True, False}

    # At its limit (one game), the next challenge is refused with the reason.
    busy = await guest.post("/api/challenges", json={"board_size": 9, "time_control": BLITZ, "opponent": bot["name"]})
    assert busy.status_code == 422 and "already playing 1 games" in busy.json()["error"]["message"]


async def test_a_bot_declines_with_a_reason(make_client: MakeClient) -> None:
    owner = make_client()
    await register(owner)
    bot, token = await make_bot(owner)
    guest = make_client()
    challenge = (await guest.post("/api/challenges", json={"board_size": 9, "opponent": bot["name"]})).json()
    assert (await guest.post(f"/api/challenges/{challenge['id']}/decline")).status_code == 403
    declined = await make_client().post(
        f"/api/challenges/{challenge['id']}/decline", headers=bearer(token), json={"reason": "engine unavailable"}
    )
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    seen = (await guest.get(f"/api/challenges/{challenge['id']}")).json()
    assert seen["status"] == "declined" and seen["decline_reason"] == "engine unavailable"


async def test_a_decline_reason_is_at_most_200_characters_in_any_script(make_client: MakeClient) -> None:
    """The documented limit (docs/bots.md) is reachable, kept whole, and one character more is refused with
    its own code, not as a malformed body."""
    owner = make_client()
    await register(owner)
    bot, token = await make_bot(owner)
    guest = make_client()
    for reason in ("囲" * 200, "x" * 200):
        challenge = (await guest.post("/api/challenges", json={"board_size": 9, "opponent": bot["name"]})).json()
        url = f"/api/challenges/{challenge['id']}/decline"
        over = await make_client().post(url, headers=bearer(token), json={"reason": reason + "x"})
        assert over.status_code == 422 and over.json()["error"]["code"] == "reason_too_long", over.text
        declined = await make_client().post(url, headers=bearer(token), json={"reason": reason})
        assert declined.status_code == 200, declined.text
        assert (await guest.get(f"/api/challenges/{challenge['id']}")).json()["decline_reason"] == reason


async def test_only_accounts_own_bots_and_names_stay_unique(make_client: MakeClient) -> None:
    guest = make_client()
    await guest.post("/api/guest")
    assert (await guest.post("/api/bots", json={"name": "robot1"})).status_code == 403
    owner = make_client()
    await register(owner, "robotowner")
    assert (await owner.post("/api/bots", json={"name": "RobotOwner"})).status_code == 409
    bad = await owner.post("/api/bots", json={"name": "robot2", "accepts": {"board_sizes": [30]}})
    assert bad.status_code == 422
    weak = await owner.post("/api/bots", json={"name": "robot3", "strength": "nonsense"})
    assert weak.status_code == 400 and weak.json()["error"]["code"] == "invalid_strength"
    assert (await owner.post("/api/bots", json={"name": "robot3", "strength": "12k"})).status_code == 201


async def test_a_token_opens_the_lobby_and_game_sockets(live_server: str) -> None:
    ws = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as owner, httpx.AsyncClient(base_url=live_server) as guest:
        await register(owner)
        bot, token = await make_bot(owner)
        async with connect(ws + "/ws/lobby", additional_headers=bearer(token)) as lobby:
            assert json.loads(await lobby.recv())["incoming"] == []
            await guest.post("/api/guest")
            public = (await guest.post("/api/challenges", json={"board_size": 13})).json()
            direct = (await guest.post("/api/challenges", json={"board_size": 9, "opponent": bot["name"]})).json()
            seen = [json.loads(await lobby.recv()) for _ in range(2)]
            assert [m["challenge"]["id"] for m in seen] == [public["id"], direct["id"]]
            async with httpx.AsyncClient(base_url=live_server, headers=bearer(token)) as program:
                game = (await program.post(f"/api/challenges/{direct['id']}/accept")).json()
        async with connect(f"{ws}/ws/games/{game['game_id']}", additional_headers=bearer(token)) as sock:
            snapshot = json.loads(await sock.recv())
            bot_color = "B" if snapshot["game"]["players"]["B"]["id"] == bot["id"] else "W"
            assert snapshot["you"]["role"] == ("black" if bot_color == "B" else "white")
            assert snapshot["game"]["players"][bot_color]["bot"] is True
        async with connect(f"{ws}/ws/lobby", additional_headers=bearer("tgn_nope")) as refused:
            error = json.loads(await refused.recv())
            assert error["code"] == "invalid_token"
            await asyncio.wait_for(refused.wait_closed(), 5)
            assert refused.close_code == 4401


async def test_other_users_lobby_sockets_do_not_hear_direct_challenges(live_server: str) -> None:
    ws = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as owner, httpx.AsyncClient(base_url=live_server) as guest:
        await register(owner)
        bot, _ = await make_bot(owner)
        await guest.post("/api/guest")
        async with connect(ws + "/ws/lobby") as anonymous:
            json.loads(await anonymous.recv())
            await guest.post("/api/challenges", json={"board_size": 9, "opponent": bot["name"]})
            public = (await guest.post("/api/challenges", json={"board_size": 13})).json()
            assert json.loads(await anonymous.recv())["challenge"]["id"] == public["id"]


async def test_a_bots_sockets_have_their_own_cap_and_leave_the_address_alone() -> None:
    from app.transport.sockets import SocketRegistry

    async def close(code: int, reason: str) -> None:
        return None

    registry = SocketRegistry(per_user=2, per_address=3)
    bot = [await registry.admit(7, "10.0.0.1", close, user_cap=5, count_address=False) for _ in range(6)]
    assert all(bot[:5]) and bot[5] is None  # its own cap, above the per-user one
    people = [await registry.admit(None, "10.0.0.1", close) for _ in range(4)]
    assert all(people[:3]) and people[3] is None  # the address's cap is untouched by the bot's sockets
    for ticket in bot[:5]:
        assert ticket is not None
        await registry.release(ticket)
    assert registry.count(user_id=7) == 0 and registry.count(address="10.0.0.1") == 3
