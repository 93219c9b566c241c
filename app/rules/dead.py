"""Proposing dead stones in a finished position by random playouts (pure Python, deterministic).

From the final position, many games are played out at random to the end with a simple policy:
never fill a point that is an eye of the mover, never put a chain of two or more stones of the
mover into atari (so sekis survive), otherwise any legal move, capturing as the rules do. A chain
whose points end up owned by the opponent in most playouts is proposed dead. The random generator
is seeded from the position, so the same position always gets the same proposal.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .board import BLACK, BORDER, EMPTY, WHITE, Board, BoardError

if TYPE_CHECKING:
    from .game import Game

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


def _playout(board: Board, to_move: int, rng: random.Random, multi: bool, limit: int) -> list[int]:
    color = board.color
    empties = [p for p in board.points if color[p] == EMPTY]
    passes = 0
    c = to_move
    moves = 0
    rand = rng.randrange
    while passes < 2 and moves < limit:
        n = len(empties)
        played = False
        if n:
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
                break
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


def propose_dead_on_board(board: Board, to_move: int, playouts: int | None = None) -> set[Point]:
    if playouts is None:
        playouts = default_playouts(board.size)
    seed = board.hash & 0xFFFFFFFF
    own = ownership_estimate(board, to_move, playouts, seed)
    dead: set[Point] = set()
    done: set[int] = set()
    color = board.color
    for p in board.points:
        c = color[p]
        if c not in (BLACK, WHITE) or p in done:
            continue
        stones = board.chain(p)
        done.update(stones)
        sign = 1 if c == BLACK else -1
        mine = sum(own[s] * sign for s in stones) / len(stones)
        if mine < 0:
            dead.update(board.xy(s) for s in stones)
    return dead


def propose_dead(game: "Game", playouts: int | None = None) -> set[Point]:
    """The dead stones proposed for the current position of ``game``."""
    to_move = BLACK if game.to_move == "B" else WHITE
    return propose_dead_on_board(game._board, to_move, playouts)
