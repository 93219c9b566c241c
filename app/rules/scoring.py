"""Counting a finished position: area or territory, seki, komi and handicap compensation.

Ownership maps (rows top to bottom):

- ``ownership``: who each point counts for — ``X`` Black, ``O`` White, ``.`` nobody (dame, or an
  empty point inside a seki under territory scoring). Alive stones are shown as owned by their colour
  under both scorings (for display).
- ``marks``: the detail — ``X``/``O`` alive stones, ``x``/``o`` dead Black/White stones, ``b``/``w``
  Black/White territory (empty points, including points freed by dead stones), ``s`` an empty point
  surrounded by one colour inside a seki that scores nothing (territory scoring only), ``.`` dame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .board import BLACK, BORDER, EMPTY, WHITE, Board
from .ruleset import RuleSet

Point = tuple[int, int]


@dataclass
class ColorScore:
    stones: int = 0
    territory: int = 0
    prisoners: int = 0
    komi: float = 0.0
    compensation: float = 0.0
    total: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "stones": self.stones,
            "territory": self.territory,
            "prisoners": self.prisoners,
            "komi": self.komi,
            "compensation": self.compensation,
            "total": self.total,
        }


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass
class Score:
    scoring: str
    black: ColorScore
    white: ColorScore
    winner: str | None
    margin: float
    ownership: list[str]
    marks: list[str]
    dead: list[Point]
    seki: list[Point]
    dame: int
    chinese_count: dict[str, float] | None = None
    rules: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, color: str) -> ColorScore:
        return {"B": self.black, "W": self.white}[color]

    def result_text(self) -> str:
        if self.winner is None:
            return "Draw"
        return f"{self.winner}+{_fmt(self.margin)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "scoring": self.scoring,
            "B": self.black.to_dict(),
            "W": self.white.to_dict(),
            "winner": self.winner,
            "margin": self.margin,
            "result": self.result_text(),
            "ownership": list(self.ownership),
            "marks": list(self.marks),
            "dead": [list(p) for p in self.dead],
            "seki": [list(p) for p in self.seki],
            "dame": self.dame,
            "chinese_count": self.chinese_count,
        }


def _expand_dead(board: Board, dead: Iterable[Point]) -> set[int]:
    out: set[int] = set()
    size = board.size
    for point in dead:
        try:
            x, y = point
        except (TypeError, ValueError):
            raise ValueError(f"not a board point: {point!r}") from None
        if not (isinstance(x, int) and isinstance(y, int) and 0 <= x < size and 0 <= y < size):
            raise ValueError(f"dead-stone point {point!r} is off the board")
        p = board.index(x, y)
        if board.color[p] not in (BLACK, WHITE):
            raise ValueError(f"there is no stone at {point!r} to mark dead")
        if p not in out:
            out.update(board.chain(p))
    return out


def _seki_points(board: Board, neutral: list[int]) -> set[int]:
    """Neutral empty points neither colour can fill without putting its own chain in atari (or suicide)."""
    out = set()
    w = board.stride
    color = board.color
    for p in neutral:
        blocked = True
        for c in (BLACK, WHITE):
            if not any(color[q] == c for q in (p + 1, p - 1, p + w, p - w)):
                blocked = False
                break
            try:
                captures, suicide, _ = board.analyse(p, c, False)
            except Exception:
                continue  # suicide (or ko): cannot fill
            if captures:
                blocked = False
                break
            trial = board.copy()
            trial.place(p, c, captures, suicide)
            if len(trial.liberties(p)) >= 2:
                blocked = False
                break
        if blocked:
            out.add(p)
    return out


def score_position(board: Board, rules: RuleSet, prisoners: dict[str, int], handicap: int, dead: Iterable[Point] = ()) -> Score:
    size = board.size
    w = board.stride
    dead_set = _expand_dead(board, dead)
    alive = Board(size)
    for p in board.points:
        c = board.color[p]
        if c in (BLACK, WHITE) and p not in dead_set:
            alive.setup(p, c)
    color = alive.color
    region_of: dict[int, int] = {}
    regions: list[tuple[list[int], set[int]]] = []
    for p in alive.points:
        if color[p] != EMPTY or p in region_of:
            continue
        rid = len(regions)
        pts = [p]
        region_of[p] = rid
        borders: set[int] = set()
        i = 0
        while i < len(pts):
            s = pts[i]
            i += 1
            for q in (s + 1, s - 1, s + w, s - w):
                cq = color[q]
                if cq == EMPTY:
                    if q not in region_of:
                        region_of[q] = rid
                        pts.append(q)
                elif cq != BORDER:
                    borders.add(cq)
        regions.append((pts, borders))
    neutral = [p for pts, b in regions if len(b) != 1 for p in pts]
    seki_pts = _seki_points(alive, neutral)
    seki_heads = set()
    for p in seki_pts:
        for q in (p + 1, p - 1, p + w, p - w):
            if color[q] in (BLACK, WHITE):
                seki_heads.add(alive.head[q])
    territory = {BLACK: 0, WHITE: 0}
    owner_of: dict[int, int] = {}
    seki_eyes: set[int] = set()
    for pts, borders in regions:
        if len(borders) != 1:
            continue
        (c,) = borders
        in_seki = False
        if seki_heads:
            for s in pts:
                for q in (s + 1, s - 1, s + w, s - w):
                    if color[q] == c and alive.head[q] in seki_heads:
                        in_seki = True
                        break
                if in_seki:
                    break
        if in_seki and rules.scoring == "territory" and not rules.seki_territory:
            seki_eyes.update(pts)
            continue
        territory[c] += len(pts)
        for s in pts:
            owner_of[s] = c
    stones = {BLACK: 0, WHITE: 0}
    for p in alive.points:
        if color[p] in (BLACK, WHITE):
            stones[color[p]] += 1
    dead_count = {BLACK: 0, WHITE: 0}
    for p in dead_set:
        dead_count[board.color[p]] += 1
    black = ColorScore(stones=stones[BLACK], territory=territory[BLACK])
    white = ColorScore(stones=stones[WHITE], territory=territory[WHITE])
    black.prisoners = prisoners.get("B", 0) + dead_count[WHITE]
    white.prisoners = prisoners.get("W", 0) + dead_count[BLACK]
    white.komi = rules.komi
    white.compensation = rules.compensation(handicap)
    if rules.scoring == "area":
        black.total = black.stones + black.territory
        white.total = white.stones + white.territory
    else:
        black.total = black.territory + black.prisoners
        white.total = white.territory + white.prisoners
    white.total += white.komi + white.compensation
    diff = black.total - white.total
    winner: str | None
    if diff > 0:
        winner, margin = "B", diff
    elif diff < 0:
        winner, margin = "W", -diff
    else:
        winner, margin = ("B" if rules.black_wins_ties else None), 0.0
    ownership, marks = [], []
    for y in range(size):
        orow, mrow = [], []
        for x in range(size):
            p = alive.index(x, y)
            c = color[p]
            if c == BLACK:
                orow.append("X")
                mrow.append("X")
            elif c == WHITE:
                orow.append("O")
                mrow.append("O")
            else:
                own = owner_of.get(p)
                orow.append("X" if own == BLACK else "O" if own == WHITE else ".")
                if p in dead_set:
                    mrow.append("x" if board.color[p] == BLACK else "o")
                elif p in seki_eyes:
                    mrow.append("s")
                else:
                    mrow.append("b" if own == BLACK else "w" if own == WHITE else ".")
        ownership.append("".join(orow))
        marks.append("".join(mrow))
    dame = sum(1 for row in ownership for ch in row if ch == ".")
    total_points = size * size
    black_area = black.stones + black.territory
    chinese = None
    if rules.scoring == "area":
        half = total_points / 2
        give = (white.komi + white.compensation) / 2
        count = black_area + (total_points - black_area - white.stones - white.territory) / 2
        chinese = {
            "black_count": count,
            "half_board": half,
            "black_gives": give,
            "target": half + give,
            "black_over_target": count - (half + give),
        }
    return Score(
        scoring=rules.scoring,
        black=black,
        white=white,
        winner=winner,
        margin=float(margin),
        ownership=ownership,
        marks=marks,
        dead=sorted(board.xy(p) for p in dead_set),
        seki=sorted(board.xy(p) for p in seki_pts),
        dame=dame,
        chinese_count=chinese,
        rules=rules.name,
    )
