"""Point conversions: (x, y) with x from the left and y from the top, both 0-based.

GTP labels count columns A..Z without I and rows from 1 at the bottom (``D4``).
SGF coordinates are two letters, column then row from the top (``dd``).
"""

from __future__ import annotations

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"
MIN_SIZE = 2
MAX_SIZE = 25


def check_size(size: int) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size must be an integer from {MIN_SIZE} to {MAX_SIZE}, not {size!r}")
    return size


def on_board(point: tuple[int, int], size: int) -> bool:
    x, y = point
    return 0 <= x < size and 0 <= y < size


def to_gtp(point: tuple[int, int], size: int) -> str:
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"point {point!r} is off a {size}x{size} board")
    return f"{GTP_COLUMNS[x]}{size - y}"


def from_gtp(label: str, size: int) -> tuple[int, int]:
    text = label.strip().upper() if isinstance(label, str) else ""
    if len(text) < 2 or text[0] not in GTP_COLUMNS or not text[1:].isdigit():
        raise ValueError(f"not a board point: {label!r}")
    x = GTP_COLUMNS.index(text[0])
    y = size - int(text[1:])
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"point {label!r} is off a {size}x{size} board")
    return (x, y)


def to_sgf(point: tuple[int, int]) -> str:
    x, y = point
    if not (0 <= x < 26 and 0 <= y < 26):
        raise ValueError(f"point {point!r} has no SGF coordinate")
    return SGF_LETTERS[x] + SGF_LETTERS[y]


def from_sgf(text: str) -> tuple[int, int]:
    if not isinstance(text, str) or len(text) != 2 or any(ch not in SGF_LETTERS for ch in text):
        raise ValueError(f"not an SGF point: {text!r}")
    return (SGF_LETTERS.index(text[0]), SGF_LETTERS.index(text[1]))
