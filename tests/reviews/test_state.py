"""The rules of a review's live state: only the leader changes it, the owner hands control over and takes it
back, and every refusal changes nothing."""

from __future__ import annotations

import pytest

from app.reviews.limits import COMMENT_CHARS, ReviewLimits
from app.reviews.loading import tree_limits
from app.reviews.state import Actor, Person, ReviewError, ReviewState
from app.study.tree import Setup, Tree

OWNER, FRIEND, STRANGER = Person(1, "owner"), Person(2, "friend"), Person(3, "stranger")


def _state(limits: ReviewLimits | None = None) -> ReviewState:
    limits = limits or ReviewLimits()
    return ReviewState(
        id="r",
        title="t",
        game_id=None,
        owner=OWNER,
        controller=OWNER,
        tree=Tree(Setup(size=9), tree_limits(limits)),
        current=0,
        limits=limits,
    )


def _act(state: ReviewState, who: Person | None, action: dict, present: tuple[int, ...] = ()) -> dict:
    outcome = state.apply(Actor(who, frozenset(present)), action, 100.0)
    return outcome.event.wire() | {"_changes": outcome.changes, "_tree": outcome.tree_changed}


def test_the_leader_plays_branches_and_navigates() -> None:
    state = _state()
    first = _act(state, OWNER, {"t": "play", "p": [2, 2]})
    assert first["added"] and first["node"] == {"id": 1, "parent": 0, "move": {"color": "B", "point": [2, 2]}}
    assert first["position"]["board"][2][2] == "X" and first["position"]["to_move"] == "W"
    assert first["_changes"] == {"current": 1} and first["_tree"]
    assert [n["id"] for n in state.tree_doc()["nodes"]] == [0, 1]
    back = _act(state, OWNER, {"t": "goto", "node": 0})
    assert back["position"]["board"][2][2] == "." and back["_changes"] == {"current": 0} and not back["_tree"]
    again = _act(state, OWNER, {"t": "play", "p": [2, 2]})
    assert not again["added"] and again["node"]["id"] == 1 and not again["_tree"]
    _act(state, OWNER, {"t": "goto", "node": 0})
    branch = _act(state, OWNER, {"t": "play", "p": None})
    assert branch["node"]["id"] == 2 and branch["node"]["move"]["point"] is None


def test_followers_cannot_change_anything() -> None:
    state = _state()
    for action in (
        {"t": "play", "p": [1, 1]},
        {"t": "goto", "node": 0},
        {"t": "comment", "text": "x"},
        {"t": "mark", "p": [1, 1], "kind": "square"},
        {"t": "remove_branch", "node": 1},
    ):
        with pytest.raises(ReviewError) as refused:
            state.apply(Actor(FRIEND), action, 1.0)
        assert refused.value.code == "not_controller"
    assert len(state.tree) == 1


def test_control_goes_to_someone_present_and_the_owner_takes_it_back() -> None:
    state = _state()
    with pytest.raises(ReviewError) as absent:
        _act(state, OWNER, {"t": "hand_control", "to": FRIEND.id, "to_name": "friend"})
    assert absent.value.code == "not_present"
    with pytest.raises(ReviewError) as not_owner:
        _act(state, STRANGER, {"t": "hand_control", "to": STRANGER.id}, present=(3,))
    assert not_owner.value.code == "not_owner"
    handed = _act(state, OWNER, {"t": "hand_control", "to": FRIEND.id, "to_name": "friend"}, present=(1, 2))
    assert handed["controller"] == {"id": 2, "name": "friend"} and handed["_changes"] == {"controller_id": 2}
    assert _act(state, FRIEND, {"t": "play", "p": [4, 4]})["node"]["id"] == 1
    with pytest.raises(ReviewError):
        _act(state, OWNER, {"t": "play", "p": [5, 5]})
    with pytest.raises(ReviewError) as friend_takes:
        _act(state, FRIEND, {"t": "take_control"})
    assert friend_takes.value.code == "not_owner"
    taken = _act(state, OWNER, {"t": "take_control"})
    assert taken["controller"] == {"id": 1, "name": "owner"} and taken["_changes"] == {"controller_id": None}


def test_comments_marks_and_removing_a_branch() -> None:
    state = _state()
    _act(state, OWNER, {"t": "play", "p": [3, 3]})
    assert _act(state, OWNER, {"t": "comment", "text": "good"})["node"] == 1
    with pytest.raises(ReviewError) as long:
        _act(state, OWNER, {"t": "comment", "text": "x" * (COMMENT_CHARS + 1)})
    assert long.value.code == "comment_too_long"
    mark = _act(state, OWNER, {"t": "mark", "p": [4, 4], "kind": "label", "label": "A"})
    assert (mark["kind"], mark["label"]) == ("label", "A")
    assert _act(state, OWNER, {"t": "mark", "p": [4, 4], "kind": "clear"})["kind"] is None
    with pytest.raises(ReviewError) as off:
        _act(state, OWNER, {"t": "mark", "p": [9, 4], "kind": "square"})
    assert (off.value.code, off.value.reason) == ("illegal_move", "off_board")
    _act(state, OWNER, {"t": "play", "p": [5, 5]})
    removed = _act(state, OWNER, {"t": "remove_branch", "node": 1})
    assert removed["current"] == 0 and removed["position"]["board"][3][3] == "." and len(state.tree) == 1
    with pytest.raises(ReviewError) as root:
        _act(state, OWNER, {"t": "remove_branch", "node": 0})
    assert root.value.code == "cannot_remove_root"
    with pytest.raises(ReviewError) as gone:
        _act(state, OWNER, {"t": "goto", "node": 1})
    assert gone.value.code == "node_not_found"


def test_illegal_moves_and_the_node_cap_are_refused_with_nothing_changed() -> None:
    state = _state(ReviewLimits(nodes=2))
    _act(state, OWNER, {"t": "play", "p": [0, 0]})
    with pytest.raises(ReviewError) as full:
        _act(state, OWNER, {"t": "play", "p": [1, 1]})
    assert full.value.code == "tree_too_large" and state.current == 1 and len(state.tree) == 2
    state = _state()
    _act(state, OWNER, {"t": "play", "p": [0, 0]})
    with pytest.raises(ReviewError) as refused:
        _act(state, OWNER, {"t": "play", "p": [0, 0]})
    assert (refused.value.code, refused.value.reason) == ("illegal_move", "occupied")
    assert state.current == 1 and len(state.tree) == 2


def test_chat_keeps_the_newest_lines_and_needs_a_name() -> None:
    state = _state(ReviewLimits(chat_kept=2))
    for text in ("a", "b", "c"):
        line = _act(state, STRANGER, {"t": "chat", "text": text})
    assert line["from"] == {"id": 3, "name": "stranger"} and [c["text"] for c in state.chat] == ["b", "c"]
    with pytest.raises(ReviewError) as anonymous:
        _act(state, None, {"t": "chat", "text": "hi"})
    assert anonymous.value.code == "not_authenticated"
