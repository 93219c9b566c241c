"""Moderators' actions through the API and the sockets, on SQLite with the in-process hub and on PostgreSQL
with Redis: warn, mute, suspend, ban, lift, remove chat lines, annul a game, and the audit log of them all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import LiveServer
from tests.support.room_fixtures import STACKS, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.moderation.people import established, moderator, registered
from tests.ratings.rated_play import profile, rated_game, wait_games
from tests.support.players import start_game
from tests.support.reviews import finished_game, make_review

pytestmark = [STACKS, pytest.mark.timeout(180)]

NINE = {"board_size": 9, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}
SEEK = {"t": "seek", "sizes": [9], "speeds": ["blitz"], "rules": "any"}


async def test_warn_and_mute(server: LiveServer, database_url: str) -> None:
    ana, bao = await registered(server.url), await registered(server.url)
    await established(database_url, ana, bao)
    mod = await moderator(server.url, database_url)
    lobby = await bao.lobby()
    await lobby.of_type("snapshot")
    warned = await mod.http.post(f"/api/moderation/users/{bao.user['name']}/warn", json={"reason": "be polite"})
    assert warned.status_code == 200 and warned.json()["action"] == "warn"
    assert (await lobby.of_type("moderator_warning"))["reason"] == "be polite"

    game_id = await start_game(bao, ana)  # Bao plays Black
    b = await bao.socket(game_id)
    await b.of_type("snapshot")
    muted = await mod.http.post(f"/api/moderation/users/{bao.user['name']}/mute", json={"minutes": 30, "reason": "spam"})
    assert muted.status_code == 200 and muted.json()["details"]["until"]
    refused = await b.act({"t": "chat", "channel": "players", "text": "spam spam"})
    assert refused["t"] == "error" and refused["code"] == "chat_muted"
    assert (await b.act({"t": "play", "p": [2, 2]}))["t"] == "ack"  # a mute leaves play alone

    # Review chat too.
    review = await make_review(ana, await finished_game(ana, ana_partner := await registered(server.url)))
    in_review = await bao.review(review["id"])
    await in_review.of_type("snapshot")
    refused = await in_review.act({"t": "chat", "text": "spam in a review"})
    assert refused["t"] == "error" and refused["code"] == "chat_muted"

    lifted = await mod.http.post(f"/api/moderation/users/{bao.user['name']}/lift", json={"reason": "served"})
    assert lifted.status_code == 200
    assert (await b.act({"t": "chat", "channel": "players", "text": "sorry"}))["t"] == "ack"
    await ana_partner.close()
    bad = await mod.http.post(f"/api/moderation/users/{bao.user['name']}/mute", json={"minutes": 0, "reason": "x"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"
    own = await mod.http.post(f"/api/moderation/users/{mod.user['name']}/warn", json={"reason": "x"})
    assert own.status_code == 400 and own.json()["error"]["code"] == "own_moderation"
    nobody = await ana.http.post(f"/api/moderation/users/{bao.user['name']}/warn", json={"reason": "x"})
    assert nobody.status_code == 403 and nobody.json()["error"]["code"] == "not_a_moderator"
    for person in (ana, bao, mod):
        await person.close()


@pytest.mark.parametrize("action", ["suspend", "ban"])
async def test_a_suspended_or_banned_player_cannot_play_chat_or_challenge(
    server: LiveServer, database_url: str, action: str
) -> None:
    ana, bao, chen = [await registered(server.url) for _ in range(3)]
    mod = await moderator(server.url, database_url)
    game_id = await start_game(ana, bao)
    a, b = await ana.socket(game_id), await bao.socket(game_id)
    for sock in (a, b):
        await sock.of_type("snapshot")
    assert (await a.act({"t": "play", "p": [2, 2]}))["t"] == "ack"
    open_challenge = (await bao.http.post("/api/challenges", json={**NINE, "color": "white"})).json()
    watcher = await chen.lobby()
    await watcher.of_type("snapshot")

    body: dict = {"reason": "abuse"}
    if action == "suspend":
        body["until"] = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    done = await mod.http.post(f"/api/moderation/users/{bao.user['name']}/{action}", json=body)
    assert done.status_code == 200 and done.json()["action"] == action

    # Bao's sockets are closed; the game ends as an abandoned game does: Ana wins by abandonment.
    assert await b.close_code() == 4403
    over = await a.of_type("game_over")
    assert over["result"]["text"] == "B+F" and over["result"]["reason"] == "abandonment"
    assert (await watcher.until(lambda m: m.get("t") == "challenge_removed"))["id"] == open_challenge["id"]
    assert open_challenge["id"] not in [c["id"] for c in (await chen.http.get("/api/challenges")).json()["challenges"]]

    code = "account_banned" if action == "ban" else "account_suspended"
    created = await bao.http.post("/api/challenges", json=NINE)
    assert created.status_code == 403 and created.json()["error"]["code"] == code
    theirs = (await chen.http.post("/api/challenges", json=NINE)).json()
    accepted = await bao.http.post(f"/api/challenges/{theirs['id']}/accept")
    assert accepted.status_code == 403 and accepted.json()["error"]["code"] == code
    practice = await bao.http.post("/api/practice", json={"size": 9})
    assert practice.status_code == 403 and practice.json()["error"]["code"] == code
    seek = await (await bao.lobby()).act(SEEK)
    assert seek["t"] == "error" and seek["code"] == code
    # Back at the finished game: a spectator's seat, no chat, no rematch.
    again = await bao.socket(game_id)
    assert (await again.of_type("snapshot"))["you"]["role"] == "spectator"
    chat = await again.act({"t": "chat", "channel": "spectators", "text": "let me in"})
    assert chat["t"] == "error" and chat["code"] == code

    lifted = await mod.http.post(f"/api/moderation/users/{bao.user['name']}/lift", json={"reason": "appeal"})
    assert lifted.status_code == 200
    assert (await bao.http.post("/api/challenges", json=NINE)).status_code == 201
    audit = (await mod.http.get(f"/api/moderation/users/{bao.user['name']}")).json()
    assert [(e["action"], e["actor"], e["reason"]) for e in audit["audit"]] == [
        ("lift", mod.user["name"], "appeal"),
        (action, mod.user["name"], "abuse"),
    ]
    assert audit["banned"] is False and audit["suspended_until"] is None
    for person in (ana, bao, chen, mod):
        await person.close()


async def test_removed_chat_lines_disappear_for_everyone(server: LiveServer, database_url: str) -> None:
    ana, bao, chen = [await registered(server.url) for _ in range(3)]
    await established(database_url, ana, bao)
    mod = await moderator(server.url, database_url)
    game_id = await start_game(ana, bao)
    a, b, c = await ana.socket(game_id), await bao.socket(game_id), await chen.socket(game_id)
    for sock in (a, b, c):
        await sock.of_type("snapshot")
    kept = await a.act({"t": "chat", "channel": "players", "text": "good luck"})
    rude = await b.act({"t": "chat", "channel": "players", "text": "something rude"})
    bad = await mod.http.post(f"/api/moderation/games/{game_id}/chat/remove", json={"lines": [99], "reason": "x"})
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "chat_line_not_found"
    removed = await mod.http.post(f"/api/moderation/games/{game_id}/chat/remove", json={"lines": [rude["v"]], "reason": "insult"})
    assert removed.status_code == 200
    assert removed.json()["details"]["lines"][str(rude["v"])]["text"] == "something rude"  # kept for the record
    for sock in (a, b, c):
        event = await sock.until(lambda m: m.get("t") == "chat_removed")
        assert event["lines"] == [rude["v"]] and event["v"] == rude["v"] + 1
    snapshot = await (await chen.socket(game_id)).of_type("snapshot")
    assert [line["text"] for line in snapshot["game"]["chat"]] == ["good luck"]
    paged = (await chen.http.get(f"/api/games/{game_id}/chat")).json()["chat"]
    assert [line["v"] for line in paged] == [kept["v"]]
    for person in (ana, bao, chen, mod):
        await person.close()


async def test_annulling_a_game_takes_its_rating_effect_back(server: LiveServer, database_url: str) -> None:
    ana, bao = await registered(server.url, "club"), await registered(server.url, "club")
    mod = await moderator(server.url, database_url)
    before = (await profile(ana, ana.user["name"]))["ratings"]["overall"]
    game_id = await rated_game(ana, bao)
    rated = await wait_games(ana, ana.user["name"], 1)
    assert rated["ratings"]["overall"]["rating"] > before["rating"]
    annulled = await mod.http.post(f"/api/moderation/games/{game_id}/annul", json={"reason": "sandbagging"})
    assert annulled.status_code == 200 and annulled.json()["game_id"] == game_id
    page = await profile(ana, ana.user["name"])
    after = page["ratings"]["overall"]
    assert after["games"] == 0 and after["rating"] == pytest.approx(before["rating"])
    # Every view of the game says it is not rated, and why.
    detail = (await bao.http.get(f"/api/games/{game_id}")).json()
    history = (await bao.http.get("/api/me/games/history")).json()["games"]
    archive = (await bao.http.get("/api/archive", params={"player": ana.user["name"]})).json()["games"]
    views = [detail, *history, *page["recent"], *archive]
    assert [(g["id"], g["rated"], g["unrated_reason"]) for g in views] == [(game_id, False, "annulled")] * 4
    assert detail["rating_changes"] is None and page["recent"][0]["rating_change"] is None
    twice = await mod.http.post(f"/api/moderation/games/{game_id}/annul", json={"reason": "again"})
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "not_rated"
    entries = (await mod.http.get("/api/moderation/audit")).json()["entries"]
    assert (entries[0]["action"], entries[0]["game_id"], entries[0]["reason"]) == ("annul", game_id, "sandbagging")
    for person in (ana, bao, mod):
        await person.close()
