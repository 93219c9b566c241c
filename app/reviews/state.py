"""The live state of one review and the rules of who may change it: pure, no I/O, time passed in.

The leader (``controller``: the owner, or whom control was handed to) moves through the tree and edits it;
everybody else follows. ``apply`` checks an action against those rules and the tree's own (app/study), changes
the state in place and returns the event every participant receives, with the columns of the stored review
that the change touches (``app/store/repositories/reviews.save``). A refused action raises ``ReviewError`` and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.reviews.messages import (
    ReviewChatEvent,
    ReviewCommentEvent,
    ReviewControlEvent,
    ReviewGotoEvent,
    ReviewMarkEvent,
    ReviewPlayEvent,
    ReviewRemoveBranchEvent,
)
from app.transport.messages import Versioned
from app.reviews.limits import ReviewLimits
from app.rules import REASONS
from app.reviews.position import PositionCache
from app.study.schemas import tree_to_doc
from app.study.tree import Tree, TreeError


class ReviewError(Exception):
    """An action refused, with a stable snake_case ``code`` and a human ``message``."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


@dataclass(frozen=True)
class Person:
    id: int
    name: str

    def view(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name}


@dataclass
class Actor:
    """Who sends an action: the user, and the signed-in people present in the room (across instances)."""

    user: Person | None
    present: frozenset[int] = frozenset()


@dataclass
class Outcome:
    """What an accepted action produced: the event (without ``v``), the stored columns it changes, and whether
    it changed the tree (whose stored form, ``ReviewState.tree_doc()``, the caller computes off the event loop)."""

    event: Versioned
    changes: dict[str, Any] = field(default_factory=dict)
    tree_changed: bool = False


@dataclass
class ReviewState:
    id: str
    title: str
    game_id: str | None
    owner: Person
    controller: Person
    tree: Tree
    current: int
    chat: list[dict[str, Any]] = field(default_factory=list)
    limits: ReviewLimits = field(default_factory=ReviewLimits)
    positions: PositionCache = field(init=False)

    def __post_init__(self) -> None:
        self.positions = PositionCache(self.tree)

    def position(self) -> dict[str, Any]:
        """The board at the leader's node, as every participant is shown it."""
        return self.positions.view(self.current)

    def tree_doc(self) -> dict[str, Any]:
        """The stored form of the tree (docs/study.md, "The tree as JSON"): some milliseconds for a large tree."""
        return tree_to_doc(self.tree).model_dump(mode="json")

    # ------------------------------------------------------------------ acting

    def apply(self, actor: Actor, action: dict[str, Any], now: float) -> Outcome:
        handler = _HANDLERS.get(action["t"])
        if handler is None:
            raise ReviewError("unknown_type", f"unknown message type {action['t']!r}")
        return handler(self, actor, action, now)

    def _leader(self, actor: Actor) -> Person:
        if actor.user is None or actor.user.id != self.controller.id:
            raise ReviewError("not_controller", f"{self.controller.name} leads this review: only they can change it")
        return actor.user

    def _goto(self, actor: Actor, action: dict[str, Any], now: float) -> Outcome:
        self._leader(actor)
        node = self._node(action["node"])
        self.current = node
        return Outcome(ReviewGotoEvent(node=node, position=self.position()), {"current": node})

    def _play(self, actor: Actor, action: dict[str, Any], now: float) -> Outcome:
        self._leader(actor)
        point = None if action.get("p") is None else (action["p"][0], action["p"][1])
        before = len(self.tree)
        try:
            child, _ = self.tree.play(self.current, point)
        except TreeError as exc:
            raise _refusal(exc) from None
        self.current = child.id
        assert child.move is not None and child.parent is not None
        node = {
            "id": child.id,
            "parent": child.parent.id,
            "move": {"color": child.move.color, "point": None if point is None else list(point)},
        }
        added = len(self.tree) > before
        event = ReviewPlayEvent(node=node, added=added, position=self.position())
        return Outcome(event, {"current": child.id}, tree_changed=added)

    def _comment(self, actor: Actor, action: dict[str, Any], now: float) -> Outcome:
        self._leader(actor)
        text = action["text"]
        try:
            self.tree.set_comment(self.current, text)
        except TreeError as exc:
            raise _refusal(exc) from None
        return Outcome(ReviewCommentEvent(node=self.current, text=text), tree_changed=True)

    def _mark(self, actor: Actor, action: dict[str, Any], now: float) -> Outcome:
        self._leader(actor)
        kind, point, label = action["kind"], action["p"], action.get("label") or ""
        try:
            if kind == "clear":
                self.tree.remove_mark(self.current, point)
            else:
                self.tree.set_mark(self.current, point, kind, label)
        except TreeError as exc:
            raise _refusal(exc) from None
        mark = self.tree.node(self.current).marks.get((point[0], point[1]))
        event = ReviewMarkEvent(
            node=self.current,
            p=list(point),
            kind=None if mark is None else mark.kind,
            label=None if mark is None else mark.label,
        )
        return Outcome(event, tree_changed=True)

    def _remove_branch(self, actor: Actor, action: dict[str, Any], now: float) -> Outcome:
        self._leader(actor)
        node_id = self._node(action["node"])
        node = self.tree.node(node_id)
        if node.parent is None:
            raise ReviewError("cannot_remove_root", "the starting position cannot be removed")
        inside = any(n.id == node_id for n in self.tree.line(self.current))
        parent = node.parent.id
        self.tree.remove(node_id)
        self.positions.forget()
        if inside:
            self.current = parent
        event = ReviewRemoveBranchEvent(node=node_id, current=self.current, position=self.position())
        return Outcome(event, {"current": self.current}, tree_changed=True)

    def _node(self, node_id: int) -> int:
        try:
            return self.tree.node(node_id).id
        except TreeError as exc:
            raise _refusal(exc) from None

    def _chat(self, actor: Actor, action: dict[str, Any], now: float) -> Outcome:
        if actor.user is None:
            raise ReviewError("not_authenticated", "load the site once to get a name before chatting")
        line = {"from": actor.user.view(), "text": action["text"], "at": now}
        self.chat.append(line)
        del self.chat[: max(0, len(self.chat) - self.limits.chat_kept)]
        return Outcome(ReviewChatEvent.model_validate(line), {"chat": list(self.chat)})

    def _take_control(self, actor: Actor, action: dict[str, Any], now: float) -> Outcome:
        if actor.user is None or actor.user.id != self.owner.id:
            raise ReviewError("not_owner", "only the review's owner can take control back")
        return self._control_to(self.owner, actor.user)

    def _hand_control(self, actor: Actor, action: dict[str, Any], now: float) -> Outcome:
        user = actor.user
        if user is None or user.id not in (self.owner.id, self.controller.id):
            raise ReviewError("not_owner", "only the owner or the one leading can hand control over")
        to = action["to"]
        if to == self.owner.id:
            return self._control_to(self.owner, user)
        if to not in actor.present:
            raise ReviewError("not_present", "control can only go to someone in the review now")
        name = action.get("to_name") or str(to)
        return self._control_to(Person(to, name), user)

    def _control_to(self, person: Person, by: Person) -> Outcome:
        self.controller = person
        stored = None if person.id == self.owner.id else person.id
        return Outcome(ReviewControlEvent(controller=person.view(), by=by.view()), {"controller_id": stored})


def _refusal(exc: TreeError) -> ReviewError:
    """The tree's refusal as the review's: an illegal move keeps the game's code, with the rules' reason."""
    if exc.code in REASONS:
        return ReviewError("illegal_move", exc.message, reason=exc.code)
    return ReviewError(exc.code, exc.message)


Handler = Callable[[ReviewState, Actor, dict[str, Any], float], Outcome]
_HANDLERS: dict[str, Handler] = {
    "goto": ReviewState._goto,
    "play": ReviewState._play,
    "comment": ReviewState._comment,
    "mark": ReviewState._mark,
    "remove_branch": ReviewState._remove_branch,
    "chat": ReviewState._chat,
    "take_control": ReviewState._take_control,
    "hand_control": ReviewState._hand_control,
}
