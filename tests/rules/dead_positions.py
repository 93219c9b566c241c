"""Finished GNU Go self-play positions with GNU Go's dead stones, kept as small text fixtures.

One file per board size (``tests/rules/data/dead_<size>.txt``), one block per position::

    # level 3 seed 11 game 4 score B+12.5
    to_move W
    dead C3 D4
    seki
    .XO......
    ...

so the dead-stone proposal can be compared with GNU Go again in a second, without GNU Go.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.rules.board import BLACK, WHITE, Board
from app.rules.coords import from_gtp, to_gtp

from tests.rules.positions import stones_hash

DATA = Path(__file__).parent / "data"

Point = tuple[int, int]


@dataclass
class Position:
    rows: list[str]
    to_move: str
    dead: set[Point]  # GNU Go's final_status_list dead
    seki: set[Point]  # GNU Go's final_status_list seki
    note: str = ""

    @property
    def size(self) -> int:
        return len(self.rows)

    def board(self) -> Board:
        b = Board(self.size)
        for y, row in enumerate(self.rows):
            for x, ch in enumerate(row):
                if ch in "XO":
                    b.setup(b.index(x, y), BLACK if ch == "X" else WHITE)
        b.hash = stones_hash(b)
        return b

    def to_text(self) -> str:
        def labels(points: set[Point]) -> str:
            return " ".join(sorted(to_gtp(p, self.size) for p in points))

        return "\n".join(
            [
                f"# {self.note}",
                f"to_move {self.to_move}",
                f"dead {labels(self.dead)}".rstrip(),
                f"seki {labels(self.seki)}".rstrip(),
                *self.rows,
                "",
            ]
        )


def parse(text: str) -> list[Position]:
    out: list[Position] = []
    for block in text.split("# ")[1:]:
        lines = block.strip("\n").split("\n")
        note, to_move, dead, seki, rows = lines[0], lines[1], lines[2], lines[3], lines[4:]
        size = len(rows)
        out.append(
            Position(
                rows=rows,
                to_move=to_move.split()[1],
                dead={from_gtp(w, size) for w in dead.split()[1:]},
                seki={from_gtp(w, size) for w in seki.split()[1:]},
                note=note,
            )
        )
    return out


def load(size: int, data: Path = DATA) -> list[Position]:
    path = data / f"dead_{size}.txt"
    return parse(path.read_text()) if path.exists() else []


@dataclass
class Truth:
    """The adjudicated dead stones of one stored position (``dead_truth_<size>.txt``, by ``bench/adjudicate_dead.py``)."""

    note: str  # the position's note, as in dead_<size>.txt
    dead: set[Point]
    how: str  # how it was settled: the play-out all judges agree with, or the adjudicating judge and what it read

    def to_text(self, size: int) -> str:
        return "\n".join(
            [f"# {self.note}", f"dead {' '.join(sorted(to_gtp(p, size) for p in self.dead))}".rstrip(), f"by {self.how}", ""]
        )


def parse_truths(text: str, size: int) -> dict[str, Truth]:
    out: dict[str, Truth] = {}
    for block in text.split("# ")[1:]:
        note, dead, how = block.strip("\n").split("\n")[:3]
        out[note] = Truth(note, {from_gtp(w, size) for w in dead.split()[1:]}, how.removeprefix("by "))
    return out


def load_truths(size: int, data: Path = DATA) -> dict[str, Truth]:
    """The adjudicated truths of ``load(size)``'s positions, by their note ({} when none are stored)."""
    path = data / f"dead_truth_{size}.txt"
    return parse_truths(path.read_text(), size) if path.exists() else {}
