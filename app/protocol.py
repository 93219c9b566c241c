"""Every WebSocket message, typed at the edge.

Client messages are parsed here and nowhere else: ``parse_client_message`` turns raw text into one of the
typed models below or raises ``ProtocolError`` with a stable code. Server messages are built from the typed
models and serialised once with orjson (``encode``), so every recipient gets the same text.
See docs/protocol.md for the meaning of each message.

One module over 400 lines: every message in both directions is defined once, in one place, so that the
sockets, the schema and the documentation read the same definitions.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Union, get_args

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from app.automatch.preferences import SeekPreferences
from app.field_limits import AtMost, refusal
from app.games.conditional import MAX_NODES as CONDITIONAL_BRANCHES
from app.games.shapes import ClocksView, GameMove, OffersView, ResultView, ScoringView, WirePoint
from app.reviews.limits import COMMENT_CHARS
from app.study.tree import LIMITS, Limits

# The game's versioned events are the game layer's own (app/games/events.py): the protocol names them here.
from app.games.events import (
    GAME_EVENT_MODELS as GAME_EVENT_MODELS,
    ChatEvent as ChatEvent,
    ChatRemovedEvent as ChatRemovedEvent,
    ClockRestartEvent as ClockRestartEvent,
    Clocks as Clocks,
    ConditionalEvent as ConditionalEvent,
    DeadStonesEvent as DeadStonesEvent,
    GameEventBody as GameEventBody,
    GameEventMessage as GameEventMessage,
    GameOverEvent as GameOverEvent,
    HiddenEvent as HiddenEvent,
    MoveEvent as MoveEvent,
    OfferDeclinedEvent as OfferDeclinedEvent,
    OfferEvent as OfferEvent,
    PassEvent as PassEvent,
    PeriodUsedEvent as PeriodUsedEvent,
    PhaseEvent as PhaseEvent,
    RematchEvent as RematchEvent,
    ScoreAcceptedEvent as ScoreAcceptedEvent,
    SealedEvent as SealedEvent,
    UndoEvent as UndoEvent,
    VacationEvent as VacationEvent,
    game_event_adapter as game_event_adapter,
    version_required,
)

MAX_CHAT_CHARS = 500  # one chat line, on a game or a review socket (chat_too_long beyond)
CLIENT_ID_CHARS = 64

# ---- frame caps: derived from the longest text each socket's messages carry, never set apart from it
# A character a limit counts takes at most 12 bytes in a frame: one beyond the Basic Multilingual Plane is 4
# bytes of UTF-8, and a JSON encoder may write it as an escaped surrogate pair ("\ud83d\ude00", as json.dumps
# does by default). A message is its text at that worst plus the rest (ENVELOPE_BYTES: its type, an id of 64
# characters escaped alike, field names, separators), so the longest text a limit allows is accepted in any
# script and written by any encoder, and is refused for its length with the limit's own code, never too_large.
BYTES_PER_CHAR = 12
ENVELOPE_BYTES = 2048
# One conditional-move branch, "[[18, 18], [18, 18], []], " written with a space after each comma (26), rounded up.
CONDITIONAL_BRANCH_BYTES = 32


def frame_bytes(chars: int) -> int:
    """The largest frame a message carrying ``chars`` characters of text can need."""
    return chars * BYTES_PER_CHAR + ENVELOPE_BYTES


GAME_FRAME_BYTES = max(frame_bytes(MAX_CHAT_CHARS), CONDITIONAL_BRANCHES * CONDITIONAL_BRANCH_BYTES + ENVELOPE_BYTES)
REVIEW_FRAME_BYTES = frame_bytes(max(COMMENT_CHARS, MAX_CHAT_CHARS))
LOBBY_FRAME_BYTES = 4096  # a seek and its preferences: no free text
# The server's own cap on a WebSocket message (uvicorn's ws_max_size, app/server.py) is never below this.
MAX_FRAME_BYTES = max(GAME_FRAME_BYTES, REVIEW_FRAME_BYTES, LOBBY_FRAME_BYTES)

ClientId = Annotated[str, Field(min_length=1, max_length=CLIENT_ID_CHARS)]
ChatText = Annotated[
    str, Field(min_length=1), AtMost(MAX_CHAT_CHARS, "chat_too_long", f"a chat line holds at most {MAX_CHAT_CHARS} characters")
]
# Any whole number: a point off the board is the game's to refuse (illegal_move, reason off_board), the same
# answer wherever it lies (a frame is at most its socket's cap, and JSON numbers past 64 bits are bad_json).
Coordinate = StrictInt
Point = tuple[Coordinate, Coordinate]


class ProtocolError(Exception):
    """A client message that cannot be understood. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str, client_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.client_id = client_id


class _ClientMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: ClientId


class Play(_ClientMessage):
    t: Literal["play"]
    p: Point


class Pass(_ClientMessage):
    t: Literal["pass"]


class Resign(_ClientMessage):
    t: Literal["resign"]


class Chat(_ClientMessage):
    t: Literal["chat"]
    channel: Literal["players", "spectators"] = "players"
    text: ChatText


class Ping(_ClientMessage):
    t: Literal["ping"]


class Abort(_ClientMessage):
    t: Literal["abort"]


class UndoRequest(_ClientMessage):
    t: Literal["undo_request"]


class UndoAccept(_ClientMessage):
    t: Literal["undo_accept"]


class UndoDecline(_ClientMessage):
    t: Literal["undo_decline"]


class DrawOffer(_ClientMessage):
    t: Literal["draw_offer"]


class DrawAccept(_ClientMessage):
    t: Literal["draw_accept"]


class DrawDecline(_ClientMessage):
    t: Literal["draw_decline"]


class ToggleDead(_ClientMessage):
    t: Literal["toggle_dead"]
    p: Point


class AcceptScore(_ClientMessage):
    t: Literal["accept_score"]


class ResumePlay(_ClientMessage):
    t: Literal["resume_play"]


class AdjournOffer(_ClientMessage):
    t: Literal["adjourn_offer"]


class AdjournAccept(_ClientMessage):
    t: Literal["adjourn_accept"]


class AdjournDecline(_ClientMessage):
    t: Literal["adjourn_decline"]


class Seal(_ClientMessage):
    t: Literal["seal"]
    p: Point | None = None


class ResumeOffer(_ClientMessage):
    t: Literal["resume_offer"]


class ResumeAccept(_ClientMessage):
    t: Literal["resume_accept"]


class ResumeDecline(_ClientMessage):
    t: Literal["resume_decline"]


class ClaimVictory(_ClientMessage):
    t: Literal["claim_victory"]


class RematchOffer(_ClientMessage):
    t: Literal["rematch_offer"]


class RematchAccept(_ClientMessage):
    t: Literal["rematch_accept"]


class RematchDecline(_ClientMessage):
    t: Literal["rematch_decline"]


class Conditional(_ClientMessage):
    """Conditional moves for this game (app/games/conditional.py checks the tree; ``[]`` clears it)."""

    t: Literal["conditional"]
    tree: list[Any]


class Pong(_ClientMessage):
    """The answer to the server's ``ping``; the round trip is the lag the clock credits."""

    t: Literal["pong"]


_CLIENT_MODELS = (
    Play,
    Pass,
    Resign,
    Chat,
    Ping,
    Abort,
    UndoRequest,
    UndoAccept,
    UndoDecline,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    ToggleDead,
    AcceptScore,
    ResumePlay,
    AdjournOffer,
    AdjournAccept,
    AdjournDecline,
    Seal,
    ResumeOffer,
    ResumeAccept,
    ResumeDecline,
    ClaimVictory,
    RematchOffer,
    RematchAccept,
    RematchDecline,
    Pong,
    Conditional,
)
ClientMessage = Annotated[Union[_CLIENT_MODELS], Field(discriminator="t")]  # type: ignore[valid-type]  # a Union of a tuple of models made at run time
CLIENT_TYPES = frozenset(get_args(model.model_fields["t"].annotation)[0] for model in _CLIENT_MODELS)
# The game socket's messages that act in the game, which only its two players may send.
PLAYER_ACTION_TYPES = CLIENT_TYPES - {"chat", "ping", "pong"}
# The texts of the refusals a flood repeats (app/live/outcome.py builds their frames once).
RATE_LIMITED_MESSAGE = "too many messages; this one was ignored"
NOT_A_PLAYER_MESSAGE = "only the two players of this game can do that"
CHAT_RATE_LIMITED_MESSAGE = "you are chatting too fast; wait a few seconds"

_client_adapter: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def parse_client_message(raw: str | bytes) -> Any:
    """Parse one game-socket client frame into its typed model, or raise ``ProtocolError``."""
    return _parse(raw, _client_adapter, CLIENT_TYPES, GAME_FRAME_BYTES)


def client_frame(fields: dict[str, Any]) -> str:
    """A game-socket client frame built from its typed model (the house bots speak the protocol as any client
    does); a field the model does not declare raises ``pydantic.ValidationError``."""
    return str(_client_adapter.validate_python(fields).model_dump_json(exclude_none=True))


# ---- lobby socket, client -> server ------------------------------------------------------------------


class LobbyPing(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    t: Literal["ping"]
    id: ClientId | None = None


class Seek(SeekPreferences):
    """Play now: look for an opponent with these preferences (replaces the sender's earlier seek)."""

    t: Literal["seek"]
    id: ClientId


class SeekCancel(_ClientMessage):
    t: Literal["seek_cancel"]


_LOBBY_MODELS = (LobbyPing, Seek, SeekCancel)
LobbyMessage = Annotated[Union[_LOBBY_MODELS], Field(discriminator="t")]  # type: ignore[valid-type]  # a Union of a tuple of models made at run time
LOBBY_TYPES = frozenset(get_args(model.model_fields["t"].annotation)[0] for model in _LOBBY_MODELS)

_lobby_adapter: TypeAdapter[Any] = TypeAdapter(LobbyMessage)


def parse_lobby_message(raw: str | bytes) -> Any:
    """Parse one lobby-socket client frame into its typed model, or raise ``ProtocolError``."""
    return _parse(raw, _lobby_adapter, LOBBY_TYPES, LOBBY_FRAME_BYTES)


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


def _parse(raw: str | bytes, adapter: TypeAdapter[Any], types: frozenset[str], max_bytes: int) -> Any:
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


# ---- review socket, client -> server (docs/protocol.md §9) ------------------------------------------

NodeId = Annotated[StrictInt, Field(ge=0)]  # a node's id in the tree (app/study/tree.py)
MarkKind = Literal["triangle", "square", "circle", "label", "clear"]


class ReviewGoto(_ClientMessage):
    """The leader moves to another node of the tree."""

    t: Literal["goto"]
    node: NodeId


class ReviewPlay(_ClientMessage):
    """The leader plays a move (``p``) or a pass (``p`` null) after the current node: a new branch, or the
    existing child with that move."""

    t: Literal["play"]
    p: Point | None = None


class ReviewComment(_ClientMessage):
    """The leader sets the comment of the current node (empty: no comment)."""

    t: Literal["comment"]
    text: Annotated[str, AtMost(COMMENT_CHARS, *Limits(comment=COMMENT_CHARS).refusal("comment"))]


class ReviewMark(_ClientMessage):
    """The leader marks a point of the current node (``label``: one to four characters), or clears it."""

    t: Literal["mark"]
    p: Point
    kind: MarkKind
    label: Annotated[str, AtMost(LIMITS.label, *LIMITS.refusal("label"), at_least=1)] | None = None


class ReviewRemoveBranch(_ClientMessage):
    """The leader removes a node and everything after it (never the root)."""

    t: Literal["remove_branch"]
    node: NodeId


class HandControl(_ClientMessage):
    """The owner (or the one leading) hands control to someone in the room, by user id."""

    t: Literal["hand_control"]
    to: StrictInt


class TakeControl(_ClientMessage):
    """The owner takes control back."""

    t: Literal["take_control"]


class ReviewChat(_ClientMessage):
    t: Literal["chat"]
    text: ChatText


_REVIEW_MODELS = (
    ReviewGoto,
    ReviewPlay,
    ReviewComment,
    ReviewMark,
    ReviewRemoveBranch,
    HandControl,
    TakeControl,
    ReviewChat,
    Ping,
    Pong,
)
ReviewMessage = Annotated[Union[_REVIEW_MODELS], Field(discriminator="t")]  # type: ignore[valid-type]  # a Union of a tuple of models made at run time
REVIEW_TYPES = frozenset(get_args(model.model_fields["t"].annotation)[0] for model in _REVIEW_MODELS)
# What only the one leading may do (the rest: control, chat, pings).
REVIEW_EDITS = frozenset({"goto", "play", "comment", "mark", "remove_branch"})

_review_adapter: TypeAdapter[Any] = TypeAdapter(ReviewMessage)


def parse_review_message(raw: str | bytes) -> Any:
    """Parse one review-socket client frame into its typed model, or raise ``ProtocolError``."""
    return _parse(raw, _review_adapter, REVIEW_TYPES, REVIEW_FRAME_BYTES)


# ---- server -> client -------------------------------------------------------------------------------


class _ServerMessage(BaseModel):
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


class _Reply(_ServerMessage):
    """A message that names one message by its ``id``: the client's it answers, or (the server's ping) its own.
    ``t`` is declared here so that it stays the first field of every reply on the wire."""

    t: str
    id: str


class _Timed(_Reply):
    """A ping or its answer, with the sender's clock (docs/clocks.md)."""

    server_time: float


class Ack(_Reply):
    t: Literal["ack"] = "ack"
    v: int | None = None


class LobbyError(_ServerMessage):
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


class Presence(_ServerMessage):
    t: Literal["presence"] = "presence"
    players: dict[str, bool]
    spectators: int


class ClockTick(_ServerMessage):
    t: Literal["clock"] = "clock"
    clocks: ClocksView | None
    server_time: float


class GameView(BaseModel):
    """GAME: the whole game as a snapshot shows it to one viewer (docs/protocol.md §3); the authority's part
    (``GameAuthority.snapshot``) and the room's (id, players, presence, chat, ...)."""

    model_config = ConfigDict(extra="allow")
    id: str
    size: int
    rules: dict[str, Any]
    handicap: int
    handicap_points: list[list[int]]  # where the server put the handicap stones: clients never place them
    board: list[str]
    moves: list[GameMove]  # each with the points it captured, so a client replays the history without rules
    move_number: int
    prisoners: dict[str, int]
    to_move: Literal["B", "W"]
    ko: list[int] | None
    illegal: list[list[int]]  # the empty points where the side to move may not play (suicide, ko, superko)
    phase: Literal["playing", "scoring", "adjourned", "finished"]
    offers: OffersView
    scoring: ScoringView | None
    sealed: dict[str, Any] | None
    clocks: ClocksView | None
    time_control: dict[str, Any]
    result: ResultView | None
    rematch: str | None
    deadline: float | None
    server_time: float
    players: dict[str, Any]
    presence: dict[str, bool]
    spectators: int
    chat: list[dict[str, Any]]
    chat_more: bool
    rated: bool
    practice: bool
    conditional: Any = None


class _RoomSnapshot(_ServerMessage):
    """A whole room at version ``v`` as one viewer (``you``) sees it; ``resync`` when it replaces events the
    socket could not be caught up with."""

    t: Literal["snapshot"] = "snapshot"
    v: int
    resync: bool = False
    you: dict[str, Any]


class Snapshot(_RoomSnapshot):
    game: GameView


class ReviewSnapshot(_RoomSnapshot):
    """The whole review at version ``v`` (docs/protocol.md §9.2)."""

    review: dict[str, Any]
    participants: list[dict[str, Any]]
    anonymous: int


class Participants(_ServerMessage):
    """Who is in a review room, across instances (ephemeral: no ``v``)."""

    t: Literal["participants"] = "participants"
    participants: list[dict[str, Any]]
    anonymous: int


class Versioned(_ServerMessage):
    """The body of a versioned event: built before its commit gives it a version, sent with ``v`` added last
    (``at_version``), as the schema says."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=version_required)


def at_version(body: Versioned, v: int) -> bytes:
    """A versioned event's text: its body, then ``v``; serialised once for every recipient."""
    out = body.wire()
    out["v"] = v
    return orjson.dumps(out)


# ---- review socket events, server -> client (docs/protocol.md §9.2) ---------------------------------------


class _AtNode(Versioned):
    """An event about one node of the review's tree, by its id. ``t`` is declared here so that it stays the
    first field on the wire."""

    t: str
    node: int


class ReviewGotoEvent(_AtNode):
    t: Literal["goto"] = "goto"
    position: dict[str, Any]


class ReviewPlayEvent(Versioned):
    t: Literal["play"] = "play"
    node: dict[str, Any]  # {id, parent, move: {color, point}}
    added: bool
    position: dict[str, Any]


class ReviewCommentEvent(_AtNode):
    t: Literal["comment"] = "comment"
    text: str


class ReviewMarkEvent(_AtNode):
    t: Literal["mark"] = "mark"
    p: WirePoint
    kind: str | None  # triangle, square, circle or label; None: the mark was cleared
    label: str | None


class ReviewRemoveBranchEvent(_AtNode):
    t: Literal["remove_branch"] = "remove_branch"
    current: int
    position: dict[str, Any]


class ReviewChatEvent(Versioned):
    t: Literal["chat"] = "chat"
    from_: dict[str, Any] = Field(alias="from")  # {id, name}
    text: str
    at: float


class ReviewControlEvent(Versioned):
    t: Literal["control"] = "control"
    controller: dict[str, Any]  # {id, name}
    by: dict[str, Any]


REVIEW_EVENT_MODELS = (
    ReviewGotoEvent,
    ReviewPlayEvent,
    ReviewCommentEvent,
    ReviewMarkEvent,
    ReviewRemoveBranchEvent,
    ReviewChatEvent,
    ReviewControlEvent,
)
ReviewEvent = Annotated[Union[REVIEW_EVENT_MODELS], Field(discriminator="t")]  # type: ignore[valid-type]  # a Union of a tuple of models made at run time


# ---- lobby socket, server -> client (docs/protocol.md §7) -------------------------------------------------
# Lobby messages travel between instances as the objects ``wire`` makes (app/live/lobby.py); a private one
# carries ``_to`` beside them, which no client sees.


class LobbySnapshot(_ServerMessage):
    t: Literal["snapshot"] = "snapshot"
    challenges: list[dict[str, Any]]
    incoming: list[dict[str, Any]]
    games: list[dict[str, Any]]
    seek: dict[str, Any] | None
    my_games: list[dict[str, Any]]
    sanction: dict[str, Any] | None = None  # the user's suspension or ban in force: account_sanctioned's fields


class LobbyPong(_ServerMessage):
    t: Literal["pong"] = "pong"
    id: str | None


class SeekAck(_Reply):
    t: Literal["ack"] = "ack"
    seek_id: str


class SeekCancelAck(_Reply):
    t: Literal["ack"] = "ack"
    cancelled: bool


class LobbyResync(_ServerMessage):
    """This socket fell behind and lost messages: reload the lobby."""

    t: Literal["resync"] = "resync"


class ChallengeCreated(_ServerMessage):
    t: Literal["challenge_created"] = "challenge_created"
    challenge: dict[str, Any]


class ChallengeRemoved(_ServerMessage):
    _omitted_when_none = ("decline_reason",)
    t: Literal["challenge_removed"] = "challenge_removed"
    id: str
    reason: str
    decline_reason: str | None = None


class GameStarted(_ServerMessage):
    _omitted_when_none = ("challenge_id", "rematch_of", "automatch")
    t: Literal["game_started"] = "game_started"
    challenge_id: str | None = None
    rematch_of: str | None = None
    automatch: bool | None = None
    game_id: str
    url: str
    game: dict[str, Any]


class GameFinished(_ServerMessage):
    t: Literal["game_finished"] = "game_finished"
    game_id: str
    result: str | None


class MyGame(_ServerMessage):
    """One of the player's own games changed (to both players only)."""

    t: Literal["my_game"] = "my_game"
    game: dict[str, Any]


class Seeking(_ServerMessage):
    t: Literal["seeking"] = "seeking"
    seek: dict[str, Any]


class SeekCancelled(_ServerMessage):
    t: Literal["seek_cancelled"] = "seek_cancelled"
    reason: Literal["cancelled", "unavailable"]


class Paired(_ServerMessage):
    _omitted_when_none = ("speed", "nigiri", "seeks")
    t: Literal["paired"] = "paired"
    game_id: str | None
    url: str | None
    game: dict[str, Any] | None
    speed: str | None = None
    nigiri: bool | None = None
    seeks: list[str] | None = None


class BotOffer(_ServerMessage):
    t: Literal["bot_offer"] = "bot_offer"
    seeks: list[str]
    bot: dict[str, Any]  # {id, name, rank}
    challenge: dict[str, Any]


class ModeratorWarning(_ServerMessage):
    t: Literal["moderator_warning"] = "moderator_warning"
    reason: str


class AccountSanctioned(_ServerMessage):
    """Suspended or banned: every socket of the user (lobby, game, review) reads this, then closes with 4403
    (docs/moderation.md). ``until``: a suspension's end (ISO time, UTC), None for a ban; ``reason``: the
    moderator's words, shown as they are."""

    t: Literal["account_sanctioned"] = "account_sanctioned"
    action: Literal["suspend", "ban"]
    reason: str
    until: str | None


LOBBY_SERVER_MODELS = (
    LobbySnapshot,
    LobbyPong,
    SeekAck,
    SeekCancelAck,
    LobbyError,
    LobbyResync,
    ChallengeCreated,
    ChallengeRemoved,
    GameStarted,
    GameFinished,
    MyGame,
    Seeking,
    SeekCancelled,
    Paired,
    BotOffer,
    ModeratorWarning,
    AccountSanctioned,
)


def to_users(message: _ServerMessage, user_ids: list[int]) -> dict[str, Any]:
    """A lobby message for the sockets of these users only (app/live/lobby.py takes ``_to`` off)."""
    return {**message.wire(), "_to": user_ids}


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of the sockets: on the game socket, what a client sends (``client``), every versioned
    event it receives (``events``) and the other messages the server sends on it (``server``); the review
    socket's (``review_client``, ``review_events``, ``review_server``) and the lobby's (``lobby_client``,
    ``lobby``). docs/protocol.schema.json is this, written by ``python -m app.protocol`` (a test fails when the
    file is stale)."""
    server = (Ack, ErrorMessage, PongReply, ServerPing, Presence, ClockTick, Snapshot, AccountSanctioned)
    review_server = (Ack, ErrorMessage, PongReply, ServerPing, Participants, ReviewSnapshot, AccountSanctioned)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Tengen sockets",
        "client": TypeAdapter(ClientMessage).json_schema(by_alias=True),
        "events": game_event_adapter.json_schema(by_alias=True),
        "server": {model.__name__: model.model_json_schema(by_alias=True) for model in server},
        "review_client": TypeAdapter(ReviewMessage).json_schema(by_alias=True),
        "review_events": TypeAdapter(ReviewEvent).json_schema(by_alias=True),
        "review_server": {model.__name__: model.model_json_schema(by_alias=True) for model in review_server},
        "lobby_client": TypeAdapter(LobbyMessage).json_schema(by_alias=True),
        "lobby": {model.__name__: model.model_json_schema(by_alias=True) for model in LOBBY_SERVER_MODELS},
    }


def encode(message: BaseModel | dict[str, Any]) -> bytes:
    """Serialise a server message once; the same bytes go to every recipient."""
    if isinstance(message, _ServerMessage):
        return orjson.dumps(message.wire())
    if isinstance(message, BaseModel):
        return orjson.dumps(message.model_dump(by_alias=True))
    return orjson.dumps(message)


def error_bytes(code: str, message: str, client_id: str | None = None, reason: str | None = None) -> bytes:
    return encode(ErrorMessage(id=client_id, code=code, message=message, reason=reason))


if __name__ == "__main__":
    from pathlib import Path

    target = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"
    target.write_bytes(orjson.dumps(protocol_schema(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
    print(f"wrote {target}")
