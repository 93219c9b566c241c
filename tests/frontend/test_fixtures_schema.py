"""The frontend's tests and code against the game socket's schema (docs/protocol.schema.json).

Every message the browser tests' fake room sends is one the server could send (valid, and no field the schema
does not declare). And every field the client reads from a game-socket message exists in the schema: the
functions that take a message (the snapshot, GAME, a versioned event, the socket's other messages) are read for
``name.field``, ``name?.field``, ``name["field"]`` and ``"field" in name``; inside ``case "<t>":`` of a switch on
the event's type, only that event's fields count. The objects inside messages (CLOCKS, SCORE, RESULT, GAME's
scoring, each of GAME's moves) are read the same way where the client reads them, against their own types in
the schema. A field the server never sends fails here with its place.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.frontend import fixtures
from tests.frontend.schema import UNVERSIONED, check_server_message, event_schemas, fields_of

JS = Path(__file__).resolve().parents[2] / "frontend" / "js"
EVENTS = tuple(event_schemas())
SOCKET = tuple(UNVERSIONED.values()) + EVENTS

# (file, class or None, function, the parameter or variable holding the message, the kinds it may be)
READERS = [
    ("gamestate.js", None, "fromSnapshot", "snap", ("Snapshot",)),
    ("gamestate.js", None, "fromSnapshot", "g", ("game",)),
    ("gamestate.js", None, "roleOf", "snapshot", ("Snapshot",)),
    ("gamestate.js", None, "applyEvent", "ev", EVENTS),
    ("gamestate.js", None, "applyOfferEvent", "ev", ("offer", "offer_declined", "undo")),
    ("gamestate.js", None, "setDeadline", "ev", EVENTS),
    ("gamestate.js", None, "setClocks", "ev", EVENTS),
    ("pages/game.js", "GameView", "onEvent", "msg", EVENTS),
    ("pages/game.js", "GameView", "onEphemeral", "msg", ("Presence", "ClockTick")),
    ("protocol.js", "GameSocket", "onMessage", "msg", SOCKET),
    # the objects inside messages: CLOCKS, SCORE, RESULT and GAME's scoring, read where the client reads them
    ("protocol.js", None, "normalizeClocks", "clocks", ("game.clocks",)),
    ("protocol.js", None, "normalizeClock", "c", ("game.clocks.B",)),
    ("gamestate.js", None, "fromSnapshot", "g.scoring", ("game.scoring",)),
    ("gamestate.js", None, "fromSnapshot", "m", ("game.moves",)),
    ("gamestate.js", None, "applyEvent", "ev.result", ("game_over.result",)),
    ("pages/common.js", None, "resultText", "result", ("game.result",)),
    ("pages/scoring.js", "ScoringPanel", "render", "s.score", ("game.scoring.score",)),
    ("pages/scoring.js", "ScoringPanel", "render", "s.score.B", ("game.scoring.score.B",)),
    ("pages/game.js", "GameView", "render", "s.score", ("game.scoring.score",)),
    ("pages/game.js", "GameView", "renderResult", "s.result", ("game.result",)),
]

_CASE = re.compile(r'case\s+"(\w+)"\s*:|default\s*:')


def body_of(source: str, name: str, within: str | None = None) -> str:
    """The body of function or method ``name`` (in class ``within``), by matching braces."""
    start = 0
    if within is not None:
        cls = re.search(rf"\bclass\s+{within}\b", source)
        assert cls, f"no class {within}"
        start = cls.start()
    found = re.compile(rf"^\s*(?:export\s+)?(?:function\s+)?{name}\s*\((?:[^()]|\([^()]*\))*\)\s*\{{", re.M).search(source, start)
    assert found, f"no function {name}"
    depth, i = 1, found.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(source[i], 0)
        i += 1
    return source[found.end() : i - 1]


def reads(code: str, var: str) -> set[str]:
    """The fields of ``var`` that ``code`` reads (method calls on it, such as ``ev.captured.map``, count once)."""
    v = re.escape(var)
    out = set(re.findall(rf"(?<![\w.\"'`]){v}\??\.([A-Za-z_]\w*)", code))  # not a string's "result.draw"
    out |= set(re.findall(rf'(?<![\w.]){v}\[\s*"(\w+)"\s*\]', code))
    out |= set(re.findall(rf'"(\w+)"\s+in\s+{v}\b', code))
    return out


def sections(body: str, kinds: tuple[str, ...]) -> list[tuple[tuple[str, ...], str]]:
    """``body`` cut at its ``case "<t>":`` labels: (the kinds each part may see, the part). Labels with nothing
    but comments between them share the part after the last; ``default:`` and the code before the first label see
    every kind."""
    parts: list[tuple[tuple[str, ...], str]] = []
    pending: list[str] = []
    last_end, current = 0, kinds
    for label in _CASE.finditer(body):
        text = body[last_end : label.start()]
        if re.sub(r"//[^\n]*|\s", "", text) or not pending:
            parts.append((current, text))
            pending = []
        pending.append(label.group(1) or "")
        current = kinds if "" in pending else tuple(k for k in pending if k in kinds) or kinds
        last_end = label.end()
    parts.append((current, body[last_end:]))
    return parts


def unknown_reads(code: str, var: str, kinds: tuple[str, ...]) -> list[str]:
    """Each field read from ``var`` that no kind it may be at that place declares, as ``field (kinds)``."""
    out = []
    for seen, part in sections(code, kinds):
        declared = set().union(*(fields_of(kind) for kind in seen))
        out += [f"{field} ({', '.join(seen) if len(seen) < 4 else 'any event'})" for field in sorted(reads(part, var) - declared)]
    return out


@pytest.mark.parametrize(
    "message", fixtures.game_socket_messages(), ids=lambda m: m["t"] + "-" + m.get("you", {}).get("role", "")
)
def test_every_message_the_fake_room_sends_is_one_the_server_could_send(message):
    check_server_message(message)


@pytest.mark.parametrize(("path", "within", "name", "var", "kinds"), READERS, ids=lambda x: x if isinstance(x, str) else "")
def test_the_client_reads_only_fields_the_schema_declares(path, within, name, var, kinds):
    code = body_of((JS / path).read_text(), name, within)
    assert reads(code, var), f"{path} {name} reads nothing from {var}: the table is out of date"
    assert unknown_reads(code, var, kinds) == [], f"{path} {name}: {var} read for fields the server never sends"


def test_the_check_finds_a_field_the_server_never_sends_and_a_field_of_another_event():
    code = """
      state.v = ev.v;
      switch (ev.t) {
        case "move": {
          state.legal = ev.legal;  // never sent
          state.ko = ev.ko;
          return "ok";
        }
        case "pass":
          // a comment between labels: the part after them is both kinds'
        case "chat":
          state.ko = ev.ko;  // a move's field, neither a pass's nor a chat line's
          if ("from" in ev) state.chat.push(ev["text"]);
          return "ok";
        default:
          return ev.game_id;
      }
    """
    assert unknown_reads(code, "ev", EVENTS) == ["legal (move)", "ko (pass, chat)"]
    assert reads(code, "ev") >= {"v", "t", "legal", "ko", "from", "text", "game_id"}
    # inside the objects a message carries: a field their type does not declare
    inner = "state.dead = g.scoring.dead; state.at = g.scoring?.deadline_at; left = c.stones_left ?? c.stones;"
    assert unknown_reads(inner, "g.scoring", ("game.scoring",)) == ["deadline_at (game.scoring)"]
    assert unknown_reads(inner, "c", ("game.clocks.B",)) == ["stones_left (game.clocks.B)"]
    assert unknown_reads("ev.result.score.B.total + ev.result.points", "ev.result", ("game_over.result",)) == [
        "points (game_over.result)"
    ]
    bad_snapshot = fixtures.snapshot_for("black", 3)
    bad_snapshot["game"]["initial_board"] = bad_snapshot["game"]["board"]
    with pytest.raises(AssertionError, match="game.initial_board"):
        check_server_message(bad_snapshot)
