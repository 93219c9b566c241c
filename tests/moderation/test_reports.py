"""Reports through the API on both stacks: a user, a game or a chat line, the reporter's receipt, and the
moderators' queue with the chat and the game in context."""

from __future__ import annotations

import pytest

from tests.conftest import LiveServer
from tests.support.room_fixtures import STACKS, Servers, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.moderation.people import moderator, registered
from tests.support.players import start_game

pytestmark = [STACKS, pytest.mark.timeout(120)]


async def test_reports_are_received_queued_in_context_and_closed(server: LiveServer, database_url: str) -> None:
    ana, bao = await registered(server.url), await registered(server.url)
    mod = await moderator(server.url, database_url)
    game_id = await start_game(ana, bao)
    b = await bao.socket(game_id)
    await b.of_type("snapshot")
    rude = await b.act({"t": "chat", "channel": "players", "text": "you play like a potato"})
    assert rude["t"] == "ack"

    on_chat = await ana.http.post(
        "/api/reports", json={"kind": "chat", "game_id": game_id, "chat_v": rude["v"], "reason": "insult"}
    )
    assert on_chat.status_code == 201
    receipt = on_chat.json()
    assert receipt["status"] == "received" and receipt["kind"] == "chat" and receipt["id"] >= 1
    on_user = await ana.http.post("/api/reports", json={"kind": "user", "user": bao.user["name"], "reason": "stalling"})
    on_game = await bao.http.post("/api/reports", json={"kind": "game", "game_id": game_id, "reason": "sandbagging"})
    assert on_user.status_code == 201 and on_game.status_code == 201

    queue = (await mod.http.get("/api/moderation/reports")).json()["reports"]
    assert [r["id"] for r in queue] == [receipt["id"], on_user.json()["id"], on_game.json()["id"]]
    first = queue[0]
    assert first["reporter"]["name"] == ana.user["name"] and first["user"]["name"] == bao.user["name"]
    assert first["reason"] == "insult" and first["game"]["id"] == game_id
    assert [(line["v"], line["text"], line["reported"]) for line in first["chat"]] == [
        (rude["v"], "you play like a potato", True)
    ]
    assert queue[2]["user"] is None and queue[2]["game"]["players"]["B"]["name"] == ana.user["name"]

    closed = await mod.http.post(f"/api/moderation/reports/{receipt['id']}/close", json={"reason": "warned"})
    assert closed.status_code == 422  # the body names the resolution
    closed = await mod.http.post(f"/api/moderation/reports/{receipt['id']}/close", json={"resolution": "warned"})
    assert closed.status_code == 200 and closed.json()["action"] == "close_report"
    again = await mod.http.post(f"/api/moderation/reports/{receipt['id']}/close", json={"resolution": "twice"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "report_closed"
    assert [r["id"] for r in (await mod.http.get("/api/moderation/reports")).json()["reports"]] == [
        on_user.json()["id"],
        on_game.json()["id"],
    ]
    done = (await mod.http.get("/api/moderation/reports", params={"status": "closed"})).json()["reports"]
    assert [(r["id"], r["status"], r["resolution"], r["closed_by"]) for r in done] == [
        (receipt["id"], "closed", "warned", mod.user["name"])
    ]
    # A player cannot read the queue.
    assert (await ana.http.get("/api/moderation/reports")).status_code == 403
    for person in (ana, bao, mod):
        await person.close()


CONTEXT = 10  # docs/moderation.md: up to ten lines before the reported one and ten after


@pytest.fixture
def chatty(servers: Servers) -> LiveServer:
    """A server whose chat limits let one player write a long chat at once."""
    servers.settings = servers.settings.model_copy(update={"chat_lines": 1000, "new_account_chat_lines": 1000})
    return servers.start()


async def test_the_queue_shows_ten_lines_before_and_after_the_reported_one(chatty: LiveServer, database_url: str) -> None:
    ana, bao = await registered(chatty.url), await registered(chatty.url)
    mod = await moderator(chatty.url, database_url)
    game_id = await start_game(ana, bao)
    b = await bao.socket(game_id)
    await b.of_type("snapshot")
    lines = []  # (v, text) of each line, in order
    for i in range(25):
        ack = await b.act({"t": "chat", "channel": "players", "text": f"line {i}"})
        assert ack["t"] == "ack", ack
        lines.append((ack["v"], f"line {i}"))

    async def context_of(index: int) -> list[tuple[int, str, bool]]:
        v = lines[index][0]
        made = await ana.http.post("/api/reports", json={"kind": "chat", "game_id": game_id, "chat_v": v, "reason": "rude"})
        assert made.status_code == 201, made.text
        queue = (await mod.http.get("/api/moderation/reports")).json()["reports"]
        shown = next(r for r in queue if r["id"] == made.json()["id"])
        return [(line["v"], line["text"], line["reported"]) for line in shown["chat"]]

    def expected(index: int) -> list[tuple[int, str, bool]]:
        around = lines[max(0, index - CONTEXT) : index + CONTEXT + 1]
        return [(v, text, v == lines[index][0]) for v, text in around]

    middle = await context_of(12)  # twelve lines before it and twelve after: ten of each are shown
    assert middle == expected(12) and len(middle) == 2 * CONTEXT + 1
    assert await context_of(3) == expected(3)  # only three lines before it
    assert await context_of(24) == expected(24)  # the last line: nothing after it
    for person in (ana, bao, mod):
        await person.close()


async def test_bad_reports_get_clear_errors(server: LiveServer) -> None:
    ana, bao = await registered(server.url), await registered(server.url)
    game_id = await start_game(ana, bao)
    cases = [
        ({"kind": "user", "reason": "x"}, 422, "invalid_request"),
        ({"kind": "chat", "game_id": game_id, "reason": "x"}, 422, "invalid_request"),
        ({"kind": "user", "user": bao.user["name"], "reason": ""}, 422, "invalid_request"),
        ({"kind": "user", "user": "nobody-at-all", "reason": "x"}, 404, "user_not_found"),
        ({"kind": "game", "game_id": "nosuchgame", "reason": "x"}, 404, "game_not_found"),
        ({"kind": "chat", "game_id": game_id, "chat_v": 9, "reason": "x"}, 404, "chat_line_not_found"),
        ({"kind": "user", "user": ana.user["name"], "reason": "x"}, 400, "own_report"),
    ]
    for body, status, code in cases:
        answer = await ana.http.post("/api/reports", json=body)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), body
    for person in (ana, bao):
        await person.close()


async def test_reasons_are_at_most_500_characters_in_any_script(server: LiveServer, database_url: str) -> None:
    """A report's reason, a moderator's action's reason and a report's resolution: 500 characters are kept whole
    (in any script), one more is refused with ``reason_too_long`` (docs/moderation.md), not as malformed."""
    ana, bao = await registered(server.url), await registered(server.url)
    mod = await moderator(server.url, database_url)
    longest = "報" * 500
    over = await ana.http.post("/api/reports", json={"kind": "user", "user": bao.user["name"], "reason": longest + "x"})
    assert (over.status_code, over.json()["error"]["code"]) == (422, "reason_too_long"), over.text
    made = await ana.http.post("/api/reports", json={"kind": "user", "user": bao.user["name"], "reason": longest})
    assert made.status_code == 201, made.text
    report_id = made.json()["id"]
    assert (await mod.http.get(f"/api/moderation/reports/{report_id}")).json()["reason"] == longest
    warn = f"/api/moderation/users/{bao.user['name']}/warn"
    over = await mod.http.post(warn, json={"reason": "w" * 501, "report_id": report_id})
    assert (over.status_code, over.json()["error"]["code"]) == (422, "reason_too_long"), over.text
    warned = await mod.http.post(warn, json={"reason": "w" * 500, "report_id": report_id})
    assert warned.status_code == 200 and warned.json()["reason"] == "w" * 500
    close = f"/api/moderation/reports/{report_id}/close"
    over = await mod.http.post(close, json={"resolution": "r" * 501})
    assert (over.status_code, over.json()["error"]["code"]) == (422, "reason_too_long"), over.text
    assert (await mod.http.post(close, json={"resolution": "r" * 500})).status_code == 200
    for person in (ana, bao, mod):
        await person.close()
