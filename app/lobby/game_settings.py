"""A new game's configuration, built once from the settings a player chose and checked by the game's own rules.

Every way a game starts (a challenge accepted, a practice board, any later one) builds its configuration here,
and the lobby validates a challenge's settings with the same function when it is made, so a combination the
game cannot play is refused at creation and never reaches a room. The result is stored whole with the game
(``games.config``) and the room reads exactly that back: later changes to the defaults never alter a game
already started.
"""

from __future__ import annotations

from typing import Any

from app.errors import ServiceError
from app.games.config import GameConfig, parse_config
from app.games.errors import GameError
from app.lobby import rules_presets

DEFAULT_TIME_CONTROL: dict[str, Any] = {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30}


class InvalidGameSettings(ServiceError):
    """Settings the game cannot play: HTTP 422 with the game's own explanation."""

    def __init__(self, message: str) -> None:
        super().__init__("invalid_request", message, 422)


def build_config(*, board_size: int, rules: str, komi: float | None, handicap: int, time_control: Any) -> GameConfig:
    """The full configuration of a game; ``komi`` None means the preset's (0.5 with a handicap)."""
    if not rules_presets.is_preset(rules):
        raise InvalidGameSettings(f"unknown rules preset; choose one of {', '.join(rules_presets.preset_names())}")
    if komi is None:
        komi = rules_presets.default_komi(rules, handicap)
    try:
        return parse_config(
            {
                "size": board_size,
                "rules": {"preset": rules, "komi": komi},
                "handicap": handicap,
                "time_control": time_control,
            }
        )
    except GameError as exc:
        raise InvalidGameSettings(exc.message) from None


def game_columns(config: GameConfig) -> dict[str, Any]:
    """The ``games`` row of a configuration: the whole of it, and the columns lists and searches read."""
    return {
        "board_size": config.size,
        "rules": config.rules.name,
        "komi": config.rules.komi,
        "handicap": config.handicap,
        "time_control": config.time_control.to_dict(),
        "config": config.to_dict(),
    }
