from typing import Any

import orjson
import pytest
from pydantic import BaseModel, ValidationError

from app.protocol import (
    CLIENT_TYPES,
    GAME_FRAME_BYTES,
    Ack,
    Chat,
    Play,
    ProtocolError,
    Seal,
    client_frame,
    client_id_of,
    encode,
    error_bytes,
    parse_client_message,
)


def test_play_parses_to_typed_model():
    message = parse_client_message('{"t":"play","id":"m1","p":[3,15]}')
    assert isinstance(message, Play)
    assert message.p == (3, 15)
    assert message.id == "m1"


def test_a_client_frame_is_built_by_its_model_and_parses_back():
    frame = client_frame({"t": "play", "p": (3, 15), "id": "b-1"})
    assert parse_client_message(frame) == Play(t="play", id="b-1", p=(3, 15))
    assert orjson.loads(client_frame({"t": "seal", "id": "s"})) == {"id": "s", "t": "seal"}  # no null field sent
    with pytest.raises(ValidationError):
        client_frame({"t": "play", "p": (3, 15), "id": "b-2", "colour": "B"})  # a field no model declares
    with pytest.raises(ValidationError):
        client_frame({"t": "pong"})  # every client frame names its id


def test_seal_allows_a_pass():
    assert parse_client_message('{"t":"seal","id":"s"}') == Seal(t="seal", id="s", p=None)


def test_chat_defaults_to_players_channel():
    message = parse_client_message(b'{"t":"chat","id":"c","text":"hi"}')
    assert isinstance(message, Chat) and message.channel == "players"


@pytest.mark.parametrize(
    ("raw", "code", "client_id"),
    [
        ("{", "bad_json", None),
        ("[1,2]", "invalid_message", None),
        ('{"id":"q"}', "invalid_message", "q"),
        ('{"t":"teleport","id":"q"}', "unknown_type", "q"),
        ('{"t":"play","id":"q","p":[3]}', "invalid_message", "q"),
        ('{"t":"play","id":"q","p":[3,"4"]}', "invalid_message", "q"),
        ('{"t":"play","id":"q","p":[3,true]}', "invalid_message", "q"),
        ('{"t":"play","id":"q","p":[3,4.5]}', "invalid_message", "q"),
        ('{"t":"play","id":"q","p":[3,4],"extra":1}', "invalid_message", "q"),
        ('{"t":"play","p":[3,4]}', "invalid_message", None),
        ('{"t":"chat","id":"q","text":""}', "invalid_message", "q"),
        ('{"t":"chat","id":"q","text":"x","channel":"everyone"}', "invalid_message", "q"),
    ],
)
def test_bad_input_raises_protocol_error_with_stable_code(raw, code, client_id):
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw)
    assert caught.value.code == code
    assert caught.value.client_id == client_id
    assert caught.value.message


def test_oversized_message_is_refused_before_parsing():
    raw = '{"t":"chat","id":"c","text":"' + "x" * GAME_FRAME_BYTES + '"}'
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw)
    assert caught.value.code == "too_large" and caught.value.client_id == "c"


@pytest.mark.parametrize("point", [[-1, 0], [3, 25], [9, 4], [-100000, 7]])
def test_any_whole_numbers_make_a_point_the_game_judges(point: list[int]) -> None:
    assert parse_client_message(orjson.dumps({"t": "play", "id": "q", "p": point})).p == tuple(point)
    assert parse_client_message(orjson.dumps({"t": "toggle_dead", "id": "q", "p": point})).p == tuple(point)


@pytest.mark.parametrize(
    ("raw", "client_id"), [('{"t":"x","id":"a7"}', "a7"), ('{"id":5}', None), ("{", None), ("[1]", None), ('{"id":""}', None)]
)
def test_the_id_of_a_refused_frame_is_read_where_it_can_be(raw: str, client_id: str | None) -> None:
    assert client_id_of(raw) == client_id


def test_client_types_lists_every_action():
    assert {"play", "pass", "resign", "chat", "ping", "toggle_dead", "seal", "claim_victory"} <= CLIENT_TYPES


def test_encode_is_plain_json():
    assert orjson.loads(encode(Ack(id="a", v=3))) == {"t": "ack", "id": "a", "v": 3}
    assert orjson.loads(error_bytes("illegal_move", "no", "a", "ko")) == {
        "t": "error",
        "id": "a",
        "code": "illegal_move",
        "message": "no",
        "reason": "ko",
    }


def test_messages_on_a_shared_base_carry_their_type_first_then_the_fields_in_order():
    from app.games.events import build
    from app.protocol import (
        PongReply,
        ReviewCommentEvent,
        ReviewGotoEvent,
        ReviewMarkEvent,
        ReviewRemoveBranchEvent,
        ReviewSnapshot,
        SeekAck,
        SeekCancelAck,
        ServerPing,
        Snapshot,
        at_version,
    )

    assert encode(Ack(id="a", v=3)) == b'{"t":"ack","id":"a","v":3}'
    assert encode(PongReply(id="a", server_time=1.5)) == b'{"t":"pong","id":"a","server_time":1.5}'
    assert encode(ServerPing(id="s1", server_time=2.0)) == b'{"t":"ping","id":"s1","server_time":2.0}'
    assert encode(SeekAck(id="a", seek_id="k")) == b'{"t":"ack","id":"a","seek_id":"k"}'
    assert encode(SeekCancelAck(id="a", cancelled=True)) == b'{"t":"ack","id":"a","cancelled":true}'
    snapshot = ReviewSnapshot(v=4, you={}, review={}, participants=[], anonymous=0)
    assert list(snapshot.wire()) == ["t", "v", "resync", "you", "review", "participants", "anonymous"]
    assert list(Snapshot.model_fields) == ["t", "v", "resync", "you", "game"]
    assert at_version(ReviewGotoEvent(node=2, position={}), 5) == b'{"t":"goto","node":2,"position":{},"v":5}'
    assert at_version(ReviewCommentEvent(node=2, text="hi"), 5) == b'{"t":"comment","node":2,"text":"hi","v":5}'
    mark = ReviewMarkEvent(node=2, p=[1, 1], kind=None, label=None)
    assert list(orjson.loads(at_version(mark, 5))) == ["t", "node", "p", "kind", "label", "v"]
    assert list(orjson.loads(at_version(ReviewRemoveBranchEvent(node=2, current=1, position={}), 5))) == [
        "t",
        "node",
        "current",
        "position",
        "v",
    ]
    offers = {"undo": None, "draw": "B", "adjourn": None, "resume": None, "rematch": None}
    for t in ("offer", "offer_declined"):
        assert list(build(t, {"kind": "draw", "by": "B", "offers": offers, "server_time": 1})) == [
            "t",
            "kind",
            "by",
            "offers",
            "server_time",
        ]


def test_review_messages_parse_to_typed_models():
    from app.protocol import HandControl, ReviewMark, ReviewPlay, parse_review_message

    assert parse_review_message('{"t":"play","id":"a","p":null}') == ReviewPlay(t="play", id="a", p=None)
    assert parse_review_message('{"t":"hand_control","id":"a","to":7}') == HandControl(t="hand_control", id="a", to=7)
    mark = parse_review_message('{"t":"mark","id":"a","p":[1,2],"kind":"label","label":"AB"}')
    assert isinstance(mark, ReviewMark) and mark.label == "AB"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ('{"t":"goto","id":"q","node":"3"}', "invalid_message"),
        ('{"t":"goto","id":"q","node":-1}', "invalid_message"),
        ('{"t":"mark","id":"q","p":[1,1],"kind":"star"}', "invalid_message"),
        ('{"t":"mark","id":"q","p":[1,1],"kind":"label","label":"TOOLONG"}', "bad_mark"),
        ('{"t":"mark","id":"q","p":[1,1],"kind":"label","label":""}', "bad_mark"),
        ('{"t":"comment","id":"q","text":"' + "x" * 2001 + '"}', "comment_too_long"),
        ('{"t":"chat","id":"q","text":"' + "x" * 501 + '"}', "chat_too_long"),
        # Malformed besides: the message is malformed, whatever else it holds.
        ('{"t":"comment","id":"q","text":"' + "x" * 2001 + '","extra":1}', "invalid_message"),
        ('{"t":"hand_control","id":"q","to":"me"}', "invalid_message"),
        ('{"t":"resign","id":"q"}', "unknown_type"),
    ],
)
def test_bad_review_messages_get_stable_codes(raw, code):
    from app.protocol import parse_review_message

    with pytest.raises(ProtocolError) as caught:
        parse_review_message(raw)
    assert caught.value.code == code and caught.value.client_id == "q"


ASTRAL = "\U0001f004"  # 4 bytes of UTF-8; 12 bytes in JSON as json.dumps writes it (an escaped surrogate pair)


def test_each_socket_carries_its_longest_text_written_by_any_encoder():
    """The frame caps are derived from the text limits: the longest text of 4-byte characters, written with every
    character escaped and an id of 64 such characters, still fits, and is refused for its length, not its size."""
    import json

    from app.games.conditional import MAX_NODES
    from app.protocol import MAX_CHAT_CHARS, parse_review_message
    from app.reviews.limits import COMMENT_CHARS

    client_id = ASTRAL * 64
    cases = [
        (parse_client_message, {"t": "chat", "channel": "spectators", "text": ASTRAL * MAX_CHAT_CHARS}, "chat_too_long"),
        (parse_review_message, {"t": "chat", "text": ASTRAL * MAX_CHAT_CHARS}, "chat_too_long"),
        (parse_review_message, {"t": "comment", "text": ASTRAL * COMMENT_CHARS}, "comment_too_long"),
    ]
    for parse, message, code in cases:
        raw = json.dumps({**message, "id": client_id})
        assert parse(raw).text == message["text"]
        with pytest.raises(ProtocolError) as caught:
            parse(json.dumps({**message, "id": client_id, "text": message["text"] + ASTRAL}))
        assert caught.value.code == code and caught.value.client_id == client_id
    # The largest conditional tree: MAX_NODES branches of two-digit points, nested and side by side.
    nested: list = []
    for _ in range(MAX_NODES // 2):
        nested = [[[18, 18], [17, 17], nested]]
    wide = [[[x, y], [y, x], []] for x in range(10, 20) for y in range(10, 15)]
    raw = json.dumps({"t": "conditional", "id": client_id, "tree": nested + wide})
    assert parse_client_message(raw).tree == orjson.loads(raw)["tree"]


def test_the_server_never_closes_a_socket_for_a_frame_its_protocol_accepts():
    from app.protocol import MAX_FRAME_BYTES
    from app.server import uvicorn_options
    from app.settings import Settings

    assert uvicorn_options(Settings(ws_max_message_bytes=1024))["ws_max_size"] == MAX_FRAME_BYTES
    assert uvicorn_options(Settings(ws_max_message_bytes=2 * MAX_FRAME_BYTES))["ws_max_size"] == 2 * MAX_FRAME_BYTES


# ---- the game socket's events and the schema -------------------------------------------------------------


def test_the_schema_in_docs_is_generated_from_the_models():
    from pathlib import Path

    from app.protocol import protocol_schema

    written = orjson.loads((Path(__file__).parent.parent / "docs" / "protocol.schema.json").read_bytes())
    assert written == orjson.loads(orjson.dumps(protocol_schema())), "stale: run python -m app.protocol"


def test_the_events_the_authority_builds_are_the_typed_events_every_viewer_receives():
    from app.games.authority import SYSTEM, GameAuthority
    from app.games.visibility import public, redacted
    from app.protocol import game_event_adapter

    auth = GameAuthority({"size": 9, "time_control": {"kind": "fischer", "main": 600, "increment": 5}}, 0.0)
    steps: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("B", {"t": "play", "p": [2, 2]}, {}),
        ("W", {"t": "play", "p": [6, 6]}, {}),
        ("W", {"t": "undo_request"}, {}),
        ("B", {"t": "undo_accept"}, {}),
        ("W", {"t": "play", "p": [6, 6]}, {}),
        (SYSTEM, {"t": "server_restart", "down_from": 5.0}, {}),
        ("B", {"t": "draw_offer"}, {}),
        ("W", {"t": "draw_decline"}, {}),
        ("B", {"t": "adjourn_offer"}, {}),
        ("W", {"t": "adjourn_accept"}, {}),
        ("B", {"t": "seal", "p": [3, 3]}, {}),
        ("W", {"t": "resume_offer"}, {}),
        ("B", {"t": "resume_accept"}, {}),
        ("W", {"t": "pass"}, {}),
        ("B", {"t": "pass"}, {"dead": []}),
        ("W", {"t": "toggle_dead", "p": [2, 2]}, {}),
        ("B", {"t": "accept_score"}, {}),
        ("W", {"t": "accept_score"}, {}),
        ("B", {"t": "rematch_offer"}, {"game_id": "g2"}),
        ("W", {"t": "rematch_accept"}, {"game_id": "g2"}),
    ]
    seen = set()
    v = 0
    for n, (actor, action, facts) in enumerate(steps):
        for event in auth.apply(actor, action, 10.0 + n, facts):
            v += 1
            seen.add(event["t"])
            for message in (public(event, v), redacted(event, v)):
                game_event_adapter.validate_python(message)
    assert seen >= {
        "move",
        "pass",
        "phase",
        "undo",
        "offer",
        "offer_declined",
        "sealed",
        "clock_restart",
        "dead_stones",
        "score_accepted",
        "game_over",
        "rematch",
    }


def test_the_frontend_tests_fixture_snapshot_is_a_snapshot_the_server_could_send():
    from app.protocol import Snapshot
    from tests.frontend.fixtures import SNAPSHOT

    Snapshot.model_validate(SNAPSHOT)


def test_the_objects_in_the_authoritys_game_are_exactly_the_typed_ones_through_a_whole_game():
    from app.games.authority import GameAuthority
    from app.protocol import GameView

    room = {"id": "g", "players": {}, "presence": {"B": True, "W": True}, "spectators": 0, "chat": [], "chat_more": False}
    room |= {"rated": False, "practice": False}
    byoyomi = {"kind": "byoyomi", "main": 5, "periods": 2, "period_time": 10}
    auth = GameAuthority({"size": 9, "time_control": byoyomi}, 0.0)
    steps: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("B", {"t": "play", "p": [1, 0]}, {}),
        ("W", {"t": "play", "p": [0, 0]}, {}),
        ("B", {"t": "play", "p": [0, 1]}, {}),  # takes a stone, the last in main time
        ("W", {"t": "draw_offer"}, {}),
        ("W", {"t": "pass"}, {}),
        ("B", {"t": "pass"}, {"dead": []}),
        ("W", {"t": "accept_score"}, {}),
        ("B", {"t": "accept_score"}, {}),
    ]
    phases = set()
    for n, (actor, action, facts) in enumerate(steps):
        auth.apply(actor, action, 3.0 * n, facts)
        for viewer in ("B", "W", None):
            game = GameView.model_validate({**auth.snapshot(viewer), **room})
            phases.add(game.phase)
    assert phases == {"playing", "scoring", "finished"}
    assert game.result is not None and game.result["score"] is not None and game.moves[2]["captured"] == [[0, 0]]


# ---- the lobby's and the review's server messages ---------------------------------------------------------


def test_a_versioned_event_is_its_body_then_its_version():
    from app.protocol import ReviewChatEvent, ReviewGotoEvent, at_version

    goto = ReviewGotoEvent(node=3, position={"board": ["."]})
    assert at_version(goto, 5) == b'{"t":"goto","node":3,"position":{"board":["."]},"v":5}'
    chat = ReviewChatEvent.model_validate({"from": {"id": 2, "name": "ann"}, "text": "hi", "at": 1.5})
    assert at_version(chat, 6) == b'{"t":"chat","from":{"id":2,"name":"ann"},"text":"hi","at":1.5,"v":6}'


def test_optional_lobby_fields_appear_only_when_they_hold_something():
    from app.protocol import ChallengeRemoved, GameStarted, LobbyError, Paired, to_users

    assert ChallengeRemoved(id="c1", reason="accepted").wire() == {"t": "challenge_removed", "id": "c1", "reason": "accepted"}
    declined = ChallengeRemoved(id="c1", reason="declined", decline_reason="busy")
    assert to_users(declined, [4, 5]) == {
        "t": "challenge_removed",
        "id": "c1",
        "reason": "declined",
        "decline_reason": "busy",
        "_to": [4, 5],
    }
    started = GameStarted(challenge_id="c1", game_id="g", url="/game/g", game={})
    assert list(started.wire()) == ["t", "challenge_id", "game_id", "url", "game"]
    assert Paired(game_id=None, url=None, game=None, seeks=["s"]).wire() == {
        "t": "paired",
        "game_id": None,
        "url": None,
        "game": None,
        "seeks": ["s"],
    }
    assert LobbyError(id=None, code="rate_limited", message="m").wire() == {
        "t": "error",
        "id": None,
        "code": "rate_limited",
        "message": "m",
    }


def test_the_schema_covers_the_lobby_and_the_review():
    from app.protocol import protocol_schema

    schema = protocol_schema()
    assert {"ChallengeCreated", "GameStarted", "Paired", "LobbySnapshot", "LobbyError"} <= set(schema["lobby"])
    events = schema["review_events"]["$defs"]
    assert {"ReviewGotoEvent", "ReviewPlayEvent", "ReviewMarkEvent", "ReviewControlEvent"} <= set(events)
    assert all("v" in event["required"] for event in events.values())


def _declared_messages(package: str = "app") -> set[type[BaseModel]]:
    """Every socket message the modules of ``package`` declare: a model whose ``t`` is one literal type, on a
    base of the transport's or the game's events (every ``app.*.messages`` module is imported first)."""
    import importlib
    import importlib.util
    import pkgutil
    from typing import Literal, get_origin

    import app
    from app.games.events import GameEventBody
    from app.transport.messages import ClientMessageBase, ServerMessage

    for info in pkgutil.iter_modules(app.__path__):
        if info.ispkg and importlib.util.find_spec(f"app.{info.name}.messages") is not None:
            importlib.import_module(f"app.{info.name}.messages")
    found: set[type[BaseModel]] = set()
    bases: list[type[BaseModel]] = [ClientMessageBase, ServerMessage, GameEventBody]
    while bases:
        model = bases.pop()
        bases.extend(model.__subclasses__())
        t = model.model_fields.get("t")
        if t is not None and get_origin(t.annotation) is Literal and model.__module__.startswith(package + "."):
            found.add(model)
    return found


def test_every_message_a_domain_declares_is_carried_by_a_socket_of_the_registry():
    from app.protocol import protocol_schema

    titles: set[str] = set()

    def collect(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("title"), str):
                titles.add(node["title"])
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(protocol_schema())
    declared = _declared_messages()
    assert len(declared) > 80  # the game's, the review's, the lobby's, automatch's, moderation's, the replies
    assert not {model.__name__ for model in declared} - titles, "declared beside a domain, carried by no socket"


def test_the_check_sees_a_message_no_socket_carries():
    from typing import Literal

    from app.transport.messages import ServerMessage

    class Stray(ServerMessage):
        t: Literal["stray"] = "stray"

    assert Stray in _declared_messages("tests")
