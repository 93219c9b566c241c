"""The JSON form of a tree of variations (``docs/study.md``, "The tree as JSON") and its conversions.

The nodes travel as a flat list in preorder, each naming its parent, so a deep tree never nests deeply in
JSON (no parser or validator recursion). Reading a document back plays every move through the rules engine:
a document with an illegal move, an unknown parent or anything over the limits is refused.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.field_limits import AtMost
from app.rules import Move
from app.study.tree import INFO_KEYS, LIMITS, Limits, Setup, Tree, TreeError

FORMAT = 1
Coord = Annotated[int, Field(ge=0, le=24)]
PointDoc = tuple[Coord, Coord]
# The tree's own limits (app/study/tree.py), refused by the model with the tree's codes (bad_mark, comment_too_long,
# bad_info, tree_too_large): a document over one never gets as far as the tree, and is told which.
Label = Annotated[str, AtMost(LIMITS.label, *LIMITS.refusal("label"))]
Comment = Annotated[str, AtMost(LIMITS.comment, *LIMITS.refusal("comment"))]
InfoValue = Annotated[str, AtMost(LIMITS.info, *LIMITS.refusal("info"))]
INFO_REFUSAL = f"game information is at most {len(INFO_KEYS)} values: {', '.join(INFO_KEYS)}"
Info = Annotated[dict[str, InfoValue], AtMost(len(INFO_KEYS), "bad_info", INFO_REFUSAL)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MoveDoc(_Strict):
    color: Literal["B", "W"]
    point: PointDoc | None = None  # None: a pass


class MarkDoc(_Strict):
    point: PointDoc
    kind: Literal["triangle", "square", "circle", "label"]
    label: Label = ""


class NodeDoc(_Strict):
    id: int = Field(ge=0)
    parent: int | None = None  # None only for the root, which comes first
    move: MoveDoc | None = None
    comment: Comment = ""
    marks: list[MarkDoc] = Field(default_factory=list, max_length=25 * 25)


class SetupDoc(_Strict):
    size: int = Field(default=19, ge=2, le=25)
    rules: str = Field(default="chinese", max_length=40)
    komi: float = 7.5
    rules_params: dict[str, bool | int | float | str] = Field(default_factory=dict, max_length=10)
    handicap: int = Field(default=0, ge=0, le=25 * 25)
    black: list[PointDoc] = Field(default_factory=list, max_length=25 * 25)
    white: list[PointDoc] = Field(default_factory=list, max_length=25 * 25)
    to_move: Literal["B", "W"] | None = None  # None: Black, or White after handicap stones

    def to_setup(self) -> Setup:
        return Setup(
            size=self.size,
            rules=self.rules,
            komi=self.komi,
            rules_params=tuple(sorted(self.rules_params.items())),
            handicap=self.handicap,
            black=tuple(self.black),
            white=tuple(self.white),
            to_move=self.to_move,
        )

    @classmethod
    def of(cls, setup: Setup) -> SetupDoc:
        return cls(
            size=setup.size,
            rules=setup.rules,
            komi=setup.komi,
            rules_params=dict(setup.rules_params),
            handicap=setup.handicap,
            black=list(setup.black),
            white=list(setup.white),
            to_move=setup.to_move,  # type: ignore[arg-type]  # a checked colour, typed as str in the tree
        )


class TreeDoc(_Strict):
    format: Literal[1] = 1  # FORMAT
    setup: SetupDoc = Field(default_factory=SetupDoc)
    info: Info = Field(default_factory=dict)
    nodes: Annotated[list[NodeDoc], Field(min_length=1), AtMost(LIMITS.nodes, *LIMITS.refusal("nodes"))]
    # The id the next new node gets (ids are never reused, removed nodes' included); None: one above the
    # highest node's id, for a document that does not say.
    next_id: int | None = Field(default=None, ge=1)


def tree_to_doc(tree: Tree) -> TreeDoc:
    # The tree holds colours and mark kinds it checked itself, typed as str: "checked" below says so.
    nodes = []
    for node in tree.walk():
        move = None if node.move is None else MoveDoc(color=node.move.color, point=node.move.point)  # type: ignore[arg-type]  # checked
        marks = [MarkDoc(point=p, kind=m.kind, label=m.label) for p, m in sorted(node.marks.items())]  # type: ignore[arg-type]  # checked
        nodes.append(
            NodeDoc(
                id=node.id, parent=None if node.parent is None else node.parent.id, move=move, comment=node.comment, marks=marks
            )
        )
    return TreeDoc(setup=SetupDoc.of(tree.setup), info=dict(tree.info), nodes=nodes, next_id=tree.next_id)


def tree_from_doc(doc: TreeDoc, limits: Limits = LIMITS) -> Tree:
    """The tree a document describes, every move checked (TreeError otherwise); node ids are kept, and so are
    the ids removed nodes retired (``next_id``)."""
    tree = Tree(doc.setup.to_setup(), limits, doc.info)
    root = doc.nodes[0]
    if root.parent is not None or root.move is not None or root.id != 0:
        raise TreeError("bad_tree", "the first node is the root: id 0, no parent, no move")
    _decorate(tree, 0, root)
    games = {0: tree.start()}  # the position at each node that still has children to come
    remaining = Counter(nd.parent for nd in doc.nodes[1:])  # children still to come, per node
    for index, nd in enumerate(doc.nodes[1:], start=1):
        if nd.parent is None or nd.move is None:
            raise TreeError("bad_tree", f"node {index}: every node but the root has a parent and a move")
        parent_game = games.get(nd.parent)
        if parent_game is None:
            raise TreeError("bad_tree", f"node {index}: its parent {nd.parent} does not come before it")
        remaining[nd.parent] -= 1
        last = remaining[nd.parent] == 0
        game = parent_game if last else parent_game.copy()
        if last:
            del games[nd.parent]
        parent = tree.node(nd.parent)
        before = len(parent.children)
        try:
            child, _ = tree.extend(parent, game, nd.move.color, nd.move.point, node_id=nd.id)
        except TreeError as exc:
            raise TreeError(exc.code, f"node {index}: {exc.message}") from None
        if len(parent.children) == before:
            raise TreeError("bad_tree", f"node {index}: the same move twice below node {nd.parent}")
        _decorate(tree, child.id, nd)
        if remaining.get(child.id):
            games[child.id] = game
    if doc.next_id is not None:
        tree.retire_ids_below(doc.next_id)
    return tree


def _decorate(tree: Tree, node_id: int, nd: NodeDoc) -> None:
    tree.set_comment(node_id, nd.comment)
    for mark in nd.marks:
        tree.set_mark(node_id, mark.point, mark.kind, mark.label)


def move_of(doc: MoveDoc) -> Move:
    return Move(doc.color, None if doc.point is None else (doc.point[0], doc.point[1]))
