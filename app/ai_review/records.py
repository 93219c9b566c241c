"""Reading an uploaded record for review (pure; run in a study worker process, off the event loop, with a time
limit: ``app.study.workers``): the SGF's main line, its rules and komi, its handicap stones, every move checked
by the rules engine, refused with a code (and the number of the move the rules refuse).

Returned as plain data, so that it crosses back from the worker by value: ``{"refused": code, "message", "move"?}``
or ``{"title", "size", "config", "moves"}``, stored as a game is (``config``: GameConfig.to_dict())."""

from __future__ import annotations

from typing import Any

from app.ai_review.raw import BadMove, replayed
from app.engines.rules import KOMI_LIMIT
from app.games.config import parse_config
from app.games.errors import GameError
from app.records.sgf import SgfError, import_sgf
from app.rules import rules_for

TITLE = 100  # characters of the title kept (the record's table column)


def _refused(code: str, message: str, **details: Any) -> dict[str, Any]:
    return {"refused": code, "message": message, **details}


def _title(black: str, white: str, date: str) -> str:
    players = f"{black or '?'} – {white or '?'}"
    return (f"{players}, {date}" if date else players)[:TITLE]


def read_record(data: bytes | str, max_moves: int) -> dict[str, Any]:
    """The record ``data`` as stored for review, or why it is refused (``bad_sgf``, ``record_too_long``,
    ``illegal_move`` with ``move``, its number from 1)."""
    try:
        record = import_sgf(data)
    except SgfError as exc:
        return _refused("bad_sgf", str(exc))
    if len(record.moves) > max_moves:
        return _refused("record_too_long", f"A record reviewed may hold at most {max_moves} moves, not {len(record.moves)}.")
    if abs(record.komi) > KOMI_LIMIT:
        return _refused("bad_sgf", f"KataGo takes a komi from -{KOMI_LIMIT:g} to {KOMI_LIMIT:g}, not {record.komi:g}.")
    try:
        rules = rules_for(record.rules, komi=record.komi)
        points = [[x, y] for x, y in record.handicap]
        given = {"size": record.size, "rules": rules.to_dict(), "handicap": len(points), "handicap_points": points}
        config = parse_config(given).to_dict()
    except (ValueError, GameError) as exc:
        return _refused("bad_sgf", str(exc))
    moves: list[tuple[str, int | None, int | None]] = [
        (m.color, None if m.point is None else m.point[0], None if m.point is None else m.point[1]) for m in record.moves
    ]
    try:
        replayed(config, moves)
    except BadMove as exc:
        return _refused("illegal_move", str(exc), move=exc.number, reason=exc.reason)
    return {
        "title": _title(record.black, record.white, record.date),
        "size": record.size,
        "config": config,
        "moves": [list(move) for move in moves],
    }
