"""A tree of variations over one starting position: the analysis board's and a review's record.

Pure (standard library and ``app.rules`` only). Every move in the tree was played through the rules engine
from the starting position, so each node stands for a legal position under the tree's rules (captures, ko,
superko as the rule set says). A node holds a move (or nothing, for the root), a comment and marks;
its children are the variations after it, the first one being the main line.

Nodes are addressed by ``id``: a number unique in the tree, given when the node is made and never reused,
so an address stays valid while others add or remove branches. ``path(id)`` gives the same node as child
indexes from the root (``[]`` is the root, ``[0, 1]`` the second variation after the first move), and
``at_path`` reads one back.

Every resource is capped (:class:`Limits`): nodes in the tree, moves from the root to any node, comment
length, label length. Walks are iterative, so a deep tree cannot exhaust the interpreter's stack.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from app.rules import COLORS, Game, IllegalMove, Move, rules_for
from app.rules.coords import check_size
from app.rules.ruleset import RuleSet

Point = tuple[int, int]
MARK_KINDS = ("triangle", "square", "circle", "label")
INFO_KEYS = ("black", "white", "result", "date", "name", "game_id")


# What a value over each limit is refused with, wherever the limit is checked (here, the JSON form's model, the
# review socket's messages): its code, and a message saying the limit.
_REFUSALS = {
    "nodes": ("tree_too_large", "a tree holds at most {} nodes"),
    "depth": ("tree_too_deep", "a variation holds at most {} moves"),
    "comment": ("comment_too_long", "a comment holds at most {} characters"),
    "label": ("bad_mark", "a label is 1 to {} printable characters (no [ ] : \\)"),
    "info": ("bad_info", "a game-information value holds at most {} characters"),
}


@dataclass(frozen=True)
class Limits:
    nodes: int = 10_000  # nodes in one tree, the root included
    depth: int = 1_000  # moves from the root to any node
    comment: int = 4_000  # characters in one node's comment
    label: int = 4  # characters in one letter label
    info: int = 200  # characters in one game-information value (players, result, date, name)

    def refusal(self, name: str) -> tuple[str, str]:
        """The code and the message a value over the limit ``name`` is refused with."""
        code, message = _REFUSALS[name]
        return code, message.format(getattr(self, name))


LIMITS = Limits()


class TreeError(ValueError):
    """An operation the tree refuses; ``code`` is a snake_case word (an ``app.rules`` reason for an illegal
    move: ``occupied``, ``suicide``, ``ko``, ``superko``, ``off_board``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:  # crosses from a worker process intact
        return (TreeError, (self.code, self.message))


@dataclass(frozen=True)
class Mark:
    kind: str  # one of MARK_KINDS
    label: str = ""  # the text of a "label" mark


@dataclass(frozen=True)
class Setup:
    """The starting position and the rules every move is checked by.

    ``black`` and ``white`` are stones on the board before the first move. When only Black has stones and
    ``handicap`` is their number (from 2), they are handicap stones and count for White's compensation.
    """

    size: int = 19
    rules: str = "chinese"  # a preset of app.rules
    komi: float = 7.5
    rules_params: tuple[tuple[str, Any], ...] = ()  # parameters overriding the preset's
    handicap: int = 0
    black: tuple[Point, ...] = ()
    white: tuple[Point, ...] = ()
    to_move: str | None = None  # None: Black, or White after handicap stones

    def ruleset(self) -> RuleSet:
        try:
            return rules_for(self.rules, **{**dict(self.rules_params), "komi": self.komi})
        except (TypeError, ValueError) as exc:
            raise TreeError("bad_setup", f"rules: {exc}") from None

    def new_game(self) -> Game:
        """The starting position as a fresh ``Game`` (TreeError ``bad_setup`` when it cannot be set up)."""
        try:
            check_size(self.size)
            if self.to_move not in (None, *COLORS):
                raise ValueError(f"to_move must be B or W, not {self.to_move!r}")
            rules = self.ruleset()
            if not self.white and self.handicap >= 2 and len(self.black) == self.handicap:
                game = Game(self.size, rules, handicap_points=self.black)
            else:
                game = Game(self.size, rules)
                if self.black or self.white:
                    game.add_setup(self.black, self.white)
            if self.to_move is not None:
                game.set_to_move(self.to_move)
            return game
        except (IllegalMove, ValueError) as exc:
            if isinstance(exc, TreeError):
                raise
            raise TreeError("bad_setup", f"the starting position: {exc}") from None


@dataclass(eq=False)
class Node:
    id: int
    parent: Node | None
    move: Move | None = None  # None only for the root
    comment: str = ""
    marks: dict[Point, Mark] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)
    depth: int = 0  # moves from the root


class Tree:
    def __init__(self, setup: Setup, limits: Limits = LIMITS, info: dict[str, str] | None = None) -> None:
        self.setup = setup
        self.limits = limits
        self._start = setup.new_game()  # checks the setup once; copied for every replay
        self.root = Node(0, None)
        self._nodes: dict[int, Node] = {0: self.root}
        self._next_id = 1
        self._cache: tuple[Node, Game] | None = None  # the last position computed, for play after play
        self.info: dict[str, str] = {}
        for key, value in (info or {}).items():
            self.set_info(key, value)

    # -- reading ---------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._nodes)

    def __reduce__(self) -> tuple[Any, ...]:
        """A tree crosses from a worker process as a flat list of its nodes in preorder (nested, a deep one would
        exhaust pickle's recursion), and is attached again as it was, its moves not replayed: they were checked
        when the tree was built."""
        nodes = [(n.id, None if n.parent is None else n.parent.id, n.move, n.comment, n.marks) for n in self.walk()]
        return (_rebuilt, (self.setup, self.limits, self.info, nodes, self._next_id))

    @property
    def next_id(self) -> int:
        """The id the next new node gets: above every id the tree has given, removed nodes' included."""
        return self._next_id

    def retire_ids_below(self, next_id: int) -> None:
        """Give no new node an id below ``next_id``: a tree read back keeps the ids its removed nodes had retired."""
        self._next_id = max(self._next_id, next_id)

    def node(self, node_id: int) -> Node:
        node = self._nodes.get(node_id) if type(node_id) is int else None
        if node is None:
            raise TreeError("node_not_found", f"no node {node_id!r} in this tree")
        return node

    def line(self, node_id: int) -> list[Node]:
        """The nodes from the root to ``node_id``, both included."""
        out = []
        node: Node | None = self.node(node_id)
        while node is not None:
            out.append(node)
            node = node.parent
        return out[::-1]

    def moves_to(self, node_id: int) -> list[Move]:
        return [n.move for n in self.line(node_id) if n.move is not None]

    def path(self, node_id: int) -> list[int]:
        """``node_id``'s address as child indexes from the root."""
        line = self.line(node_id)
        return [parent.children.index(child) for parent, child in zip(line, line[1:])]

    def at_path(self, path: list[int]) -> Node:
        node = self.root
        for index in path:
            if type(index) is not int or not 0 <= index < len(node.children):
                raise TreeError("node_not_found", f"no node at path {path!r}")
            node = node.children[index]
        return node

    def walk(self) -> Iterator[Node]:
        """Every node in preorder (a node before its children, children in order), without recursion."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def start(self) -> Game:
        """A fresh copy of the starting position."""
        return self._start.copy()

    def game_at(self, node_id: int) -> Game:
        """The position at ``node_id`` (a fresh ``Game`` the caller may change)."""
        node = self.node(node_id)
        if self._cache is not None and self._cache[0] is node:
            return self._cache[1].copy()
        game = replay(self.start(), self.moves_to(node_id))
        self._cache = (node, game.copy())
        return game

    # -- changing --------------------------------------------------------------------------------
    def play(self, node_id: int, point: Point | None, color: str | None = None) -> tuple[Node, list[Point]]:
        """Play ``point`` (None: a pass) at ``node_id``: the child holding the move (an existing identical
        child is reused) and the stones it captured. ``color`` defaults to the side to move; another colour
        plays as if it were its turn (records may have one colour move twice)."""
        node = self.node(node_id)
        game = self.game_at(node_id)
        if color is not None and color not in COLORS:
            raise TreeError("bad_move", f"colour must be B or W, not {color!r}")
        child, captures = self.extend(node, game, color or game.to_move, point)
        self._cache = (child, game.copy())
        return child, captures

    def extend(
        self, node: Node, game: Game, color: str, point: Point | None, node_id: int | None = None
    ) -> tuple[Node, list[Point]]:
        """Play the move on ``game`` (which must be the position at ``node``; it is advanced) and attach it
        below ``node``, reusing an identical child. For builders that walk a whole tree (imports)."""
        if point is not None:
            if not (isinstance(point, (tuple, list)) and len(point) == 2):
                raise TreeError("off_board", f"not a board point: {point!r}")
            point = (point[0], point[1])
        move = Move(color, point)
        existing = next((c for c in node.children if c.move == move), None)
        if existing is None:
            if len(self._nodes) >= self.limits.nodes:
                raise TreeError(*self.limits.refusal("nodes"))
            if node.depth >= self.limits.depth:
                raise TreeError(*self.limits.refusal("depth"))
            if node_id is not None and (type(node_id) is not int or node_id < 1 or node_id in self._nodes):
                raise TreeError("bad_tree", f"node id {node_id!r} is not a new positive number")
        try:
            captures = play_move(game, color, point)
        except IllegalMove as exc:
            raise TreeError(exc.reason, str(exc)) from None
        except ValueError as exc:
            raise TreeError("bad_move", str(exc)) from None
        if existing is not None:
            return existing, captures
        new_id = node_id if node_id is not None else self._next_id
        self._next_id = max(self._next_id, new_id + 1)
        child = Node(new_id, node, move, depth=node.depth + 1)
        node.children.append(child)
        self._nodes[new_id] = child
        return child, captures

    def remove(self, node_id: int) -> int:
        """Remove the node and every variation below it; the number of nodes removed."""
        node = self.node(node_id)
        if node.parent is None:
            raise TreeError("cannot_remove_root", "the starting position cannot be removed")
        node.parent.children.remove(node)
        removed = 0
        stack = [node]
        while stack:
            n = stack.pop()
            del self._nodes[n.id]
            removed += 1
            stack.extend(n.children)
        if self._cache is not None and self._cache[0].id not in self._nodes:
            self._cache = None
        return removed

    def promote(self, node_id: int) -> None:
        """Make ``node_id`` the first variation (the main line) of its parent."""
        node = self.node(node_id)
        if node.parent is not None:
            node.parent.children.remove(node)
            node.parent.children.insert(0, node)

    def set_comment(self, node_id: int, text: str) -> None:
        if not isinstance(text, str):
            raise TreeError("bad_comment", "a comment is text")
        if len(text) > self.limits.comment:
            raise TreeError(*self.limits.refusal("comment"))
        self.node(node_id).comment = text

    def set_mark(self, node_id: int, point: Point, kind: str, label: str = "") -> None:
        """Mark ``point`` at ``node_id`` (one mark per point: a new mark replaces the old one)."""
        node = self.node(node_id)
        point = self._point(point)
        if kind not in MARK_KINDS:
            raise TreeError("bad_mark", f"a mark is one of {', '.join(MARK_KINDS)}, not {kind!r}")
        if kind == "label":
            if (
                not isinstance(label, str)
                or not label.strip()
                or len(label) > self.limits.label
                or not label.isprintable()
                or any(ch in label for ch in "[]\\:")
            ):
                raise TreeError(*self.limits.refusal("label"))
        else:
            label = ""
        node.marks[point] = Mark(kind, label)

    def remove_mark(self, node_id: int, point: Point) -> None:
        self.node(node_id).marks.pop(self._point(point), None)

    def set_info(self, key: str, value: str) -> None:
        if key not in INFO_KEYS:
            raise TreeError("bad_info", f"game information is one of {', '.join(INFO_KEYS)}, not {key!r}")
        if not isinstance(value, str):
            raise TreeError("bad_info", f"{key} is text")
        if len(value) > self.limits.info:
            code, message = self.limits.refusal("info")
            raise TreeError(code, f"{key}: {message}")
        if value:
            self.info[key] = value
        else:
            self.info.pop(key, None)

    def _point(self, point: Any) -> Point:
        size = self.setup.size
        if not (
            isinstance(point, (tuple, list))
            and len(point) == 2
            and all(type(v) is int for v in point)
            and 0 <= point[0] < size
            and 0 <= point[1] < size
        ):
            raise TreeError("off_board", f"{point!r} is not a point of the {size}x{size} board")
        return (point[0], point[1])


def _rebuilt(
    setup: Setup, limits: Limits, info: dict[str, str], nodes: list[tuple[int, int | None, Move | None, str, dict]], next_id: int
) -> Tree:
    """The tree ``Tree.__reduce__`` took apart."""
    tree = Tree(setup, limits, info)
    for node_id, parent_id, move, comment, marks in nodes:
        if parent_id is None:
            node = tree.root
        else:
            parent = tree._nodes[parent_id]
            node = Node(node_id, parent, move, depth=parent.depth + 1)
            parent.children.append(node)
            tree._nodes[node_id] = node
        node.comment, node.marks = comment, marks
    tree._next_id = next_id
    return tree


def replay(game: Game, moves: list[Move]) -> Game:
    """Play ``moves`` on ``game`` (changed in place and returned); TreeError for the first illegal one,
    whose message names its number."""
    for number, move in enumerate(moves, start=1):
        try:
            play_move(game, move.color, move.point)
        except IllegalMove as exc:
            raise TreeError(exc.reason, f"move {number}: {exc}") from None
        except ValueError as exc:
            raise TreeError("bad_move", f"move {number}: {exc}") from None
    return game


def play_move(game: Game, color: str, point: Point | None) -> list[Point]:
    """One move of a tree on ``game``: a stone (its captures returned) or a pass (``point`` None), by either
    colour (the other colour plays as if it were its turn). Raises the engine's IllegalMove or ValueError."""
    if color != game.to_move:
        game.set_to_move(color)
    if point is None:
        game.pass_turn(color)
        return []
    return game.play(color, point)
