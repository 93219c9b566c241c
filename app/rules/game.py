"""A game under one rule set: turns, moves, passes, history (ko and superko), undo, scoring hooks."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from .board import BLACK, EMPTY, NO_POINT, WHITE, Board, BoardError
from .coords import check_size
from .errors import IllegalMove
from .handicap import fixed_handicap_points
from .ruleset import PRESETS, RuleSet

if TYPE_CHECKING:
    from .scoring import Score

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
        self.prisoners = {"B": 0, "W": 0}
        self.consecutive_passes = 0
        self.no_result = False
        self._ended = False
        self._ko_mode = self.rules.ko
        self._multi = self.rules.multi_stone_suicide
        self._seen: set[int] = set()
        self._situations: Counter[int] = Counter()
        self._seen.add(self._history_key(board.hash, self.to_move))
        # the board checks and extends the history set itself (not under simple ko)
        if self._ko_mode != "simple":
            board.seen = self._seen
        if self._ko_mode == "situational":
            board.key_xor = (0, board.side_key, 0)  # after Black's move White is to move
        board.multi = self._multi
        self._tracking = self._ko_mode == "simple" or self.rules.triple_ko_no_result
        self._over = False

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

    def _history_key(self, board_hash: int, to_move: str) -> int:
        if self._ko_mode == "situational" and to_move == "W":
            return board_hash ^ self._board.side_key
        return board_hash

    def board_rows(self) -> list[str]:
        return self._board.rows()

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
        if self._ko_mode != "simple":
            key = new_hash
            if self._ko_mode == "situational" and color == "B":  # White moves next
                key ^= self._board.side_key
            if key in self._seen:
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
        """Play a stone; returns the captured points (the mover's own stones for a legal multi-stone suicide).

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
            self._track(nxt)
        if not removed:
            return []
        # after a (legal, multi-stone) suicide the played point is empty again
        self.prisoners[nxt if board.color[p] == 0 else color] += len(removed)
        xy = board.xy
        return [xy(s) for s in removed]

    def _track(self, nxt: str) -> None:
        board = self._board
        if board.seen is None:
            self._seen.add(board.hash)
        if self.rules.triple_ko_no_result:
            situation = board.hash ^ (board.side_key if nxt == "W" else 0)
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
        self._seen.add(self._history_key(board.hash, self.to_move))

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

    def illegal_reason(self, color: str, point: Point) -> str | None:
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
        fresh = self._replay(self.moves[:-1])
        last = self.moves[-1]
        self.__dict__.update(fresh.__dict__)
        return last

    def _replay(self, moves: list[Move]) -> "Game":
        g = Game(self.size, self.rules, handicap_points=self.handicap_points or None)
        for mv in moves:
            if mv.point is None:
                g.pass_turn(mv.color)
            else:
                g.play(mv.color, mv.point)
        return g

    def copy(self) -> "Game":
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._board = self._board.copy()
        g.moves = list(self.moves)
        g.prisoners = dict(self.prisoners)
        g._seen = g._board.seen if g._board.seen is not None else set(self._seen)
        g._situations = Counter(self._situations)
        g.handicap_points = list(self.handicap_points)
        return g

    def state(self) -> tuple[object, ...]:
        """Everything that defines the game, for exact comparisons (tests, replays)."""
        b = self._board
        return (
            tuple(b.color), b.hash, b.ko, self.to_move, tuple(self.moves), tuple(sorted(self.prisoners.items())),
            self.consecutive_passes, self.no_result, frozenset(self._seen), tuple(sorted(self._situations.items())),
        )

    # -- scoring -------------------------------------------------------------------------------
    def score(self, dead: Iterable[Point] = ()) -> Score:
        from .scoring import score_game

        return score_game(self, dead)

    def propose_dead(self) -> set[Point]:
        from .dead import propose_dead

        return propose_dead(self)
