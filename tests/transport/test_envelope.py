"""The hub payload of a game channel: one event, its two texts, and the stored payload it carries."""

from __future__ import annotations

import orjson

from app.games.live.seats import committed_payload, seat_text
from app.transport.envelope import pack, unpack


def test_each_viewer_gets_the_text_its_seat_may_see() -> None:
    visible = orjson.dumps({"t": "chat", "text": "try the corner", "v": 4})
    envelope = unpack(pack(visible, v=4, vis="spectators", others=b'{"t":"hidden","v":4}'))
    assert envelope.v == 4
    assert seat_text(envelope, None) == visible.decode()
    assert seat_text(envelope, "B") == seat_text(envelope, "W") == '{"t":"hidden","v":4}'
    public = unpack(pack(b'{"t":"move","v":1}', v=1))
    assert seat_text(public, "B") == seat_text(public, None) == '{"t":"move","v":1}'


def test_a_committed_event_carries_its_stored_payload() -> None:
    stored = {
        "t": "chat",
        "text": "a\nb",
        "visibility": "spectators",
        "others": {"t": "hidden"},
        "_cid": "c1",
        "_uid": 7,
        "_ack": 3,
        "_action": {"actor": None, "action": {"t": "chat"}, "now": 12.5, "facts": None},
    }
    private = {k: v for k, v in stored.items() if k.startswith("_") or k == "others"}
    visible = orjson.dumps({"t": "chat", "text": "a\nb", "v": 3})
    envelope = unpack(pack(visible, v=3, vis="spectators", others=b'{"t":"hidden","v":3}', private=private))
    assert committed_payload(envelope) == stored
    move = unpack(pack(b'{"t":"move","p":[3,3],"v":1}', v=1, private={}))
    assert committed_payload(move) == {"t": "move", "p": [3, 3]}


def test_ephemeral_and_older_envelopes_carry_no_payload() -> None:
    assert committed_payload(unpack(pack(b'{"t":"presence"}', vis="presence"))) is None
    assert committed_payload(unpack(pack(b'{"t":"move","v":2}', v=2))) is None  # the room reads the database
    assert committed_payload(unpack(pack(b'{"t":"tick"}', private={"_x": 1}))) is None  # no version
