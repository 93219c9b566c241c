"""The play-out oracle of the dead-stone proposals (issue 33): a finished position played out to the end by GNU Go
under area rules, each side capturing every stone it holds dead before passing (``--chinese-rules
--capture-all-dead``); the stones of the position that are gone at the end (captured) are the dead ones.

A stone still on the board when both have passed, but that GNU Go then lists dead (``final_status_list dead``:
it passed without capturing it), is counted dead too. A play-out errs where GNU Go misplays a fight, so its
differences with the other judges are printed for adjudication by the strongest judge, not taken as settled.

Used by ``dead_stone_oracle.py --playout-level``. Needs GNU Go (``tests.support.services.GNUGO``).
"""

from __future__ import annotations

from app.rules.coords import from_gtp, to_gtp
from tests.rules.gtp import Gtp

Point = tuple[int, int]


def stones(rows: list[str], mark: str) -> list[Point]:
    return [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == mark]


def vertices(text: str, size: int) -> set[Point]:
    return {from_gtp(v, size) for v in text.split()} if text.strip() else set()


def played_out_dead(rows: list[str], to_move: str, level: int, max_moves: int | None = None) -> tuple[set[Point], int]:
    """The stones of the position captured when GNU Go plays it out (see the module), and the moves it took.

    The position is set up by playing every black stone, then every white one: no chain of a finished position
    is ever without a liberty on the way, so nothing is captured while it is set up."""
    size = len(rows)
    black, white = stones(rows, "X"), stones(rows, "O")
    gtp = Gtp("--chinese-rules", "--capture-all-dead", "--level", str(level))
    try:
        gtp.batch([f"boardsize {size}", "clear_board", "komi 7"])
        setup = [f"play B {to_gtp(p, size)}" for p in black] + [f"play W {to_gtp(p, size)}" for p in white]
        refused = [text for ok, text in gtp.batch(setup) if not ok]
        if refused:
            raise RuntimeError(f"GNU Go refused the position: {refused[0]}")
        colour, passes, moves = to_move, 0, 0
        limit = max_moves or 2 * size * size
        while passes < 2 and moves < limit:
            move = gtp.one(f"genmove {colour}").lower()
            moves += 1
            passes = passes + 1 if move in ("pass", "resign") else 0
            colour = "W" if colour == "B" else "B"
        on_board = {"X": vertices(gtp.one("list_stones black"), size), "O": vertices(gtp.one("list_stones white"), size)}
        still_dead = vertices(gtp.one("final_status_list dead"), size)
    finally:
        gtp.close()
    dead = {p for p in black if p not in on_board["X"] or p in still_dead}
    dead |= {p for p in white if p not in on_board["O"] or p in still_dead}
    return dead, moves
