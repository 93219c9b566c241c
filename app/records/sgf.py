"""SGF FF[4] import and export of game records (with sgfmill).

Points in a :class:`GameRecord` are Tengen's ``(x, y)`` (x from the left, y from the top).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sgfmill import sgf, sgf_grammar

from app.rules.coords import MAX_SIZE, MIN_SIZE

Point = tuple[int, int]


class SgfError(ValueError):
    """The text is not an SGF game record Tengen can read; the message says why."""


@dataclass
class RecordMove:
    color: str  # "B" | "W"
    point: Point | None  # None for a pass
    time_left: float | None = None  # seconds left on the mover's clock after the move (BL/WL)
    comment: str = ""  # C
    winrate: float | None = None  # Black's chance to win after the move, 0..1: written as Sabaki's SBKV (percent)


@dataclass
class GameRecord:
    size: int = 19
    rules: str = "chinese"
    komi: float = 7.5
    handicap: list[Point] = field(default_factory=list)
    black: str = ""
    white: str = ""
    date: str = ""
    result: str = ""
    main_time: float | None = None  # TM, seconds
    overtime: str = ""  # OT, free text such as "5x30 byo-yomi"
    moves: list[RecordMove] = field(default_factory=list)


RU_NAMES = {
    "chinese": "Chinese",
    "japanese": "Japanese",
    "korean": "Korean",
    "aga": "AGA",
    "new_zealand": "NZ",
    "ing": "Ing",
}
_RU_IN = {
    "chinese": "chinese",
    "cn": "chinese",
    "japanese": "japanese",
    "jp": "japanese",
    "korean": "korean",
    "aga": "aga",
    "nz": "new_zealand",
    "new zealand": "new_zealand",
    "new_zealand": "new_zealand",
    "ing": "ing",
    "goe": "ing",
}


def rules_from_ru(ru: str) -> str | None:
    """A preset name for an SGF RU value, or None when Tengen does not know it."""
    return _RU_IN.get(ru.strip().lower())


def to_sgf(point: Point, size: int) -> tuple[int, int]:
    """A point (x from the left, y from the top) as sgfmill's (row from the bottom, column)."""
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise SgfError(f"point {point!r} is off the {size}x{size} board")
    return (size - 1 - y, x)


def from_sgf(move: tuple[int, int], size: int) -> Point:
    """sgfmill's (row from the bottom, column) as a point (x from the left, y from the top)."""
    row, col = move
    return (col, size - 1 - row)


def new_sgf(size: int, rules: str, komi: float) -> tuple[sgf.Sgf_game, sgf.Tree_node]:
    """An SGF game and its root node with what every record Tengen writes starts with: the character set, the
    application, the rules (their SGF name) and the komi."""
    game = sgf.Sgf_game(size)
    root = game.get_root()
    root.set("CA", "UTF-8")
    root.set("AP", ("Tengen", "1"))
    root.set("RU", RU_NAMES.get(rules, rules))
    root.set("KM", float(komi))
    return game, root


def export_sgf(record: GameRecord) -> str:
    """The record as SGF FF[4] text (GM[1], CA[UTF-8])."""
    size = record.size
    if not (MIN_SIZE <= size <= MAX_SIZE):
        raise SgfError(f"board size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
    game, root = new_sgf(size, record.rules, record.komi)
    if record.handicap:
        root.set("HA", len(record.handicap))
        root.set_setup_stones([to_sgf(p, size) for p in record.handicap], [])
    if record.black:
        root.set("PB", record.black)
    if record.white:
        root.set("PW", record.white)
    if record.date:
        root.set("DT", record.date)
    if record.result:
        root.set("RE", record.result)
    if record.main_time is not None:
        root.set("TM", float(record.main_time))
    if record.overtime:
        root.set("OT", record.overtime)
    for mv in record.moves:
        if mv.color not in ("B", "W"):
            raise SgfError(f"move colour must be B or W, not {mv.color!r}")
        node = game.extend_main_sequence()
        if mv.point is None:
            node.set_raw(mv.color, b"")  # FF[4] writes a pass as an empty value ("tt" is FF[3]'s)
        else:
            node.set_move(mv.color.lower(), to_sgf(mv.point, size))
        if mv.time_left is not None:
            node.set(mv.color + "L", float(mv.time_left))
        if mv.comment:
            node.set("C", mv.comment)
        if mv.winrate is not None:
            node.set_raw("SBKV", f"{mv.winrate * 100:.2f}".encode())
    return game.serialise().decode("utf-8")


def read_game(data: bytes | str) -> sgf.Sgf_game:
    """The first game of an SGF record, its text read in the character set it is written in (ValueError when it
    is not SGF). Bytes are read in the set their ``CA`` names; without ``CA``, as UTF-8 when they are valid
    UTF-8 (what nearly every program writes now, whatever the language), else as Latin-1, FF[4]'s default, which
    sgfmill alone would use for every record without ``CA``. Text (``str``) is characters already, decoded from
    its file before it came here: it is read as such, whatever its ``CA`` said of that file."""
    if isinstance(data, str):
        return sgf.Sgf_game.from_string(data)
    coarse = sgf_grammar.parse_sgf_game(data)
    encoding = None
    if "CA" not in coarse.sequence[0]:
        try:
            data.decode("utf-8")
            encoding = "UTF-8"
        except UnicodeDecodeError:
            pass  # Latin-1
    return sgf.Sgf_game.from_coarse_game_tree(coarse, encoding)


def _get(node: sgf.Tree_node, ident: str, default: Any = None) -> Any:
    try:
        return node.get(ident) if node.has_property(ident) else default
    except ValueError as exc:
        raise SgfError(f"bad {ident} property: {exc}") from None


def import_sgf(text: str | bytes) -> GameRecord:
    """Read the main line of an SGF game; SgfError for anything malformed or unsupported."""
    try:
        game = read_game(text)
    except ValueError as exc:
        raise SgfError(f"not a valid SGF game record: {exc}") from None
    except Exception as exc:  # sgfmill is strict on odd input; never let it crash a caller
        raise SgfError(f"not a valid SGF game record: {exc}") from None
    size = game.get_size()
    if not (MIN_SIZE <= size <= MAX_SIZE):
        raise SgfError(f"board size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
    root = game.get_root()
    record = GameRecord(size=size)
    ru = _get(root, "RU", "")
    record.rules = (rules_from_ru(ru) or ru) if ru else "chinese"
    try:
        komi = game.get_komi()
    except ValueError as exc:
        raise SgfError(f"bad KM property: {exc}") from None
    record.komi = float(komi) if root.has_property("KM") else (7.5 if record.rules == "chinese" else 0.0)
    try:
        black_setup, white_setup, empty_setup = root.get_setup_stones()
    except ValueError as exc:
        raise SgfError(f"bad setup stones: {exc}") from None
    if white_setup or empty_setup:
        raise SgfError("setup stones other than Black's handicap (AW, AE) are not supported")
    record.handicap = sorted(from_sgf(m, size) for m in black_setup)
    ha = _get(root, "HA")
    if ha is not None and record.handicap and ha != len(record.handicap):
        raise SgfError(f"HA[{ha}] does not match {len(record.handicap)} AB stones")
    record.black = _get(root, "PB", "") or ""
    record.white = _get(root, "PW", "") or ""
    record.date = _get(root, "DT", "") or ""
    record.result = _get(root, "RE", "") or ""
    tm = _get(root, "TM")
    record.main_time = float(tm) if tm is not None else None
    record.overtime = _get(root, "OT", "") or ""
    for number, node in enumerate(game.get_main_sequence()[1:], start=1):
        try:
            colour, move = node.get_move()
        except ValueError as exc:
            raise SgfError(f"move {number}: {exc}") from None
        if colour is None:
            if node.has_setup_stones():
                raise SgfError(f"node {number}: setup stones in the middle of a game are not supported")
            continue
        point = None if move is None else from_sgf(move, size)
        left = _get(node, colour.upper() + "L")
        record.moves.append(RecordMove(colour.upper(), point, float(left) if left is not None else None))
    return record
