"""Conditional moves: "if they play X, I answer Y", as a tree a player leaves in a game.

Wire form (the ``tree`` of the ``conditional`` action and of the ``conditional`` event): a list of branches,
each ``[[x, y], [ax, ay], next]`` — if the opponent plays ``[x, y]``, answer ``[ax, ay]``, and keep ``next``
(a list of the same form) for the opponent's following move. ``[]`` is no tree.

When the opponent moves, the tree's branch for that point is taken: the server plays its answer at once and
the tree becomes the branch's ``next``. A move (or pass) no branch names drops the whole tree, and so does an
answer that has become illegal. A tree holds at most ``MAX_NODES`` branches in all; two branches for the same
point, points off the board, or a tree nested deeper than ``MAX_NODES`` are refused (``invalid_conditional``).
"""

from __future__ import annotations

from typing import Any

from app.games.errors import GameError

MAX_NODES = 100

Point = tuple[int, int]
# A branch: (their move, my answer, what follows); a tree is a tuple of branches.
Tree = tuple[tuple[Point, Point, "Tree"], ...]


def _bad(message: str) -> GameError:
    return GameError("invalid_conditional", message)


def _point(value: Any, size: int) -> Point:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and 0 <= value[0] < size
        and 0 <= value[1] < size
    ):
        return (value[0], value[1])
    raise _bad(f"{value!r} is not a point of the {size}x{size} board")


def parse_tree(raw: Any, size: int) -> Tree:
    """Validate a tree in its wire form (see the module docstring)."""
    count = 0

    def branches(value: Any, depth: int) -> Tree:
        nonlocal count
        if not isinstance(value, list):
            raise _bad("a conditional tree is a list of [their move, your answer, next] branches")
        if depth > MAX_NODES:
            raise _bad("the conditional tree is nested too deep")
        out = []
        seen: set[Point] = set()
        for branch in value:
            count += 1
            if count > MAX_NODES:
                raise _bad(f"a conditional tree holds at most {MAX_NODES} moves")
            if not isinstance(branch, list) or len(branch) not in (2, 3):
                raise _bad("each branch is [their move, your answer] or [their move, your answer, next]")
            theirs, mine = _point(branch[0], size), _point(branch[1], size)
            if theirs == mine:
                raise _bad(f"the answer to {list(theirs)} cannot be the same point")
            if theirs in seen:
                raise _bad(f"two branches answer {list(theirs)}")
            seen.add(theirs)
            out.append((theirs, mine, branches(branch[2] if len(branch) == 3 else [], depth + 1)))
        return tuple(out)

    return branches(raw, 0)


def to_wire(tree: Tree) -> list[Any]:
    return [[list(theirs), list(mine), to_wire(rest)] for theirs, mine, rest in tree]


def follow(tree: Tree, played: Point | None) -> tuple[Point, Tree] | None:
    """The answer to ``played`` (None: a pass) and the tree that stays, or None when no branch names it."""
    for theirs, mine, rest in tree:
        if theirs == played:
            return mine, rest
    return None
