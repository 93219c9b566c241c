from app.games.visibility import can_see, event_for


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
