"""The empty points where the side to move may not play: the list the server sends so that clients never judge.

A point with an empty neighbour is never a suicide and never the simple-ko point (the stone that ko captured
had no empty neighbour), so there it is only a repetition that can forbid a move. A point without an empty
neighbour is a capture when it is the one liberty of an opposing chain in atari (then only the ko point and a
repetition forbid it, and :meth:`Board.analyse`, which changes nothing, gives the position after it); otherwise
it is an ordinary move when a neighbouring chain of the mover's is not in atari, and a suicide when none is.
Any other move adds one stone and removes none, so the position after it repeats exactly when the history holds
the board's hash with that stone's key added: a position with one stone more than the board has now. Only the
history's keys of positions with that many stones can be it, and each names at most one point (a table of the
points' keys gives it). Under simple ko there is no history, and the points with an empty neighbour need no
look at all.

:class:`Legality` keeps what that needs for one board and brings it up to date after each move from what the
move changed: the points without an empty neighbour, the chains in atari with their one liberty, and the
history's keys by the number of stones of their position. Only the points next to the played stone and the
removed ones can change the first two (a chain's liberties change only where a point changed); the third grows
by one key a move or pass. So a move costs a look at a handful of points, a check of the few points without an
empty neighbour and a lookup or two, not a pass over the board (bench/legality_bench.py measures the cost per
move).

The bucketing by stones relies on two positions of one game never sharing a key unless they are the same
position, as the history itself does (64-bit Zobrist keys).
"""

from __future__ import annotations

from .board import BLACK, NO_POINT, WHITE, Board

_POINTS_BY_KEY: dict[int, tuple[dict[int, int], ...]] = {}


def _points_by_key(board: Board) -> tuple[dict[int, int], ...]:
    """Indexed by colour code: each point's Zobrist key for that colour -> the point (one table per board size;
    the keys are distinct)."""
    table = _POINTS_BY_KEY.get(board.size)
    if table is None:
        black, white = ({board.keys[c][p]: p for p in board.points} for c in (BLACK, WHITE))
        table = _POINTS_BY_KEY[board.size] = ({}, black, white)
    return table


class Legality:
    """What :func:`illegal_points` needs of ``board``, as it is after its game's first ``moves`` moves.

    ``history`` is the board's repetition history (``board.seen``) as (stones of the position, key) pairs, or
    ``None`` when the board keeps none (simple ko). :meth:`step` follows the next move; anything else (an undo,
    a rollback, a skipped move) needs a new one.
    """

    __slots__ = ("board", "moves", "surrounded", "atari", "stones", "history")

    def __init__(self, board: Board, moves: int, history: list[tuple[int, int]] | None) -> None:
        self.board = board
        self.moves = moves
        color, head, libs, lsum, lsq = board.color, board.head, board.libs, board.lsum, board.lsq
        w = board.stride
        points = board.points
        # the empty points without an empty neighbour
        self.surrounded = {p for p in points if not color[p] and color[p + 1] and color[p - 1] and color[p + w] and color[p - w]}
        # each chain in atari (either colour), by its head: its one liberty (more than 4 pseudo-liberties cannot
        # all be one point)
        self.atari = {
            h: lsum[h] // libs[h]
            for h in points
            if color[h] and head[h] == h and 0 < libs[h] < 5 and libs[h] * lsq[h] == lsum[h] * lsum[h]
        }
        self.stones = sum(1 for p in points if color[p])
        by_stones: dict[int, set[int]] | None = None
        if history is not None:
            by_stones = {}
            for stones, key in history:
                by_stones.setdefault(stones, set()).add(key)
        self.history = by_stones

    def step(self, p: int, removed: list[int], mover: int) -> None:
        """Follow the move just played on the board: a stone of colour ``mover`` at ``p`` (``NO_POINT``: a pass)
        that removed the stones at ``removed`` (the mover's own after a multi-stone suicide)."""
        board = self.board
        self.moves += 1
        if p != NO_POINT:
            color, head, libs, lsum, lsq, nbrs = board.color, board.head, board.libs, board.lsum, board.lsq, board.nbrs
            w = board.stride
            touched = [p, *nbrs[p]]
            for s in removed:
                touched.append(s)
                touched += nbrs[s]
            surrounded = self.surrounded
            # A chain's liberties change only where a point changed colour, so only the chains touching those
            # points are looked at again; a chain that lost its head (captured, or joined to another) goes.
            atari = self.atari
            if atari:
                for s in removed:
                    atari.pop(s, None)
                for h in [h for h in atari if head[h] != h]:
                    del atari[h]
            for q in touched:
                cq = color[q]
                if not cq:
                    if color[q + 1] and color[q - 1] and color[q + w] and color[q - w]:
                        surrounded.add(q)
                    else:
                        surrounded.discard(q)
                elif cq != 3:
                    if q in surrounded:
                        surrounded.remove(q)
                    h = head[q]
                    n = libs[h]
                    t = lsum[h]
                    if n < 5 and n * lsq[h] == t * t:
                        atari[h] = t // n
                    elif h in atari:
                        del atari[h]
            self.stones += 1 - len(removed)
        history = self.history
        if history is not None:
            key = board.hash ^ board.key_xor[mover]  # the key the move or pass added (Board.history_key)
            bucket = history.get(self.stones)
            if bucket is None:
                history[self.stones] = {key}
            else:
                bucket.add(key)


def illegal_points(state: Legality, c: int) -> list[int]:
    """The board indices of the empty points where colour ``c`` may not play now, in board order.

    Suicide (single-stone always, multi-stone unless ``board.multi``), the simple-ko point and, when the board
    keeps a repetition history (``board.seen``), moves that repeat a position (positional or situational
    superko, per ``board.key_xor``).
    """
    board = state.board
    color, head, nbrs = board.color, board.head, board.nbrs
    seen = board.seen
    key_xor = board.key_xor[c]
    o = WHITE if c == BLACK else BLACK
    atari = state.atari
    # the captures: the one liberty of each opposing chain in atari
    captures = {lib for h, lib in atari.items() if color[h] == o} if atari else set()
    out: list[int] = []
    # the points without an empty neighbour that are not captures: an ordinary move when a neighbouring chain of
    # colour c is not in atari, else a suicide (of more than one stone: allowed by some rules, so judged by the
    # position after it)
    suicides: list[int] = []
    for p in state.surrounded:
        if p in captures:
            continue
        own = False
        for q in nbrs[p]:
            if color[q] == c:
                if head[q] not in atari:
                    break
                own = True
        else:
            suicides.append(p)
            if not (own and board.multi):
                out.append(p)
            elif seen is not None and board.analyse(p, c, True)[2] ^ key_xor in seen:
                out.append(p)
    for p in captures:
        if p == board.ko:
            out.append(p)
        elif seen is not None and board.analyse(p, c, board.multi)[2] ^ key_xor in seen:
            out.append(p)
    if seen is not None:
        history = state.history
        assert history is not None, "a board with a repetition history is followed with its history"
        # Any other move adds one stone and removes none, so it repeats a position only if the history has one
        # with that many stones whose key is this base with the stone's key added; each names one point.
        repeats = history.get(state.stones + 1)
        if repeats:
            base = board.hash ^ key_xor
            point_of = _points_by_key(board)[c]
            out += [
                r
                for k in repeats
                if (r := point_of.get(k ^ base)) is not None and not color[r] and r not in captures and r not in suicides
            ]
    out.sort()
    return out
