"""The review socket's messages (docs/protocol.md §9), declared beside the review: what a client sends in a
shared review (moving, playing, commenting and marking as the one leading, control, chat) and what the server
sends (the snapshot, who is in the room, and the versioned events of the review). The bases and the replies
every socket shares are :mod:`app.transport.messages`; :mod:`app.protocol` assembles the socket from these."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import Field, StrictInt

from app.field_limits import AtMost
from app.games.shapes import WirePoint
from app.reviews.limits import COMMENT_CHARS
from app.study.tree import LIMITS, Limits
from app.transport.messages import ChatText, ClientMessageBase, Point, RoomSnapshot, ServerMessage, Versioned

# ---- review socket, client -> server (docs/protocol.md §9) ------------------------------------------

NodeId = Annotated[StrictInt, Field(ge=0)]  # a node's id in the tree (app/study/tree.py)
MarkKind = Literal["triangle", "square", "circle", "label", "clear"]


class ReviewGoto(ClientMessageBase):
    """The leader moves to another node of the tree."""

    t: Literal["goto"]
    node: NodeId


class ReviewPlay(ClientMessageBase):
    """The leader plays a move (``p``) or a pass (``p`` null) after the current node: a new branch, or the
    existing child with that move."""

    t: Literal["play"]
    p: Point | None = None


class ReviewComment(ClientMessageBase):
    """The leader sets the comment of the current node (empty: no comment)."""

    t: Literal["comment"]
    text: Annotated[str, AtMost(COMMENT_CHARS, *Limits(comment=COMMENT_CHARS).refusal("comment"))]


class ReviewMark(ClientMessageBase):
    """The leader marks a point of the current node (``label``: one to four characters), or clears it."""

    t: Literal["mark"]
    p: Point
    kind: MarkKind
    label: Annotated[str, AtMost(LIMITS.label, *LIMITS.refusal("label"), at_least=1)] | None = None


class ReviewRemoveBranch(ClientMessageBase):
    """The leader removes a node and everything after it (never the root)."""

    t: Literal["remove_branch"]
    node: NodeId


class HandControl(ClientMessageBase):
    """The owner (or the one leading) hands control to someone in the room, by user id."""

    t: Literal["hand_control"]
    to: StrictInt


class TakeControl(ClientMessageBase):
    """The owner takes control back."""

    t: Literal["take_control"]


class ReviewChat(ClientMessageBase):
    t: Literal["chat"]
    text: ChatText


# What only the one leading may do (the rest: control, chat, pings).
REVIEW_EDITS = frozenset({"goto", "play", "comment", "mark", "remove_branch"})


# ---- server -> client -------------------------------------------------------------------------------


class ReviewSnapshot(RoomSnapshot):
    """The whole review at version ``v`` (docs/protocol.md §9.2)."""

    t: Literal["snapshot"] = "snapshot"
    review: dict[str, Any]
    participants: list[dict[str, Any]]
    anonymous: int


class Participants(ServerMessage):
    """Who is in a review room, across instances (ephemeral: no ``v``)."""

    t: Literal["participants"] = "participants"
    participants: list[dict[str, Any]]
    anonymous: int


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
