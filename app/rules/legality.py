"""The empty points where the side to move may not play: the list the server sends so that clients never judge.

A point with an empty neighbour is never a suicide and never the simple-ko point (the stone that ko captured
had no empty neighbour), so there it is only a repetition that can forbid a move. When the move also captures
nothing, the position after it is the board's hash with one stone added, so it repeats exactly when the
history holds that key: one set lookup per point, or, while the history is shorter than the board has points,
one lookup per key of the history in a table of the points' keys (a key names the one point whose move would
bring it back). Only the points without an empty neighbour, and the captures (the one liberty of an
opponent chain in atari), need the full check (:meth:`Board.analyse`, which changes nothing). Under simple ko
there is no history, and the points with an empty neighbour need no look at all.

Each step is one comprehension over the board's points or the history's keys (bench/legality_bench.py measures
the cost per move).
"""

from __future__ import annotations

from .board import BLACK, WHITE, Board, BoardError


_POINTS_BY_KEY: dict[int, tuple[dict[int, int], ...]] = {}


def _points_by_key(board: Board) -> tuple[dict[int, int], ...]:
    """Indexed by colour code: each point's Zobrist key for that colour -> the point (one table per board size;
    the keys are distinct)."""
    table = _POINTS_BY_KEY.get(board.size)
    if table is None:
        black, white = ({board.keys[c][p]: p for p in board.points} for c in (BLACK, WHITE))
        table = _POINTS_BY_KEY[board.size] = ({}, black, white)
    return table


def illegal_points(board: Board, c: int) -> list[int]:
    """The board indices of the empty points where colour ``c`` may not play now, in board order.

    Suicide (single-stone always, multi-stone unless ``board.multi``), the simple-ko point and, when the board
    keeps a repetition history (``board.seen``), moves that repeat a position (positional or situational
    superko, per ``board.key_xor``).
    """
    color = board.color
    w = board.stride
    points = board.points
    seen = board.seen
    multi = board.multi
    # no empty neighbour: a suicide, the ko point, a capture or joining a chain that keeps a liberty elsewhere
    trial = [p for p in points if not color[p] and color[p + 1] and color[p - 1] and color[p + w] and color[p - w]]
    out: list[int] = []
    key_xor = board.key_xor[c]
    if seen is not None:
        o = WHITE if c == BLACK else BLACK
        head, libs, lsum, lsq = board.head, board.libs, board.lsum, board.lsq
        # the one liberty of each opponent chain in atari (more than 4 pseudo-liberties cannot all be one point)
        captures = {
            lsum[h] // libs[h]
            for h in points
            if color[h] == o and head[h] == h and libs[h] < 5 and libs[h] * lsq[h] == lsum[h] * lsum[h]
        }
        # A move that captures nothing has the history key base ^ (its stone's key): one lookup per point, or,
        # when the history is the shorter, one per key of it (a key seen that is base ^ a point's key names it).
        base = board.hash ^ key_xor
        if len(seen) < len(points):
            point_of = _points_by_key(board)[c]
            repeats = [q for k in seen if (q := point_of.get(k ^ base)) is not None]
        else:
            keys = board.keys[c]
            repeats = [p for p in points if base ^ keys[p] in seen]
        surrounded = set(trial)
        out = [p for p in repeats if not color[p] and p not in captures and p not in surrounded]
        trial = sorted(surrounded.union(captures))
    for p in trial:
        try:
            new_hash = board.analyse(p, c, multi)[2]
        except BoardError:
            out.append(p)
            continue
        if seen is not None and new_hash ^ key_xor in seen:
            out.append(p)
    out.sort()
    return out
