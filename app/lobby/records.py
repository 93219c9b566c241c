"""A stored game as an SGF game record (for downloads)."""

from __future__ import annotations

from typing import Any

from app.records.sgf import GameRecord, RecordMove
from app.rules import fixed_handicap_points
from app.store.models import Move
from app.store.repositories.games import GameWithPlayers


def _time_left(clock: dict[str, Any] | None, color: str) -> float | None:
    mine = (clock or {}).get(color)
    if not mine:
        return None
    if mine.get("main"):
        return float(mine["main"])
    return mine.get("period_left")


def _overtime(time_control: dict[str, Any]) -> tuple[float | None, str]:
    kind = time_control.get("kind", "none")
    main = time_control.get("main")
    if kind in ("byoyomi", "chinese_countdown"):
        period = time_control.get("period_time", 60)
        return main, f"{time_control.get('periods')}x{period} byo-yomi"
    if kind == "canadian":
        return main, f"{time_control.get('stones')}/{time_control.get('period_time')} Canadian"
    if kind == "fischer":
        return main, f"{time_control.get('increment')} fischer"
    if kind == "absolute":
        return main, ""
    return None, ""


def game_record(row: GameWithPlayers, moves: list[Move]) -> GameRecord:
    game = row.game
    main, overtime = _overtime(game.time_control or {})
    handicap = fixed_handicap_points(game.board_size, game.handicap) if game.handicap >= 2 else []
    return GameRecord(
        size=game.board_size,
        rules=game.rules,
        komi=game.komi,
        handicap=[(x, y) for x, y in handicap],
        black=row.black.name,
        white=row.white.name,
        date=game.started_at.date().isoformat(),
        result=game.result or "",
        main_time=main,
        overtime=overtime,
        moves=[
            RecordMove(
                color=move.color,
                point=None if move.x is None or move.y is None else (move.x, move.y),
                time_left=_time_left(move.clock_after, move.color),
            )
            for move in moves
        ],
    )
