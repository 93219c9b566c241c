"""The text limits of the game and review sockets, over real sockets: the largest text each limit allows is
accepted in any script, written raw (UTF-8) or escaped (``\\uXXXX``, surrogate pairs for 4-byte characters, as
``json.dumps`` writes by default), so the frame cap never undercuts it; one character more is refused with the
limit's own code, to that socket only, and such honest refusals never slow the socket's reads."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import httpx
import orjson
import pytest

from app.protocol import MAX_CHAT_CHARS
from app.reviews.limits import COMMENT_CHARS
from app.study.tree import LIMITS
from app.transport import connection
from tests.support.players import GameSocket, guests, start_game
from tests.support.reviews import finished_game, make_review

pytestmark = pytest.mark.timeout(120)

# Chinese, Korean, Vietnamese, and two characters beyond the Basic Multilingual Plane (4 bytes in UTF-8, an
# escaped surrogate pair of 12 bytes in JSON): every kind of character a limit counts as one.
SCRIPTS = "围棋바둑Cờvây\U0002070e\U0001f004"
ASTRAL = "\U0002070e\U0001f004"
_ids = itertools.count(1)


def text_of(chars: int) -> str:
    return "".join(itertools.islice(itertools.cycle(SCRIPTS), chars))


async def act_escaped(sock: GameSocket, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` as ``json.dumps`` writes it (every character past ASCII escaped); its ack or error."""
    client_id = f"e{next(_ids)}"
    await sock.send_raw(json.dumps({**message, "id": client_id}))
    return await sock.until(lambda m: m.get("t") in ("ack", "error") and m.get("id") == client_id)


async def _slowed_reads(url: str) -> float:
    async with httpx.AsyncClient(base_url=url) as client:
        text = (await client.get("/metrics")).text
    found = re.search(r"^tengen_socket_reads_slowed_total ([0-9.e+]+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


async def test_a_review_comment_at_its_limit_is_accepted_in_any_script_and_one_more_is_comment_too_long(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connection, "SLOW_INTERVAL", 0.05)
    async with guests(live_server, 3) as (owner, other, guest):
        review = await make_review(owner, await finished_game(owner, other))
        lead, follow = await owner.review(review["id"]), await guest.review(review["id"])
        await follow.of_type("snapshot")
        longest = text_of(COMMENT_CHARS)
        astral = (ASTRAL * COMMENT_CHARS)[:COMMENT_CHARS]
        assert len(orjson.dumps(astral)) == 4 * COMMENT_CHARS + 2 and len(json.dumps(astral)) == 12 * COMMENT_CHARS + 2
        for text in (longest, astral):
            for send in (lead.act, lambda message: act_escaped(lead, message)):
                said = await send({"t": "comment", "text": text})
                assert said["t"] == "ack", said
                assert (await follow.event(said["v"]))["text"] == text
        before = await _slowed_reads(live_server)
        for _ in range(connection.SLOW_AFTER + 2):
            over = await lead.act({"t": "comment", "text": longest + "x"})
            assert over["t"] == "error" and over["code"] == "comment_too_long", over
            assert str(COMMENT_CHARS) in over["message"]
            over = await act_escaped(lead, {"t": "comment", "text": "\U0001f004" + longest})
            assert over["code"] == "comment_too_long", over
        assert (await lead.act({"t": "goto", "node": 1}))["t"] == "ack"
        assert await _slowed_reads(live_server) == before  # honest refusals: the socket is read as before
        # Nothing of it reached the follower, and the stored comment is the last one accepted.
        later = await other.review(review["id"])
        snapshot = await later.of_type("snapshot")
        assert snapshot["review"]["tree"]["nodes"][0]["comment"] == astral
        assert not [m for m in follow.received if m.get("t") == "error"]
        for sock in (lead, follow, later):
            await sock.close()


async def test_a_review_label_and_chat_are_refused_with_their_own_codes(live_server: str) -> None:
    async with guests(live_server, 2) as (owner, other):
        review = await make_review(owner, await finished_game(owner, other))
        lead = await owner.review(review["id"])
        await lead.of_type("snapshot")
        label = text_of(LIMITS.label)
        assert (await act_escaped(lead, {"t": "mark", "p": [3, 3], "kind": "label", "label": label}))["t"] == "ack"
        for bad in (label + "x", ""):
            reply = await lead.act({"t": "mark", "p": [3, 3], "kind": "label", "label": bad})
            assert reply["code"] == "bad_mark", (bad, reply)
        line = text_of(MAX_CHAT_CHARS)
        assert (await act_escaped(lead, {"t": "chat", "text": line}))["t"] == "ack"
        reply = await act_escaped(lead, {"t": "chat", "text": line + "!"})
        assert reply["code"] == "chat_too_long" and str(MAX_CHAT_CHARS) in reply["message"], reply
        await lead.close()


async def test_a_game_chat_line_at_its_limit_is_accepted_in_any_script_and_one_more_is_chat_too_long(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connection, "SLOW_INTERVAL", 0.05)
    async with guests(live_server, 2) as (black, white):
        game_id = await start_game(black, white)
        bs, ws = await black.socket(game_id), await white.socket(game_id)
        line = text_of(MAX_CHAT_CHARS)
        said = await act_escaped(bs, {"t": "chat", "text": line})
        assert said["t"] == "ack", said
        assert (await ws.event(said["v"]))["text"] == line
        before = await _slowed_reads(live_server)
        for _ in range(connection.SLOW_AFTER + 2):
            over = await act_escaped(bs, {"t": "chat", "text": line + "!"})
            assert over["code"] == "chat_too_long", over
        assert (await bs.act({"t": "play", "p": [2, 2]}))["t"] == "ack"
        assert await _slowed_reads(live_server) == before
        for sock in (bs, ws):
            await sock.close()


async def test_a_frame_past_what_any_message_can_need_is_too_large(live_server: str) -> None:
    async with guests(live_server, 2) as (owner, other):
        review = await make_review(owner, await finished_game(owner, other))
        lead = await owner.review(review["id"])
        await lead.of_type("snapshot")
        await lead.send_raw('{"t":"comment","id":"big","text":"' + "x" * (12 * COMMENT_CHARS + 4096) + '"}')
        reply = await lead.until(lambda m: m.get("t") == "error")
        assert reply["code"] == "too_large" and reply["id"] == "big"
        await lead.close()
