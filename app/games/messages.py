"""The game socket's messages (docs/protocol.md §3-§5), declared beside the game: what a client sends in a
game (a move, a pass, an offer and its answers, the scoring marks, adjournment, a chat line, conditional
moves) and the game's own server messages (the snapshot and its GAME, presence, the clock). The game's
versioned events are in :mod:`app.games.events`. The bases and the replies every socket shares are
:mod:`app.transport.messages`; :mod:`app.protocol` assembles the socket from these."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from app.games.shapes import ClocksView, GameMove, OffersView, ResultView, ScoringView
from app.transport.messages import ChatText, ClientMessageBase, Point, RoomSnapshot, ServerMessage

# The game socket's messages that act in the game are refused to anyone but its two players with this text
# (app/games/live/outcome.py builds the frame once).
NOT_A_PLAYER_MESSAGE = "only the two players of this game can do that"


class Play(ClientMessageBase):
    t: Literal["play"]
    p: Point


class Pass(ClientMessageBase):
    t: Literal["pass"]


class Resign(ClientMessageBase):
    t: Literal["resign"]


class Chat(ClientMessageBase):
    t: Literal["chat"]
    channel: Literal["players", "spectators"] = "players"
    text: ChatText


class Abort(ClientMessageBase):
    t: Literal["abort"]


class UndoRequest(ClientMessageBase):
    t: Literal["undo_request"]


class UndoAccept(ClientMessageBase):
    t: Literal["undo_accept"]


class UndoDecline(ClientMessageBase):
    t: Literal["undo_decline"]


class DrawOffer(ClientMessageBase):
    t: Literal["draw_offer"]


class DrawAccept(ClientMessageBase):
    t: Literal["draw_accept"]


class DrawDecline(ClientMessageBase):
    t: Literal["draw_decline"]


class ToggleDead(ClientMessageBase):
    t: Literal["toggle_dead"]
    p: Point


class AcceptScore(ClientMessageBase):
    t: Literal["accept_score"]


class ResumePlay(ClientMessageBase):
    t: Literal["resume_play"]


class AskEngine(ClientMessageBase):
    t: Literal["ask_engine"]


class AdjournOffer(ClientMessageBase):
    t: Literal["adjourn_offer"]


class AdjournAccept(ClientMessageBase):
    t: Literal["adjourn_accept"]


class AdjournDecline(ClientMessageBase):
    t: Literal["adjourn_decline"]


class Seal(ClientMessageBase):
    t: Literal["seal"]
    p: Point | None = None


class ResumeOffer(ClientMessageBase):
    t: Literal["resume_offer"]


class ResumeAccept(ClientMessageBase):
    t: Literal["resume_accept"]


class ResumeDecline(ClientMessageBase):
    t: Literal["resume_decline"]


class ClaimVictory(ClientMessageBase):
    t: Literal["claim_victory"]


class RematchOffer(ClientMessageBase):
    t: Literal["rematch_offer"]


class RematchAccept(ClientMessageBase):
    t: Literal["rematch_accept"]


class RematchDecline(ClientMessageBase):
    t: Literal["rematch_decline"]


class Conditional(ClientMessageBase):
    """Conditional moves for this game (app/games/conditional.py checks the tree; ``[]`` clears it)."""

    t: Literal["conditional"]
    tree: list[Any]


# ---- server -> client -------------------------------------------------------------------------------


class Presence(ServerMessage):
    t: Literal["presence"] = "presence"
    players: dict[str, bool]
    spectators: int


class ClockTick(ServerMessage):
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
    rated: bool  # whether the game counts for the ratings (app/ratings/verdict.py): as asked until it ends
    unrated_reason: str | None = None  # why it does not: casual, practice, guest, void, too_short, annulled
    practice: bool
    conditional: Any = None


class Snapshot(RoomSnapshot):
    t: Literal["snapshot"] = "snapshot"
    game: GameView
