"""The one registry of the WebSocket messages: which messages each socket carries, assembled from where they
are declared, for parsing, for ``docs/protocol.schema.json`` (``python -m app.protocol``) and for the
frontend's tests, which read that schema.

Every message is declared beside its domain: the game's in :mod:`app.games.messages` (and its versioned
events in :mod:`app.games.events`), the review's in :mod:`app.reviews.messages`, the lobby's in
:mod:`app.lobby.messages`, automatch's in :mod:`app.automatch.messages`, moderation's in
:mod:`app.moderation.messages`; the bases, the fields several sockets share and the replies every socket sends
are the transport's (:mod:`app.transport.messages`). A new message is declared beside its domain and named
here in the socket that carries it; a test fails on one declared and carried by no socket.

Client messages are parsed here and nowhere else: ``parse_client_message`` (the game socket),
``parse_review_message`` and ``parse_lobby_message`` turn raw text into one of the typed models or raise
``ProtocolError`` with a stable code. Server messages are built from the typed models and serialised once with
orjson (``encode``), so every recipient gets the same text. See docs/protocol.md for the meaning of each
message. Every name the sockets, the rooms and the tests import from here is re-exported from its module.
"""

from __future__ import annotations

from typing import Annotated, Any, Union, get_args

import orjson
from pydantic import BaseModel, Field, TypeAdapter

from app.ai_review.messages import AiReviewNews as AiReviewNews
from app.automatch.messages import (
    BotOffer as BotOffer,
    Paired as Paired,
    Seek as Seek,
    SeekAck as SeekAck,
    SeekCancel as SeekCancel,
    SeekCancelAck as SeekCancelAck,
    SeekCancelled as SeekCancelled,
    Seeking as Seeking,
)
from app.games.conditional import MAX_NODES as CONDITIONAL_BRANCHES
from app.games.events import (
    GAME_EVENT_MODELS as GAME_EVENT_MODELS,
    ChatEvent as ChatEvent,
    ChatRemovedEvent as ChatRemovedEvent,
    ClockRestartEvent as ClockRestartEvent,
    Clocks as Clocks,
    ConditionalEvent as ConditionalEvent,
    DeadStonesEvent as DeadStonesEvent,
    EngineOpinionEvent as EngineOpinionEvent,
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
)
from app.games.messages import (
    NOT_A_PLAYER_MESSAGE as NOT_A_PLAYER_MESSAGE,
    Abort as Abort,
    AcceptScore as AcceptScore,
    AdjournAccept as AdjournAccept,
    AdjournDecline as AdjournDecline,
    AdjournOffer as AdjournOffer,
    Chat as Chat,
    ClaimVictory as ClaimVictory,
    ClockTick as ClockTick,
    Conditional as Conditional,
    DrawAccept as DrawAccept,
    DrawDecline as DrawDecline,
    DrawOffer as DrawOffer,
    GameView as GameView,
    Pass as Pass,
    Play as Play,
    Presence as Presence,
    RematchAccept as RematchAccept,
    RematchDecline as RematchDecline,
    RematchOffer as RematchOffer,
    Resign as Resign,
    ResumeAccept as ResumeAccept,
    ResumeDecline as ResumeDecline,
    ResumeOffer as ResumeOffer,
    ResumePlay as ResumePlay,
    AskEngine as AskEngine,
    Seal as Seal,
    Snapshot as Snapshot,
    ToggleDead as ToggleDead,
    UndoAccept as UndoAccept,
    UndoDecline as UndoDecline,
    UndoRequest as UndoRequest,
)
from app.lobby.messages import (
    ChallengeCreated as ChallengeCreated,
    ChallengeRemoved as ChallengeRemoved,
    GameFinished as GameFinished,
    GameStarted as GameStarted,
    LobbyPing as LobbyPing,
    LobbyPong as LobbyPong,
    LobbyResync as LobbyResync,
    LobbySnapshot as LobbySnapshot,
    MyGame as MyGame,
)
from app.moderation.messages import AccountSanctioned as AccountSanctioned, ModeratorWarning as ModeratorWarning
from app.reviews.limits import COMMENT_CHARS
from app.reviews.messages import (
    REVIEW_EDITS as REVIEW_EDITS,
    REVIEW_EVENT_MODELS as REVIEW_EVENT_MODELS,
    HandControl as HandControl,
    MarkKind as MarkKind,
    NodeId as NodeId,
    Participants as Participants,
    ReviewChat as ReviewChat,
    ReviewChatEvent as ReviewChatEvent,
    ReviewComment as ReviewComment,
    ReviewCommentEvent as ReviewCommentEvent,
    ReviewControlEvent as ReviewControlEvent,
    ReviewEvent as ReviewEvent,
    ReviewGoto as ReviewGoto,
    ReviewGotoEvent as ReviewGotoEvent,
    ReviewMark as ReviewMark,
    ReviewMarkEvent as ReviewMarkEvent,
    ReviewPlay as ReviewPlay,
    ReviewPlayEvent as ReviewPlayEvent,
    ReviewRemoveBranch as ReviewRemoveBranch,
    ReviewRemoveBranchEvent as ReviewRemoveBranchEvent,
    ReviewSnapshot as ReviewSnapshot,
    TakeControl as TakeControl,
)
from app.tournaments.messages import TournamentChanged as TournamentChanged
from app.transport.messages import (
    BYTES_PER_CHAR as BYTES_PER_CHAR,
    CHAT_RATE_LIMITED_MESSAGE as CHAT_RATE_LIMITED_MESSAGE,
    CLIENT_ID_CHARS as CLIENT_ID_CHARS,
    ENVELOPE_BYTES as ENVELOPE_BYTES,
    MAX_CHAT_CHARS as MAX_CHAT_CHARS,
    RATE_LIMITED_MESSAGE as RATE_LIMITED_MESSAGE,
    Ack as Ack,
    ChatText as ChatText,
    ClientId as ClientId,
    Coordinate as Coordinate,
    ErrorMessage as ErrorMessage,
    LobbyError as LobbyError,
    Ping as Ping,
    Point as Point,
    Pong as Pong,
    PongReply as PongReply,
    ProtocolError as ProtocolError,
    ServerPing as ServerPing,
    Versioned as Versioned,
    at_version as at_version,
    client_id_of as client_id_of,
    encode as encode,
    error_bytes as error_bytes,
    frame_bytes as frame_bytes,
    parse,
    peek as peek,
    to_users as to_users,
)

# ---- frame caps: derived from the longest text each socket's messages carry (app/transport/messages.py)
# One conditional-move branch, "[[18, 18], [18, 18], []], " written with a space after each comma (26), rounded up.
CONDITIONAL_BRANCH_BYTES = 32
GAME_FRAME_BYTES = max(frame_bytes(MAX_CHAT_CHARS), CONDITIONAL_BRANCHES * CONDITIONAL_BRANCH_BYTES + ENVELOPE_BYTES)
REVIEW_FRAME_BYTES = frame_bytes(max(COMMENT_CHARS, MAX_CHAT_CHARS))
LOBBY_FRAME_BYTES = 4096  # a seek and its preferences: no free text
# The server's own cap on a WebSocket message (uvicorn's ws_max_size, app/server.py) is never below this.
MAX_FRAME_BYTES = max(GAME_FRAME_BYTES, REVIEW_FRAME_BYTES, LOBBY_FRAME_BYTES)


def _types(models: tuple[type[BaseModel], ...]) -> frozenset[str]:
    return frozenset(get_args(model.model_fields["t"].annotation)[0] for model in models)


# ---- game socket, client -> server ---------------------------------------------------------------------
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
    AskEngine,
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
CLIENT_TYPES = _types(_CLIENT_MODELS)
# The game socket's messages that act in the game, which only its two players may send.
PLAYER_ACTION_TYPES = CLIENT_TYPES - {"chat", "ping", "pong"}

_client_adapter: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def parse_client_message(raw: str | bytes) -> Any:
    """Parse one game-socket client frame into its typed model, or raise ``ProtocolError``."""
    return parse(raw, _client_adapter, CLIENT_TYPES, GAME_FRAME_BYTES)


def client_frame(fields: dict[str, Any]) -> str:
    """A game-socket client frame built from its typed model (the house bots speak the protocol as any client
    does); a field the model does not declare raises ``pydantic.ValidationError``."""
    return str(_client_adapter.validate_python(fields).model_dump_json(exclude_none=True))


# ---- lobby socket, client -> server ------------------------------------------------------------------
_LOBBY_MODELS = (LobbyPing, Seek, SeekCancel)
LobbyMessage = Annotated[Union[_LOBBY_MODELS], Field(discriminator="t")]  # type: ignore[valid-type]  # a Union of a tuple of models made at run time
LOBBY_TYPES = _types(_LOBBY_MODELS)

_lobby_adapter: TypeAdapter[Any] = TypeAdapter(LobbyMessage)


def parse_lobby_message(raw: str | bytes) -> Any:
    """Parse one lobby-socket client frame into its typed model, or raise ``ProtocolError``."""
    return parse(raw, _lobby_adapter, LOBBY_TYPES, LOBBY_FRAME_BYTES)


# ---- review socket, client -> server (docs/protocol.md §9) ------------------------------------------
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
REVIEW_TYPES = _types(_REVIEW_MODELS)

_review_adapter: TypeAdapter[Any] = TypeAdapter(ReviewMessage)


def parse_review_message(raw: str | bytes) -> Any:
    """Parse one review-socket client frame into its typed model, or raise ``ProtocolError``."""
    return parse(raw, _review_adapter, REVIEW_TYPES, REVIEW_FRAME_BYTES)


# ---- server -> client: what each socket sends besides its versioned events --------------------------------
GAME_SERVER_MODELS = (
    Ack,
    ErrorMessage,
    PongReply,
    ServerPing,
    Presence,
    ClockTick,
    Snapshot,
    AccountSanctioned,
    AiReviewNews,
)
REVIEW_SERVER_MODELS = (Ack, ErrorMessage, PongReply, ServerPing, Participants, ReviewSnapshot, AccountSanctioned)
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
    TournamentChanged,
)


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of the sockets: on the game socket, what a client sends (``client``), every versioned
    event it receives (``events``) and the other messages the server sends on it (``server``); the review
    socket's (``review_client``, ``review_events``, ``review_server``) and the lobby's (``lobby_client``,
    ``lobby``). docs/protocol.schema.json is this, written by ``python -m app.protocol`` (a test fails when the
    file is stale)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Tengen sockets",
        "client": TypeAdapter(ClientMessage).json_schema(by_alias=True),
        "events": game_event_adapter.json_schema(by_alias=True),
        "server": {model.__name__: model.model_json_schema(by_alias=True) for model in GAME_SERVER_MODELS},
        "review_client": TypeAdapter(ReviewMessage).json_schema(by_alias=True),
        "review_events": TypeAdapter(ReviewEvent).json_schema(by_alias=True),
        "review_server": {model.__name__: model.model_json_schema(by_alias=True) for model in REVIEW_SERVER_MODELS},
        "lobby_client": TypeAdapter(LobbyMessage).json_schema(by_alias=True),
        "lobby": {model.__name__: model.model_json_schema(by_alias=True) for model in LOBBY_SERVER_MODELS},
    }


if __name__ == "__main__":
    from pathlib import Path

    target = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"
    target.write_bytes(orjson.dumps(protocol_schema(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
    print(f"wrote {target}")
