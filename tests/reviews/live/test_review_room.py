"""A shared review over real sockets on one server (SQLite and PostgreSQL, the in-process hub): the leader's
actions reach every follower as versioned events, followers' edits are refused, control changes hands, chat,
and a follower that reconnects gets exactly what it missed, or a snapshot."""

from __future__ import annotations

import pytest

from tests.conftest import MakeLiveServer
from tests.support.players import Player, guests
from tests.support.reviews import MOVES, finished_game, make_review

pytestmark = pytest.mark.timeout(120)


async def test_followers_see_the_leaders_moves_and_cannot_change_anything(live_server: str) -> None:
    async with guests(live_server, 3) as (black, white, guest):
        game_id = await finished_game(black, white)
        review = await make_review(black, game_id)
        listed = (await guest.http.get(f"/api/games/{game_id}/reviews")).json()["reviews"]
        assert [(r["id"], r["owner"]["id"]) for r in listed] == [(review["id"], black.user["id"])]
        lead = await black.review(review["id"])
        follow = await guest.review(review["id"])
        snapshot = await follow.of_type("snapshot")
        assert snapshot["v"] == 0 and snapshot["you"]["role"] == "follower"
        body = snapshot["review"]
        assert body["owner"]["id"] == black.user["id"] == body["controller"]["id"]
        assert [n["move"]["point"] for n in body["tree"]["nodes"][1:]] == MOVES
        assert body["current"] == 0 and body["position"]["board"][2][2] == "."
        assert (await lead.of_type("snapshot"))["you"]["role"] == "controller"

        refused = await follow.act({"t": "play", "p": [4, 4]})
        assert refused["t"] == "error" and refused["code"] == "not_controller", refused
        assert (await follow.act({"t": "goto", "node": 3}))["code"] == "not_controller"

        assert (await lead.act({"t": "goto", "node": 2}))["v"] == 1
        played = await lead.act({"t": "play", "p": [4, 4]})
        assert played == {"t": "ack", "id": played["id"], "v": 2}
        goto, play = await follow.event(1), await follow.event(2)
        assert goto["t"] == "goto" and goto["position"]["board"][6][6] == "O"
        assert play["t"] == "play" and play["added"] and play["node"]["parent"] == 2
        assert play["position"]["board"][4][4] == "X"
        assert (await lead.act({"t": "comment", "text": "better here"}))["v"] == 3
        assert (await follow.event(3))["text"] == "better here"
        assert (await lead.act({"t": "mark", "p": [3, 3], "kind": "triangle"}))["v"] == 4
        assert (await follow.act({"t": "chat", "text": "why?"}))["v"] == 5
        line = await lead.event(5)
        assert line["t"] == "chat" and line["from"]["id"] == guest.user["id"] and line["text"] == "why?"
        illegal = await lead.act({"t": "play", "p": [4, 4]})
        assert illegal["code"] == "illegal_move" and illegal["reason"] == "occupied"
        assert (await lead.act({"t": "remove_branch", "node": play["node"]["id"]}))["v"] == 6
        removed = await follow.event(6)
        assert removed["current"] == 2 and removed["position"]["board"][4][4] == "."

        # The stored review follows: a new socket's snapshot has the same tree and position.
        late = await white.review(review["id"])
        state = await late.of_type("snapshot")
        assert state["v"] == 6 and state["review"]["current"] == 2
        assert [c["text"] for c in state["review"]["chat"]] == ["why?"]
        assert len(state["review"]["tree"]["nodes"]) == len(MOVES) + 1
        for sock in (lead, follow, late):
            await sock.close()


async def test_control_is_handed_over_and_taken_back(live_server: str) -> None:
    async with guests(live_server, 3) as (owner, friend, other):
        game_id = await finished_game(owner, other)
        review = await make_review(owner, game_id)
        lead = await owner.review(review["id"])
        helper = await friend.review(review["id"])
        await helper.of_type("snapshot")
        await lead.until(lambda m: m.get("t") == "participants" and len(m["participants"]) == 2)
        absent = await lead.act({"t": "hand_control", "to": other.user["id"]})
        assert absent["code"] == "not_present"
        assert (await helper.act({"t": "take_control"}))["code"] == "not_owner"
        assert (await lead.act({"t": "hand_control", "to": friend.user["id"]}))["t"] == "ack"
        control = await helper.event(1)
        assert control["t"] == "control" and control["controller"] == {"id": friend.user["id"], "name": friend.user["name"]}
        assert (await lead.act({"t": "goto", "node": 1}))["code"] == "not_controller"
        assert (await helper.act({"t": "goto", "node": 4}))["v"] == 2
        assert (await lead.act({"t": "take_control"}))["v"] == 3
        assert (await helper.event(3))["controller"]["id"] == owner.user["id"]
        assert (await helper.act({"t": "goto", "node": 1}))["code"] == "not_controller"
        for sock in (lead, helper):
            await sock.close()


async def test_a_follower_that_reconnects_gets_what_it_missed_or_a_snapshot(live_server: str) -> None:
    async with guests(live_server, 3) as (owner, other, guest):
        review = await make_review(owner, await finished_game(owner, other))
        lead = await owner.review(review["id"])
        follow = await guest.review(review["id"])
        await follow.of_type("snapshot")
        assert (await lead.act({"t": "goto", "node": 1}))["v"] == 1
        await follow.event(1)
        await follow.close()
        for node in (2, 3, 4):
            await lead.act({"t": "goto", "node": node})
        back = await guest.review(review["id"], v=1)
        assert [(m["v"], m["node"]) for m in [await back.event(v) for v in (2, 3, 4)]] == [(2, 2), (3, 3), (4, 4)]
        assert back.resyncs() == [] and not [m for m in back.received if m.get("t") == "snapshot"]
        future = await guest.review(review["id"], v=99)
        resync = await future.of_type("snapshot")
        assert resync["resync"] is True and resync["v"] == 4 and resync["review"]["current"] == 4
        for sock in (lead, back, future):
            await sock.close()


async def test_bad_messages_and_unknown_reviews_get_structured_errors(live_server: str) -> None:
    async with guests(live_server, 2) as (owner, other):
        review = await make_review(owner, await finished_game(owner, other))
        lead = await owner.review(review["id"])
        await lead.of_type("snapshot")
        for message, code in (
            ({"t": "play", "p": [1]}, "invalid_message"),
            ({"t": "resign"}, "unknown_type"),
            ({"t": "goto", "node": 999}, "node_not_found"),
            ({"t": "mark", "p": [1, 1], "kind": "star"}, "invalid_message"),
        ):
            reply = await lead.act(message)
            assert reply["t"] == "error" and reply["code"] == code, (message, reply)
        await lead.close()
        missing = await owner.review("nosuchreview")
        assert (await missing.of_type("error"))["code"] == "no_such_review"


async def test_the_room_is_capped_and_anonymous_visitors_follow_without_chatting(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(review_max_participants=3)
    async with guests(server.url, 3) as (owner, other, friend):
        review = await make_review(owner, await finished_game(owner, other))
        lead, second_tab = await owner.review(review["id"]), await owner.review(review["id"])
        helper = await friend.review(review["id"])
        visitor = await Player(server.url).review(review["id"])  # no cookie: anonymous
        snapshot = await visitor.of_type("snapshot")
        assert snapshot["you"] == {"user": None, "role": "follower"}
        assert (await visitor.act({"t": "chat", "text": "hello"}))["code"] == "not_authenticated"
        full = await other.review(review["id"])
        assert (await full.of_type("error"))["code"] == "review_full"
        people = await lead.until(lambda m: m.get("t") == "participants" and m["anonymous"] == 1)
        assert [p["id"] for p in people["participants"]] == [owner.user["id"], friend.user["id"]]
        await visitor.close()
        await lead.until(lambda m: m.get("t") == "participants" and m["anonymous"] == 0)
        again = await other.review(review["id"])
        assert (await again.of_type("snapshot"))["you"]["role"] == "follower"
        for sock in (lead, second_tab, helper, again):
            await sock.close()
