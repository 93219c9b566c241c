"""The chat filter of one game or review socket: what a viewer who blocks (or is blocked by) someone receives."""

from __future__ import annotations

from typing import Any

import orjson

from app.moderation.chat_filter import ChatFilter
from app.protocol import ReviewSnapshot, encode


def _text(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()


def test_a_hidden_users_chat_becomes_a_hidden_placeholder_with_its_version() -> None:
    viewer = ChatFilter(1, frozenset({7}))
    line = _text({"t": "chat", "v": 12, "channel": "players", "from": {"id": 7, "name": "troll"}, "text": "boo"})
    assert orjson.loads(viewer.text(line)) == {"t": "hidden", "v": 12}
    friend = _text({"t": "chat", "v": 13, "channel": "players", "from": {"id": 8, "name": "pal"}, "text": "hi"})
    assert viewer.text(friend) == friend


def test_snapshots_lose_the_hidden_users_lines_and_everything_else_passes_untouched() -> None:
    chat = [{"v": 3, "from": {"id": 7}, "text": "boo"}, {"v": 4, "from": {"id": 8}, "text": "hi"}]
    # A game snapshot as the socket sends it: "t" first (docs/protocol.md §4.3).
    snapshot = _text({"t": "snapshot", "v": 4, "you": {"role": "spectator"}, "game": {"chat": chat, "board": []}})
    shown = orjson.loads(ChatFilter(1, frozenset({7})).text(snapshot))
    assert [line["text"] for line in shown["game"]["chat"]] == ["hi"]
    assert shown["v"] == 4 and shown["you"] == {"role": "spectator"}
    move = _text({"t": "move", "v": 5, "color": "B", "p": [3, 3]})
    assert ChatFilter(1, frozenset({7})).text(move) == move
    # A viewer who blocks nobody is never read at all.
    assert ChatFilter(1, frozenset()).text(snapshot) == snapshot


def test_a_review_snapshot_loses_the_hidden_users_lines() -> None:
    chat = [{"from": {"id": 7}, "text": "boo"}, {"from": {"id": 8}, "text": "hi"}]
    snapshot = encode(ReviewSnapshot(v=2, you={"role": "follower"}, review={"chat": chat}, participants=[], anonymous=0)).decode()
    shown = orjson.loads(ChatFilter(1, frozenset({7})).text(snapshot))
    assert [line["text"] for line in shown["review"]["chat"]] == ["hi"]
    assert ChatFilter(1, frozenset({9})).text(snapshot) == snapshot
