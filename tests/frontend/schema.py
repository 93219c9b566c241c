"""The game socket's JSON Schema (docs/protocol.schema.json, generated from app/protocol.py) as the frontend's
tests use it: to check the messages their fake server sends, and the fields the client reads."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"

# the server's unversioned messages on a game socket, by ``t``: the model that defines each in the schema
UNVERSIONED = {
    "ack": "Ack",
    "error": "ErrorMessage",
    "pong": "PongReply",
    "ping": "ServerPing",
    "presence": "Presence",
    "clock": "ClockTick",
    "snapshot": "Snapshot",
}


@cache
def schema() -> dict[str, Any]:
    return dict(json.loads(SCHEMA_PATH.read_text()))


def event_schemas() -> dict[str, dict[str, Any]]:
    """Each versioned event's schema, by ``t``."""
    events = schema()["events"]
    return {t: events["$defs"][ref.rsplit("/", 1)[1]] for t, ref in events["discriminator"]["mapping"].items()}


def game_schema() -> dict[str, Any]:
    """GAME, the snapshot's ``game``."""
    return dict(schema()["server"]["Snapshot"]["$defs"]["GameView"])


def _object(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The object schema ``node`` names: through a ``$ref``, an array's items, or the object of a nullable one."""
    if "$ref" in node:
        return _object(defs[node["$ref"].rsplit("/", 1)[1]], defs)
    if node.get("type") == "array":
        return _object(node["items"], defs)
    if "anyOf" in node:
        objects = [_object(n, defs) for n in node["anyOf"] if n.get("type") != "null"]
        assert len(objects) == 1, f"not one object: {node}"
        return objects[0]
    assert "properties" in node, f"not an object with declared fields: {node}"
    return node


def fields_of(kind: str) -> set[str]:
    """The fields the schema declares for a message kind: an event's ``t``, ``"game"`` (GAME), or one of the
    server's unversioned messages by model name (``"Snapshot"``, ``"Presence"``, ...); followed by a path of
    fields, the fields of the object inside it (``"game.scoring.score"``, ``"game_over.result"``, ``"game.moves"``
    for one of GAME's moves). A field whose object declares no fields fails here."""
    head, *path = kind.split(".")
    if head == "game":
        node, defs = game_schema(), schema()["server"]["Snapshot"]["$defs"]
    elif head in schema()["server"]:
        node = schema()["server"][head]
        defs = node.get("$defs", {})
    else:
        node, defs = event_schemas()[head], schema()["events"]["$defs"]
    for field in path:
        node = _object(node["properties"][field], defs)
    return set(node["properties"])


def check_server_message(message: dict[str, Any]) -> None:
    """Raise (jsonschema's ValidationError, or AssertionError) unless ``message`` is one the server could send on
    a game socket: valid against its model's schema, and with no field the schema does not declare (the models
    allow extra fields, so validation alone would let a field the server never sends through)."""
    t = message.get("t")
    if t in UNVERSIONED:
        name = UNVERSIONED[t]
        Draft202012Validator(schema()["server"][name]).validate(message)
        undeclared = set(message) - fields_of(name)
        if name == "Snapshot":
            undeclared |= {f"game.{key}" for key in set(message["game"]) - fields_of("game")}
    else:
        Draft202012Validator(schema()["events"]).validate(message)
        undeclared = set(message) - fields_of(str(t))
    assert not undeclared, f"{t}: fields the server never sends: {sorted(undeclared)}"
