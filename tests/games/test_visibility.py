import orjson

from app.games.visibility import author_of, can_see, chat_visible, event_for, hides_challenge, redacted, text_for


def test_visibility_rules():
    assert all(can_see("all", v) for v in ("B", "W", None))
    assert can_see("players", "B") and can_see("players", "W") and not can_see("players", None)
    assert can_see("B", "B") and not can_see("B", "W") and not can_see("B", None)


def test_event_for_strips_or_redacts():
    ev = {"t": "sealed", "color": "B", "p": [3, 3], "visibility": "B", "others": {"t": "sealed", "color": "B"}}
    assert event_for(ev, "B") == {"t": "sealed", "color": "B", "p": [3, 3]}
    assert event_for(ev, "W") == {"t": "sealed", "color": "B"}
    assert event_for({"t": "chat", "visibility": "players"}, None) == {"t": "hidden"}
    assert event_for({"t": "move", "visibility": "all"}, None) == {"t": "move"}


def test_a_committed_event_is_cut_once_into_the_texts_each_side_gets_and_put_back_as_stored():
    from app.games.visibility import choose, split, stored

    event = {
        "t": "sealed",
        "color": "W",
        "p": [3, 3],
        "visibility": "W",
        "others": {"t": "sealed", "color": "W"},
        "_cid": "c1",
        "_ack": 9,
    }
    cut = split(event, 9)
    assert cut.visibility == "W"
    assert orjson.loads(cut.visible) == {"t": "sealed", "color": "W", "p": [3, 3], "v": 9}
    assert orjson.loads(cut.others) == {"t": "sealed", "color": "W", "v": 9}
    assert cut.private == {"others": {"t": "sealed", "color": "W"}, "_cid": "c1", "_ack": 9}
    assert stored(orjson.loads(cut.visible), cut.visibility, cut.private) == event
    visible, others = cut.visible.decode(), cut.others.decode()
    assert choose(cut.visibility, "W", visible, others) == visible
    assert choose(cut.visibility, "B", visible, others) == choose(cut.visibility, None, visible, others) == others


def test_an_event_everybody_sees_has_one_text():
    from app.games.visibility import choose, split, stored

    cut = split({"t": "move", "p": [2, 2], "visibility": "all"}, 1)
    assert cut.others == b"" and cut.private == {}
    assert all(choose(cut.visibility, viewer, "m", "") == "m" for viewer in ("B", "W", None))
    assert stored(orjson.loads(cut.visible), cut.visibility, cut.private) == {"t": "move", "p": [2, 2]}


def test_a_redacted_event_without_its_others_becomes_hidden_at_its_version():
    assert orjson.loads(text_for({"t": "chat", "text": "hi", "visibility": "players"}, 4, None)) == {"t": "hidden", "v": 4}
    assert orjson.loads(text_for({"t": "chat", "text": "hi", "visibility": "players", "_uid": 3}, 4, "B")) == {
        "t": "chat",
        "text": "hi",
        "v": 4,
    }


def test_spectators_chat_is_kept_from_the_players_until_the_game_is_over():
    line = {"t": "chat", "text": "a", "visibility": "spectators", "from": {"id": 5}}
    assert chat_visible(line, None, False) and not chat_visible(line, "B", False)
    assert chat_visible(line, "B", True) and chat_visible(line, "W", True)
    assert author_of(line) == 5 and author_of({"t": "chat"}) is None


def test_a_lobby_viewer_is_not_sent_the_challenges_of_those_its_blocks_hide():
    by_seven = {"t": "challenge_created", "challenge": {"id": "c1", "creator": {"id": 7, "name": "troll"}}}
    assert hides_challenge(by_seven, frozenset({7}))
    assert not hides_challenge(by_seven, frozenset({8})) and not hides_challenge(by_seven, frozenset())
    assert not hides_challenge({"t": "challenge_created", "challenge": {"id": "c2", "creator": None}}, frozenset({7}))
    assert not hides_challenge({"t": "game_started", "challenge": {"creator": {"id": 7}}}, frozenset({7}))


def test_every_event_is_built_by_its_model_and_a_field_it_does_not_declare_is_refused():
    import pytest
    from pydantic import ValidationError

    from app.games.events import build

    moved = build("vacation", {"color": "B", "on": True, "clocks": None, "server_time": 3})
    assert list(moved) == ["t", "color", "on", "clocks", "server_time"] and moved["server_time"] == 3.0
    with pytest.raises(ValidationError):
        build("vacation", {"color": "B", "on": True, "clocks": None, "mood": "sunny"})
    assert orjson.dumps(redacted({"t": "chat", "visibility": "players"}, 7)) == b'{"t":"hidden","v":7}'
