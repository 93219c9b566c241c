"""A game under one rule set: turns, moves, passes, history (ko and superko), undo, scoring hooks.

One module over 400 lines: moves, history, undo and checkpoint/rollback share the game's private state (the
board's repetition set, the situation counts), which splitting them apart would have to expose.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, NamedTuple

from .board import BLACK, EMPTY, NO_POINT, WHITE, Board, BoardError
from .coords import check_size
from .dead import estimate_on_board, propose_dead_on_board
from .errors import IllegalMove
from .handicap import fixed_handicap_points
from .legality import Legality, illegal_points
from .ruleset import PRESETS, RuleSet
from .scoring import Score, score_position
from .seki import seki_points

Point = tuple[int, int]
_CODE = {"B": BLACK, "W": WHITE}


def opponent(color: str) -> str:
    if color == "B":
        return "W"
    if color == "W":
        return "B"
    raise ValueError(f"colour must be 'B' or 'W', not {color!r}")


class Move(NamedTuple):
    color: str
    point: Point | None  # None for a pass


class Checkpoint(NamedTuple):
    """What :meth:`Game.rollback` needs to put a game back as it was at :meth:`Game.checkpoint`.

    The game changes only by appending to its move list (a move or a pass), by ending and by an undo (which
    replaces the list), so the list as it was and the end flags are enough to rebuild it exactly, and in the
    usual case (nothing changed) to keep it as it is.
    """

    moves: list[Move]
    length: int
    ended: bool
    over: bool
    no_result: bool


_NEXT = {"B": "W", "W": "B"}
_ENTRIES: dict[int, dict[str, dict[Point, tuple[int, Move]]]] = {}


def _entries(size: int) -> dict[str, dict[Point, tuple[int, Move]]]:
    """Per colour, each point -> (its board index, the Move that records it); one shared table per size.

    A dict lookup with the point then checks it and converts it in one step, and moves share these
    (immutable) Move values.
    """
    table = _ENTRIES.get(size)
    if table is None:
        stride = size + 2
        table = _ENTRIES[size] = {
            color: {(x, y): ((y + 1) * stride + x + 1, Move(color, (x, y))) for y in range(size) for x in range(size)}
            for color in ("B", "W")
        }
    return table


class Game:
    """The authoritative position of one game. Every public mutator leaves the game unchanged on error."""

    def __init__(
        self,
        size: int = 19,
        rules: RuleSet | None = None,
        handicap: int = 0,
        handicap_points: Iterable[Point] | None = None,
    ):
        self.size = check_size(size)
        self.rules = rules if rules is not None else PRESETS["chinese"]
        if not isinstance(self.rules, RuleSet):
            raise ValueError("rules must be a RuleSet (see rules_for)")
        if handicap_points is not None:
            given = [tuple(p) for p in handicap_points]
            if handicap and handicap != len(given):
                raise ValueError(f"handicap {handicap} does not match {len(given)} given handicap points")
            if len(given) == 1 or len(given) > size * size - 1:
                raise ValueError("a handicap is from 2 stones up")
            if len(set(given)) != len(given):
                raise ValueError("handicap points must be distinct")
            for p in given:
                if not (len(p) == 2 and all(isinstance(v, int) for v in p) and 0 <= p[0] < size and 0 <= p[1] < size):
                    raise ValueError(f"handicap point {p!r} is off the board")
            points: list[Point] = [(p[0], p[1]) for p in given]
        elif handicap in (0, None):
            points = []
        else:
            if handicap == 1:
                raise ValueError("a handicap is from 2 stones up (play with handicap 0 and komi 0 for one stone)")
            points = fixed_handicap_points(size, handicap)
        self.handicap_points: list[Point] = points
        self.handicap = len(points)
        self._board = Board(size)
        self._entries = _entries(size)
        board = self._board
        for x, y in points:
            board.setup(board.index(x, y), BLACK)
        self.to_move = "W" if points else "B"
        self.moves: list[Move] = []
        # the points each move removed, by the move's index in ``moves`` (a move that removed nothing has no
        # entry): kept as ``play`` learns them, so a client can be told each move's captures without a replay
        self.captures: dict[int, list[Point]] = {}
        self.prisoners = {"B": 0, "W": 0}
        self.consecutive_passes = 0
        self.no_result = False
        self._ended = False
        self._ko_mode = self.rules.ko
        self._multi = self.rules.multi_stone_suicide
        self._seen: set[int] = set()
        self._situations: Counter[int] = Counter()
        if self._ko_mode == "situational":
            board.key_xor = board.situation_xor
        # the board checks and extends the history set itself (not under simple ko)
        if self._ko_mode != "simple":
            board.seen = self._seen
        self._seen.add(board.history_key(board.hash, _CODE[opponent(self.to_move)]))
        board.multi = self._multi
        self._tracking = self._ko_mode == "simple" or self.rules.triple_ko_no_result
        self._over = False
        self._setup: tuple[list[Point], list[Point], str | None] | None = None  # add_setup's stones, for replays
        # illegal_points' answer, with the (moves, side to move, hash) it is for: the moves only grow between
        # rebuilds (undo and rollback start from a fresh game), so that key names one position and history
        self._illegal: tuple[tuple[int, str, int], tuple[Point, ...]] | None = None
        # what illegal_points works from (:class:`.legality.Legality`), for the board it was made for and kept
        # up to date move by move while it is asked after every move
        self._legality: Legality | None = None

    # -- state ---------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self._ended or self.no_result

    @property
    def hash(self) -> int:
        return self._board.hash

    @property
    def ko_point(self) -> Point | None:
        ko = self._board.ko
        return None if ko == NO_POINT else self._board.xy(ko)

    def board_rows(self) -> list[str]:
        return self._board.rows()

    @property
    def setup(self) -> tuple[list[Point], list[Point], str | None] | None:
        """The setup stones (Black's, White's) and the side they gave the first move to, or None (no setup)."""
        return self._setup

    def stone_at(self, point: Point) -> str | None:
        x, y = point
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ValueError(f"point {point!r} is off the board")
        c = self._board.color[self._board.index(x, y)]
        return "B" if c == BLACK else "W" if c == WHITE else None

    def end(self) -> None:
        """End the game from outside (the authority decides when); play and pass then raise game_over."""
        self._ended = True
        self._over = True

    def resume(self) -> None:
        """Undo :meth:`end` (for example when players resume after disagreeing on dead stones)."""
        self._ended = False
        self._over = self.no_result

    def add_setup(self, black: Iterable[Point], white: Iterable[Point], to_move: str | None = None) -> None:
        """Put setup stones down before the first move (an SGF record's AB and AW at its root).

        Setup stones capture nothing and leave no ko; the position they make is the start of the history.
        ValueError (and nothing changed) after a move, for a point off the board or a point given twice.
        """
        if self.moves:
            raise ValueError("setup stones go down before the first move")
        stones: list[tuple[int, Point]] = [(BLACK, (p[0], p[1])) for p in black] + [(WHITE, (p[0], p[1])) for p in white]
        if len({p for _, p in stones}) != len(stones):
            raise ValueError("a setup point is given twice")
        board = self._board.copy()
        for code, point in stones:
            try:
                board.setup(self._index(point), code)
            except (IllegalMove, BoardError) as exc:
                raise ValueError(f"setup stone at {point!r}: {exc}") from None
        if to_move is not None and to_move not in _CODE:
            raise ValueError(f"colour must be 'B' or 'W', not {to_move!r}")
        board.seen = self._board.seen
        self._board = board
        if to_move is not None:
            self.to_move = to_move
        self._setup = ([p for c, p in stones if c == BLACK], [p for c, p in stones if c == WHITE], to_move)
        self._seen.clear()  # the set the board shares: the history starts at the set-up position
        self._seen.add(board.history_key(board.hash, _CODE[opponent(self.to_move)]))

    def set_to_move(self, color: str) -> None:
        """Give the turn to ``color`` (a record may have one colour play twice, or say who plays first)."""
        if color not in _CODE:
            raise ValueError(f"colour must be 'B' or 'W', not {color!r}")
        self.to_move = color

    # -- moves ---------------------------------------------------------------------------------
    def _index(self, point: Any) -> int:
        try:
            x, y = point
        except (TypeError, ValueError):
            raise IllegalMove("off_board", f"not a board point: {point!r}") from None
        size = self.size
        if type(x) is not int or type(y) is not int or not (0 <= x < size and 0 <= y < size):
            raise IllegalMove("off_board", f"point {point!r} is off the {size}x{size} board")
        return (y + 1) * self._board.stride + x + 1

    def _check(self, color: str, point: Any) -> tuple[int, int, list[int], bool, int]:
        if self.over:
            raise IllegalMove("game_over")
        if color != self.to_move:
            raise self._wrong_turn(color)
        p = self._lookup(color, point)[0]
        c = _CODE[color]
        try:
            captures, suicide, new_hash = self._board.analyse(p, c, self._multi)
        except BoardError as exc:
            raise IllegalMove(exc.reason) from None
        if self._ko_mode != "simple" and self._board.history_key(new_hash, c) in self._seen:
            raise IllegalMove("superko")
        return p, c, captures, suicide, new_hash

    def _lookup(self, color: str, point: Any) -> tuple[int, Move]:
        """(board index, Move) for a point given as any pair of ints; raises IllegalMove("off_board")."""
        try:
            return self._entries[color][point]
        except (KeyError, TypeError):
            pass
        p = self._index(point)  # raises off_board unless it is two ints on the board (e.g. a list)
        return self._entries[color][self._board.xy(p)]

    def play(self, color: str, point: Point) -> list[Point]:
        """Play a stone; returns the captured points (the mover's own stones for a legal multi-stone suicide),
        the list ``captures`` keeps for this move (callers do not change it).

        Raises IllegalMove (and changes nothing) when the rules forbid the move.
        """
        if self._over:
            raise IllegalMove("game_over")
        if color != self.to_move:
            raise self._wrong_turn(color)
        try:
            p, move = self._entries[color][point]
        except (KeyError, TypeError):
            p, move = self._lookup(color, point)
        board = self._board
        try:
            removed = board.play(p, _CODE[color])
        except BoardError as exc:
            raise IllegalMove(exc.reason) from None
        nxt = self.to_move = _NEXT[color]
        self.moves.append(move)
        self.consecutive_passes = 0
        if self._tracking:
            self._track(_CODE[color])
        if not removed:
            return []
        # after a (legal, multi-stone) suicide the played point is empty again
        self.prisoners[nxt if board.color[p] == 0 else color] += len(removed)
        xy = board.xy
        captured = self.captures[len(self.moves) - 1] = [xy(s) for s in removed]
        return captured

    def _track(self, mover: int) -> None:
        board = self._board
        if board.seen is None:
            self._seen.add(board.history_key(board.hash, mover))
        if self.rules.triple_ko_no_result:
            situation = board.hash ^ board.situation_xor[mover]
            self._situations[situation] += 1
            if self._situations[situation] >= 3:
                self.no_result = True
                self._over = True

    def _wrong_turn(self, color: str) -> Exception:
        if color not in ("B", "W"):
            return ValueError(f"colour must be 'B' or 'W', not {color!r}")
        return IllegalMove("not_your_turn", f"it is {self.to_move}'s turn, not {color}'s")

    def pass_turn(self, color: str) -> None:
        if self.over:
            raise IllegalMove("game_over")
        if color != self.to_move:
            raise self._wrong_turn(color)
        board = self._board
        board.ko = NO_POINT
        self.to_move = opponent(color)
        self.moves.append(Move(color, None))
        self.consecutive_passes += 1
        self._seen.add(board.history_key(board.hash, _CODE[color]))

    def is_legal(self, color: str, point: Point) -> bool:
        """Whether ``play(color, point)`` would succeed now."""
        try:
            self._check(color, point)
        except IllegalMove:
            return False
        return True

    def legal_points(self) -> set[Point]:
        """Every point where the side to move may play (empty when the game is over)."""
        if self.over:
            return set()
        out = set()
        board = self._board
        color = board.color
        for p in board.points:
            if color[p] == EMPTY:
                point = board.xy(p)
                try:
                    self._check(self.to_move, point)
                except IllegalMove:
                    continue
                out.add(point)
        return out

    def illegal_points(self) -> list[Point]:
        """The empty points where the side to move may not play now (suicide, ko, superko per the rules), in
        row order; empty when the game is over. Worked out once per position and side to move
        (:mod:`.legality`), however often it is asked."""
        if self.over:
            return []
        board = self._board
        key = (len(self.moves), self.to_move, board.hash)
        cached = self._illegal
        if cached is None or cached[0] != key:
            xy = board.xy
            cached = self._illegal = (key, tuple(xy(p) for p in illegal_points(self._follow(), _CODE[self.to_move])))
        return list(cached[1])

    def _follow(self) -> Legality:
        """The :class:`.legality.Legality` of the board as it is now: the one kept, brought up to date with the
        last move when it was made one move ago, else a new one (after an undo, a rollback or a move nobody asked
        about; its history comes from a replay then)."""
        board = self._board
        n = len(self.moves)
        state = self._legality
        if state is not None and state.board is board:
            if state.moves == n:
                return state
            if state.moves == n - 1:
                move = self.moves[-1]
                if move.point is None:
                    state.step(NO_POINT, [], _CODE[move.color])
                else:
                    index = self._entries[move.color][move.point][0]
                    removed = [self._index(q) for q in self.captures.get(n - 1, ())]
                    state.step(index, removed, _CODE[move.color])
                return state
        state = self._legality = Legality(board, n, self._history() if board.seen is not None else None)
        return state

    def _history(self) -> list[tuple[int, int]]:
        """The repetition history as (stones of the position, key) pairs, from a replay of the game's moves."""
        g = self._start()
        board = g._board
        stones = sum(1 for p in board.points if board.color[p])
        out = [(stones, key) for key in g._seen]
        for mv in self.moves:
            stones += (mv.point is not None) - len(g._redo(mv))
            out.append((stones, board.history_key(board.hash, _CODE[mv.color])))
        return out

    def illegal_reason(self, color: str, point: Point) -> str | None:
        """Why ``play(color, point)`` would fail now (an :class:`IllegalMove` reason), or ``None``. When the side
        to move's illegal points are already known for this position, a legal point is told by them."""
        cached = self._illegal
        if cached is not None and color == self.to_move and not self.over:
            try:
                p = self._entries[color][point][0]
            except (KeyError, TypeError):
                p = -1
            board = self._board
            if p >= 0 and not board.color[p] and point not in cached[1] and cached[0] == (len(self.moves), color, board.hash):
                return None
        try:
            self._check(color, point)
        except IllegalMove as exc:
            return exc.reason
        return None

    # -- history -------------------------------------------------------------------------------
    def undo(self) -> Move:
        """Take back the last move or pass, restoring position, prisoners, ko state and history exactly."""
        if not self.moves:
            raise IndexError("there is no move to undo")
        if self._ended:
            raise ValueError("the game has ended; resume it before undoing")
        last = self.moves[-1]
        self._rebuild(self.moves[:-1], ended=False)
        return last

    def checkpoint(self) -> Checkpoint:
        """A cheap mark of the game as it is now, for :meth:`rollback` (see :class:`Checkpoint`)."""
        return Checkpoint(self.moves, len(self.moves), self._ended, self._over, self.no_result)

    def rollback(self, mark: Checkpoint) -> None:
        """Put the game back exactly as it was at ``mark`` (a no-op when nothing changed since)."""
        if (
            self.moves is mark.moves
            and len(self.moves) == mark.length
            and self._ended == mark.ended
            and self._over == mark.over
            and self.no_result == mark.no_result
        ):
            return
        self._rebuild(mark.moves[: mark.length], ended=mark.ended)

    def _rebuild(self, moves: list[Move], ended: bool) -> None:
        fresh = self._replay(moves)
        if ended:
            fresh.end()
        self.__dict__.update(fresh.__dict__)

    def _replay(self, moves: list[Move]) -> "Game":
        g = self._start()
        for mv in moves:
            g._redo(mv)
        return g

    def _start(self) -> "Game":
        """A new game as this one was before its first move (handicap and setup stones down)."""
        g = Game(self.size, self.rules, handicap_points=self.handicap_points or None)
        if self._setup is not None:
            g.add_setup(*self._setup)
        return g

    def _redo(self, mv: Move) -> list[Point]:
        """Play a recorded move or pass (by whichever colour it names); returns the removed points."""
        if mv.color != self.to_move:
            self.set_to_move(mv.color)
        if mv.point is None:
            self.pass_turn(mv.color)
            return []
        return self.play(mv.color, mv.point)

    def copy(self) -> "Game":
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._board = self._board.copy()
        g.moves = list(self.moves)
        g.captures = dict(self.captures)
        g.prisoners = dict(self.prisoners)
        g._seen = g._board.seen if g._board.seen is not None else set(self._seen)
        g._situations = Counter(self._situations)
        g.handicap_points = list(self.handicap_points)
        g._legality = None  # made for this game's board
        return g

    def state(self) -> tuple[object, ...]:
        """Everything that defines the game, for exact comparisons (tests, replays)."""
        b = self._board
        return (
            tuple(b.color),
            b.hash,
            b.ko,
            self.to_move,
            tuple(self.moves),
            tuple(sorted(self.prisoners.items())),
            self.consecutive_passes,
            self.no_result,
            frozenset(self._seen),
            tuple(sorted(self._situations.items())),
        )

    def chain(self, point: Point) -> set[Point]:
        """Every stone connected to the stone at ``point`` (empty when the point is empty)."""
        x, y = point
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ValueError(f"point {point!r} is off the board")
        board = self._board
        p = board.index(x, y)
        if board.color[p] == EMPTY:
            return set()
        return {board.xy(q) for q in board.chain(p)}

    # -- scoring -------------------------------------------------------------------------------
    def score(self, dead: Iterable[Point] = ()) -> Score:
        return score_position(self._board, self.rules, self.prisoners, self.handicap, dead)

    def propose_dead(self, playouts: int | None = None) -> set[Point]:
        """The dead stones proposed for the current position (slow on a large board: keep it off an event loop)."""
        return propose_dead_on_board(self._board, _CODE[self.to_move], playouts)

    def seki_stones(self) -> set[Point]:
        """The stones of the chains in seki on the board as it lies (``app.rules.seki``: neither side can approach)."""
        return seki_points(self._board)

    def estimate(self, playouts: int | None = None) -> tuple[set[Point], list[list[float]]]:
        """The proposed dead stones and each point's ownership (+1 Black's in every playout, -1 White's; rows
        from the top), from the same playouts (slow on a large board: keep it off an event loop)."""
        return estimate_on_board(self._board, _CODE[self.to_move], playouts)
