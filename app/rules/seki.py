"""Chains in seki on the board as it lies: the rules engine's part of judging dead stones (pure, no engine).

A chain is in seki when it has at least two liberties, the opponent can fill **none** of them (filling one would
be suicide, or leave the opponent's chain in atari, capturing nothing), and one of its liberties is shared with a
chain of the other colour that is in seki by the same test. Neither side can approach: whoever fills a shared
liberty first loses its chain. A chain with a liberty the opponent can fill safely (outside, or inside with room)
is not in seki: that is a capturing race the side to move decides, or a dead group. Eyes are allowed (the opponent
cannot play in a one-point eye), so one eye each facing shared liberties is a seki, one eye against none is not
(the side with the eye fills a shared liberty safely: the other chain has a liberty the opponent can fill). Nor is
a chain in seki that gains liberties by filling one of its own (connecting out to a group with room): once
connected, it fills the shared liberties safely.

The test is static: it does not read sacrifices (a throw-in inside a dead shape can look like an unapproachable
point). ``app.engines.dead_stones`` therefore keeps a seki chain alive unless both of KataGo's readings give it
away firmly.
"""

from __future__ import annotations

from .board import BLACK, EMPTY, WHITE, Board, BoardError

Point = tuple[int, int]


def _blocked(board: Board, p: int, c: int) -> bool:
    """Whether colour ``c`` cannot fill the empty point ``p``: suicide, or its chain left with one liberty and
    nothing captured."""
    try:
        captures, suicide, _ = board.analyse(p, c, False)
    except BoardError:
        return True
    if captures:
        return False
    trial = board.copy()
    trial.place(p, c, captures, suicide)
    return len(trial.liberties(p)) < 2


def seki_points(board: Board) -> set[Point]:
    """The stones of every chain in seki on ``board`` (see the module's docstring)."""
    color = board.color
    w = board.stride
    heads: dict[int, list[int]] = {}
    for p in board.points:
        if color[p] in (BLACK, WHITE):
            heads.setdefault(board.head[p], []).append(p)
    blocked: dict[tuple[int, int], bool] = {}

    def unfillable(p: int, c: int) -> bool:
        if (p, c) not in blocked:
            blocked[p, c] = _blocked(board, p, c)
        return blocked[p, c]

    def gains(p: int, c: int, had: int) -> bool:
        """Whether ``c`` filling its own liberty ``p`` leaves its chain more liberties than ``had``."""
        try:
            captures, suicide, _ = board.analyse(p, c, False)
        except BoardError:
            return False
        trial = board.copy()
        trial.place(p, c, captures, suicide)
        return len(trial.liberties(p)) > had

    candidates: dict[int, set[int]] = {}  # chain head -> its liberties
    for head in heads:
        c = color[head]
        libs = board.liberties(head)
        if len(libs) < 2 or not all(unfillable(q, 3 - c) for q in libs):
            continue
        if not any(gains(q, c, len(libs)) for q in libs):
            candidates[head] = libs
    changed = True
    while changed:
        changed = False
        for head in list(candidates):
            c = color[head]
            partner = False
            for q in candidates[head]:
                for r in (q + 1, q - 1, q + w, q - w):
                    if color[r] == 3 - c and board.head[r] in candidates:
                        partner = True
                        break
                if partner:
                    break
            if not partner:
                del candidates[head]
                changed = True
    return {board.xy(p) for head in candidates for p in heads[head] if color[p] != EMPTY}
