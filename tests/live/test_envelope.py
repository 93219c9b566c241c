"""The hub payload of a game channel: one event, its two texts, and the stored payload it carries."""

from __future__ import annotations

import orjson

from app.transport.envelope import pack, unpack


def test_each_viewer_gets_the_text_its_seat_may_see() -> None:
    visible = orjson.dumps({"t": "chat", "text": "try the corner", "v": 4})
    envelope = unpack(pack(visible, v=4, vis="spectators", others=b'{"t":"hidden","v":4}'))
    assert envelope.v == 4
    assert envelope.text_for(None) == visible.decode()
    assert envelope.text_for("B") == envelope.text_for("W") == '{"t":"hidden","v":4}'
    public = unpack(pack(b'{"t":"move","v":1}', v=1))
    assert public.text_for("B") == public.text_for(None) == '{"t":"move","v":1}'


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
    assert envelope.committed_payload() == stored
    move = unpack(pack(b'{"t":"move","p":[3,3],"v":1}', v=1, private={}))
    assert move.committed_payload() == {"t": "move", "p": [3, 3]}


def test_ephemeral_and_older_envelopes_carry_no_payload() -> None:
    assert unpack(pack(b'{"t":"presence"}', vis="presence")).committed_payload() is None
    assert unpack(pack(b'{"t":"move","v":2}', v=2)).committed_payload() is None  # the room reads the database
    assert unpack(pack(b'{"t":"tick"}', private={"_x": 1})).committed_payload() is None  # no version
