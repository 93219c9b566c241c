"""A whole tree of variations as SGF FF[4] and back (with sgfmill): every variation, comment and mark.

Export then import gives the same tree (setup, moves, order of variations, comments, marks, game
information). Import is strict where a tree cannot follow the record and says so: a size outside 2..25,
a move the rules forbid, setup stones after the start (AB/AW/AE below the root), a node with both a move
and setup stones, bad coordinates, anything over the tree's limits. A node with no move below the root
(a comment or marks only) is folded into the node before it. Parsing an upload is slow work: the API runs
:func:`import_tree` in a worker process with a time limit (``app.study.workers``).
"""

from __future__ import annotations

from typing import Any

from app.records.sgf import from_sgf, new_sgf, read_game, rules_from_ru, to_sgf
from app.rules import Game
from app.study.tree import LIMITS, Limits, Node, Setup, Tree, TreeError

Point = tuple[int, int]
_MARK_PROPS = {"triangle": "TR", "square": "SQ", "circle": "CR"}
_PROP_MARKS = {v: k for k, v in _MARK_PROPS.items()}
_INFO_PROPS = {"black": "PB", "white": "PW", "result": "RE", "date": "DT", "name": "GN"}


def export_tree(tree: Tree) -> str:
    """The tree as SGF text (UTF-8)."""
    setup = tree.setup
    size = setup.size
    game, root = new_sgf(size, setup.rules, setup.komi)
    if setup.handicap:
        root.set("HA", setup.handicap)
    if setup.black or setup.white:
        root.set_setup_stones([to_sgf(p, size) for p in setup.black], [to_sgf(p, size) for p in setup.white])
    if setup.to_move is not None:
        root.set("PL", setup.to_move.lower())
    for key, prop in _INFO_PROPS.items():
        if tree.info.get(key):
            root.set(prop, tree.info[key])
    pairs: list[tuple[Node, Any]] = [(tree.root, root)]
    while pairs:
        node, out = pairs.pop()
        if node.move is not None:
            if node.move.point is None:
                out.set_raw(node.move.color, b"")  # FF[4] writes a pass as an empty value
            else:
                out.set_move(node.move.color.lower(), to_sgf(node.move.point, size))
        if node.comment:
            out.set("C", node.comment)
        by_kind: dict[str, list[tuple[int, int]]] = {}
        labels = []
        for point, mark in sorted(node.marks.items()):
            if mark.kind == "label":
                labels.append((to_sgf(point, size), mark.label))
            else:
                by_kind.setdefault(_MARK_PROPS[mark.kind], []).append(to_sgf(point, size))
        for prop, points in by_kind.items():
            out.set(prop, set(points))
        if labels:
            out.set("LB", labels)
        children = [(child, out.new_child()) for child in node.children]
        pairs.extend(reversed(children))
    return game.serialise().decode("utf-8")


def _get(node: Any, ident: str, where: str) -> Any:
    try:
        return node.get(ident) if node.has_property(ident) else None
    except (ValueError, UnicodeDecodeError, LookupError) as exc:
        raise TreeError("bad_sgf", f"{where}: bad {ident} property: {exc}") from None


def import_tree(data: bytes | str, limits: Limits = LIMITS) -> Tree:
    """The tree an SGF record describes (its first game, read in its character set: ``read_game``); TreeError
    with a message naming the node."""
    try:
        game = read_game(data)
    except Exception as exc:  # sgfmill raises ValueError and friends on odd input; never crash a caller
        raise TreeError("bad_sgf", f"not an SGF game record: {exc}") from None
    size = game.get_size()
    if not 2 <= size <= 25:
        raise TreeError("bad_sgf", f"board size {size} is outside 2..25")
    root = game.get_root()
    ru = _get(root, "RU", "root") or ""
    rules = rules_from_ru(ru) or "chinese"
    komi = _get(root, "KM", "root")
    komi = float(komi) if komi is not None else (7.5 if rules == "chinese" else 0.0)
    try:
        black_s, white_s, empty_s = root.get_setup_stones()
    except Exception as exc:
        raise TreeError("bad_sgf", f"root: bad setup stones: {exc}") from None
    black = sorted(from_sgf(m, size) for m in black_s)
    white = sorted(from_sgf(m, size) for m in white_s)
    handicap = _get(root, "HA", "root") or 0
    if not isinstance(handicap, int) or not 0 <= handicap <= size * size:
        raise TreeError("bad_sgf", "root: bad HA property")
    pl = _get(root, "PL", "root")
    to_move = pl.upper() if pl else None
    tree = Tree(
        Setup(size=size, rules=rules, komi=komi, handicap=handicap, black=tuple(black), white=tuple(white), to_move=to_move),
        limits,
    )
    for key, prop in _INFO_PROPS.items():
        value = _get(root, prop, "root")
        if value:
            try:
                tree.set_info(key, str(value))  # refused past the limit (bad_info), never cut
            except TreeError as exc:
                raise TreeError(exc.code, f"root: {prop}: {exc.message}") from None
    _decorate(tree, tree.root, root, size, "root")
    counter = 0
    stack: list[tuple[Any, Node, Game]] = [(root, tree.root, tree.start())]
    while stack:
        source, node, position = stack.pop()
        kids = list(source)
        # the last child takes the position on; the others get copies of it
        items = [(child, position if i == len(kids) - 1 else position.copy()) for i, child in enumerate(kids)]
        read = []
        for child, child_game in items:
            counter += 1
            if counter > 4 * limits.nodes:
                raise TreeError(*limits.refusal("nodes"))
            read.append(_read_node(tree, node, child, child_game, size, f"node {counter}"))
        stack.extend(reversed(read))
    return tree


def _read_node(tree: Tree, parent: Node, source: Any, position: Game, size: int, where: str) -> tuple[Any, Node, Game]:
    if source.has_setup_stones():
        raise TreeError("bad_sgf", f"{where}: setup stones after the start are not supported")
    try:
        colour, move = source.get_move()
    except Exception as exc:
        raise TreeError("bad_sgf", f"{where}: bad move: {exc}") from None
    if colour is None:  # comments or marks only: they belong to the node before
        _decorate(tree, parent, source, size, where)
        return (source, parent, position)
    point = None if move is None else from_sgf(move, size)
    try:
        node, _ = tree.extend(parent, position, colour.upper(), point)
    except TreeError as exc:
        raise TreeError(exc.code, f"{where}: {exc.message}") from None
    _decorate(tree, node, source, size, where)
    return (source, node, position)


def _decorate(tree: Tree, node: Node, source: Any, size: int, where: str) -> None:
    try:
        comment = _get(source, "C", where)
        if comment:
            tree.set_comment(node.id, f"{node.comment}\n\n{comment}" if node.comment else comment)
        for prop, kind in _PROP_MARKS.items():
            for move in _get(source, prop, where) or ():
                tree.set_mark(node.id, from_sgf(move, size), kind)
        for move, text in _get(source, "LB", where) or ():
            tree.set_mark(node.id, from_sgf(move, size), "label", text)
    except TreeError as exc:
        raise TreeError(exc.code, f"{where}: {exc.message}") from None
