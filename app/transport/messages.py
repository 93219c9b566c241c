"""What every socket's messages share, whatever their domain: the bases of a client and a server message, the
fields several sockets carry (a client id, a point, a chat line), the replies every socket sends (``ack``,
``error``, ``pong``, the server's ``ping``), the snapshot and versioned-event bases, the text caps of a frame,
and reading one client frame (``parse``) or writing a server message (``encode``).

Each domain declares its own messages on these bases beside it (its package's ``messages.py``);
``app/protocol.py`` is the one registry that assembles them per socket. This
module imports no domain.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from app.field_limits import AtMost, refusal

MAX_CHAT_CHARS = 500  # one chat line, on any socket that chats (chat_too_long beyond)
CLIENT_ID_CHARS = 64

# ---- frame caps: derived from the longest text each socket's messages carry, never set apart from it
# A character a limit counts takes at most 12 bytes in a frame: one beyond the Basic Multilingual Plane is 4
# bytes of UTF-8, and a JSON encoder may write it as an escaped surrogate pair ("\ud83d\ude00", as json.dumps
# does by default). A message is its text at that worst plus the rest (ENVELOPE_BYTES: its type, an id of 64
# characters escaped alike, field names, separators), so the longest text a limit allows is accepted in any
# script and written by any encoder, and is refused for its length with the limit's own code, never too_large.
BYTES_PER_CHAR = 12
ENVELOPE_BYTES = 2048


def frame_bytes(chars: int) -> int:
    """The largest frame a message carrying ``chars`` characters of text can need."""
    return chars * BYTES_PER_CHAR + ENVELOPE_BYTES


ClientId = Annotated[str, Field(min_length=1, max_length=CLIENT_ID_CHARS)]
ChatText = Annotated[
    str, Field(min_length=1), AtMost(MAX_CHAT_CHARS, "chat_too_long", f"a chat line holds at most {MAX_CHAT_CHARS} characters")
]
# Any whole number: a point off the board is the domain's to refuse (illegal_move, reason off_board), the same
# answer wherever it lies (a frame is at most its socket's cap, and JSON numbers past 64 bits are bad_json).
Coordinate = StrictInt
Point = tuple[Coordinate, Coordinate]

# The texts of the refusals a flood repeats (a room builds their frames once).
RATE_LIMITED_MESSAGE = "too many messages; this one was ignored"
CHAT_RATE_LIMITED_MESSAGE = "you are chatting too fast; wait a few seconds"


class ProtocolError(Exception):
    """A client message that cannot be understood. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str, client_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.client_id = client_id


class ClientMessageBase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: ClientId


class Ping(ClientMessageBase):
    t: Literal["ping"]


class Pong(ClientMessageBase):
    """The answer to the server's ``ping``; the round trip is the lag the clock credits."""

    t: Literal["pong"]


# ---- reading a client frame ----------------------------------------------------------------------------


def client_id_of(raw: str | bytes) -> str | None:
    """The ``id`` of a frame that is refused before it is parsed (over the rate, too large), when it can be read.

    The server's own frame cap (``app/server.py``) bounds what is read here.
    """
    return peek(raw)[1]


def peek(raw: str | bytes) -> tuple[str | None, str | None]:
    """A frame's type ``t`` and its ``id`` (a valid client id, else None), read without validating the rest:
    enough to refuse, before the full parse, a message the socket alone refuses whatever its fields say."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None, None
    if not isinstance(data, dict):
        return None, None
    kind, client_id = data.get("t"), data.get("id")
    return (
        kind if isinstance(kind, str) else None,
        client_id if isinstance(client_id, str) and 0 < len(client_id) <= CLIENT_ID_CHARS else None,
    )


def parse(raw: str | bytes, adapter: TypeAdapter[Any], types: frozenset[str], max_bytes: int) -> Any:
    """One client frame of a socket whose messages are ``adapter``'s (their types ``types``, its frame cap
    ``max_bytes``) as its typed model, or ``ProtocolError`` with a stable code."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise ProtocolError("too_large", f"messages are limited to {max_bytes} bytes, got {size}", client_id_of(raw))
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ProtocolError("bad_json", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("invalid_message", "a message must be a JSON object")
    client_id = data.get("id") if isinstance(data.get("id"), str) else None
    kind = data.get("t")
    if not isinstance(kind, str):
        raise ProtocolError("invalid_message", 'the message has no type field "t"', client_id)
    if kind not in types:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}", client_id)
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        # A well-formed message with a value past a documented limit gets the limit's own code (app/field_limits.py).
        limit = refusal(exc.errors())
        first = exc.errors()[0] if limit is None else limit
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        code = "invalid_message" if limit is None else limit["type"]
        raise ProtocolError(code, f"{where}: {first['msg']}", client_id) from None


# ---- server -> client -------------------------------------------------------------------------------


class ServerMessage(BaseModel):
    """A message the server sends. Every field is on the wire (``null`` included), in the order declared, but
    those a model names in ``_omitted_when_none``: they appear only when they hold something (``wire``)."""

    model_config = ConfigDict(extra="forbid")
    _omitted_when_none: ClassVar[tuple[str, ...]] = ()

    def wire(self) -> dict[str, Any]:
        """The message as the JSON object the client receives."""
        out = self.model_dump(by_alias=True)
        for name in self._omitted_when_none:
            if out.get(name) is None:
                del out[name]
        return out


class Reply(ServerMessage):
    """A message that names one message by its ``id``: the client's it answers, or (the server's ping) its own.
    ``t`` is declared here so that it stays the first field of every reply on the wire."""

    t: str
    id: str


class _Timed(Reply):
    """A ping or its answer, with the sender's clock (docs/clocks.md)."""

    server_time: float


class Ack(Reply):
    t: Literal["ack"] = "ack"
    v: int | None = None


class LobbyError(ServerMessage):
    """A refusal on the lobby socket (docs/protocol.md §7)."""

    t: Literal["error"] = "error"
    id: str | None = None
    code: str
    message: str


class ErrorMessage(LobbyError):
    """A refusal on a game or review socket: the lobby's, with the refusal's ``reason`` (docs/protocol.md §4.2)."""

    reason: str | None = None


class PongReply(_Timed):
    t: Literal["pong"] = "pong"


class ServerPing(_Timed):
    t: Literal["ping"] = "ping"


class RoomSnapshot(ServerMessage):
    """A whole room at version ``v`` as one viewer (``you``) sees it; ``resync`` when it replaces events the
    socket could not be caught up with. ``t`` is declared here so that it stays the first field on the wire;
    each room's snapshot says it is ``"snapshot"``."""

    t: str
    v: int
    resync: bool = False
    you: dict[str, Any]


def version_required(schema: dict[str, Any]) -> None:
    """On the wire every event has its version, an integer (only the event not yet committed has none): the
    events a domain types itself and every ``Versioned`` event say so the same way."""
    schema["properties"]["v"] = {"title": "V", "type": "integer"}
    schema.setdefault("required", []).append("v")


class Versioned(ServerMessage):
    """The body of a versioned event: built before its commit gives it a version, sent with ``v`` added last
    (``at_version``), as the schema says."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=version_required)


def at_version(body: Versioned, v: int) -> bytes:
    """A versioned event's text: its body, then ``v``; serialised once for every recipient."""
    out = body.wire()
    out["v"] = v
    return orjson.dumps(out)


def to_users(message: ServerMessage, user_ids: list[int]) -> dict[str, Any]:
    """A message for the sockets of these users only (the broadcaster that delivers it takes ``_to`` off)."""
    return {**message.wire(), "_to": user_ids}


def encode(message: BaseModel | dict[str, Any]) -> bytes:
    """Serialise a server message once; the same bytes go to every recipient."""
    if isinstance(message, ServerMessage):
        return orjson.dumps(message.wire())
    if isinstance(message, BaseModel):
        return orjson.dumps(message.model_dump(by_alias=True))
    return orjson.dumps(message)


def error_bytes(code: str, message: str, client_id: str | None = None, reason: str | None = None) -> bytes:
    return encode(ErrorMessage(id=client_id, code=code, message=message, reason=reason))
