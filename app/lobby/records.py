"""A stored game as an SGF game record (for downloads)."""

from __future__ import annotations

from typing import Any

from app.games.config import GameConfig
from app.records.sgf import GameRecord, RecordMove
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
    if kind == "chinese_countdown":
        return main, f"{time_control.get('periods')}x60 countdown (Chinese rules)"
    if kind == "byoyomi":
        return main, f"{time_control.get('periods')}x{time_control.get('period_time')} byo-yomi"
    if kind == "canadian":
        return main, f"{time_control.get('stones')}/{time_control.get('period_time')} Canadian"
    if kind == "fischer":
        return main, f"{time_control.get('increment')} fischer"
    if kind == "absolute":
        return main, ""
    return None, ""


def game_record(row: GameWithPlayers, moves: list[Move]) -> GameRecord:
    game = row.game
    config = GameConfig.from_dict(game.config)
    time_control = config.time_control.to_dict()
    main, overtime = _overtime(time_control)
    return GameRecord(
        size=config.size,
        rules=config.rules.name,
        komi=config.rules.komi,
        handicap=list(config.handicap_points),
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
