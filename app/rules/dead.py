"""Proposing dead stones in a finished position by random playouts (pure Python, deterministic).

From the final position, many games are played out to the end with a simple policy: first answer
the opponent's last move (capture it when it stands in atari; save an own chain it put in atari by
extending, when that gives two liberties); otherwise any random legal move, except filling an eye
of the mover or putting a chain of two or more of the mover's stones into atari (so sekis survive).
The answers make invaders in settled territory die and owners keep their walls, as in a real
ending. Each chain's mean ownership over the playouts (+1: always its own) decides: below 0 it is
dead; below ``MARGIN`` it is dead too, unless an opposing chain touching it is also below
``MARGIN`` (of two weak chains facing each other only one can die). The random generator is seeded
from the position, so the same position always gets the same proposal.
"""

from __future__ import annotations

import random

from .board import BLACK, BORDER, EMPTY, WHITE, Board, BoardError

Point = tuple[int, int]


def _is_eye(board: Board, p: int, c: int) -> bool:
    color = board.color
    w = board.stride
    for q in (p + 1, p - 1, p + w, p - w):
        cq = color[q]
        if cq != c and cq != BORDER:
            return False
    o = 3 - c
    bad = 0
    edge = False
    for q in (p + w + 1, p + w - 1, p - w + 1, p - w - 1):
        cq = color[q]
        if cq == o:
            bad += 1
        elif cq == BORDER:
            edge = True
    return bad == 0 if edge else bad < 2


def _self_atari(board: Board, p: int, c: int) -> bool:
    """Whether playing ``c`` at ``p`` (capturing nothing) leaves a chain of 2+ stones with one liberty."""
    color = board.color
    w = board.stride
    libs = set()
    own = []
    for q in (p + 1, p - 1, p + w, p - w):
        cq = color[q]
        if cq == EMPTY:
            libs.add(q)
        elif cq == c:
            own.append(q)
    if not own or len(libs) >= 2:
        return False
    for q in own:
        libs |= board.liberties(q)
        if len(libs) > 2:
            return False
    libs.discard(p)
    return len(libs) <= 1


def _one_liberty(board: Board, h: int) -> int:
    """The liberty of the chain headed by ``h`` when it has exactly one, else 0."""
    n = board.libs[h]
    t = board.lsum[h]
    if n and n * board.lsq[h] == t * t:
        return t // n
    return 0


def _urgent(board: Board, last: int, c: int) -> list[int]:
    """Answers to the opponent's last move at ``last``: capture it if it stands in atari, else save
    an own chain next to it that it put in atari by extending (when that gives two liberties)."""
    color = board.color
    head = board.head
    out = []
    lib = _one_liberty(board, head[last])
    if lib:
        out.append(lib)
    for q in board.nbrs[last]:
        if color[q] == c:
            lib = _one_liberty(board, head[q])
            if lib and lib not in out:
                out.append(lib)
    return out


def _playout(board: Board, to_move: int, rng: random.Random, multi: bool, limit: int) -> list[int]:
    color = board.color
    empties = [p for p in board.points if color[p] == EMPTY]
    passes = 0
    c = to_move
    moves = 0
    rand = rng.randrange
    last = 0
    while passes < 2 and moves < limit:
        played = False
        if last:
            for p in _urgent(board, last, c):
                try:
                    captures, suicide, _ = board.analyse(p, c, multi)
                except BoardError:
                    continue
                if suicide or (not captures and _self_atari(board, p, c)) or (not captures and _is_eye(board, p, c)):
                    continue
                removed = board.place(p, c, captures, suicide)
                empties.remove(p)
                empties.extend(removed)
                played = True
                last = p
                break
        n = len(empties)
        if n and not played:
            start = rand(n)
            for k in range(n):
                i = (start + k) % n
                p = empties[i]
                if _is_eye(board, p, c):
                    continue
                try:
                    captures, suicide, _ = board.analyse(p, c, multi)
                except BoardError:
                    continue
                if suicide or (not captures and _self_atari(board, p, c)):
                    continue
                removed = board.place(p, c, captures, suicide)
                empties[i] = empties[-1]
                empties.pop()
                empties.extend(removed)
                played = True
                last = p
                break
        if not played:
            last = 0
        passes = 0 if played else passes + 1
        moves += 1
        c = 3 - c
    return color


def ownership_estimate(board: Board, to_move: int, playouts: int, seed: int, multi: bool = False) -> list[float]:
    """For each board index, the share of playouts in which Black owns it minus the share for White."""
    rng = random.Random(seed)
    w = board.stride
    own = [0.0] * len(board.color)
    limit = 3 * board.size * board.size
    for _ in range(playouts):
        b = board.copy()
        final = _playout(b, to_move, rng, multi, limit)
        for p in board.points:
            c = final[p]
            if c == EMPTY:
                seen = 0
                for q in (p + 1, p - 1, p + w, p - w):
                    cq = final[q]
                    if cq == BLACK or cq == WHITE:
                        seen |= cq
                c = seen if seen in (BLACK, WHITE) else EMPTY
            if c == BLACK:
                own[p] += 1
            elif c == WHITE:
                own[p] -= 1
    return [v / playouts for v in own]


def default_playouts(size: int) -> int:
    return 200 if size <= 9 else 120 if size <= 13 else 64


# A chain that keeps its points in barely more playouts than it loses them (mean ownership below
# this margin) is proposed dead, unless an opposing chain next to it is dead or as unsure itself:
# when both players passed, a weak chain in contested ground is lost, but of two weak chains
# facing each other only one can be.
MARGIN = 0.2


def _chains(board: Board) -> list[list[int]]:
    done: set[int] = set()
    out = []
    color = board.color
    for p in board.points:
        if color[p] in (BLACK, WHITE) and p not in done:
            stones = board.chain(p)
            done.update(stones)
            out.append(stones)
    return out


def _touching(board: Board, stones: list[int]) -> set[int]:
    """Heads of the opposing chains next to ``stones`` or sharing a liberty with them."""
    color = board.color
    head = board.head
    nbrs = board.nbrs
    o = 3 - color[stones[0]]
    out = set()
    for s in stones:
        for q in nbrs[s]:
            cq = color[q]
            if cq == o:
                out.add(head[q])
            elif cq == EMPTY:
                for r in nbrs[q]:
                    if color[r] == o:
                        out.add(head[r])
    return out


def propose_dead_on_board(board: Board, to_move: int, playouts: int | None = None, seed: int | None = None) -> set[Point]:
    """The dead stones of ``board`` with ``to_move`` to play, as (x, y) points (``seed``: by default
    from the position)."""
    if playouts is None:
        playouts = default_playouts(board.size)
    if seed is None:
        seed = board.hash & 0xFFFFFFFF
    return dead_from_ownership(board, ownership_estimate(board, to_move, playouts, seed))


def dead_from_ownership(board: Board, own: list[float]) -> set[Point]:
    """The chains that ``own`` (from :func:`ownership_estimate`) says are dead, as (x, y) points."""
    color = board.color
    held: dict[int, float] = {}  # chain head -> mean ownership from the chain's side
    chains = _chains(board)
    for stones in chains:
        sign = 1 if color[stones[0]] == BLACK else -1
        held[board.head[stones[0]]] = sum(own[s] * sign for s in stones) / len(stones)
    dead: set[Point] = set()
    for stones in chains:
        mine = held[board.head[stones[0]]]
        if mine >= MARGIN:
            continue
        if mine >= 0 and any(held[h] < MARGIN for h in _touching(board, stones)):
            continue
        dead.update(board.xy(s) for s in stones)
    return dead


def estimate_on_board(board: Board, to_move: int, playouts: int | None = None) -> tuple[set[Point], list[list[float]]]:
    """The dead stones of ``board`` (as :func:`propose_dead_on_board` proposes them) and the ownership of every
    point (rows from the top; +1 Black's in every playout, -1 White's), from one set of playouts."""
    own = ownership_estimate(board, to_move, playouts or default_playouts(board.size), board.hash & 0xFFFFFFFF)
    size = board.size
    grid = [[own[board.index(x, y)] for x in range(size)] for y in range(size)]
    return dead_from_ownership(board, own), grid
