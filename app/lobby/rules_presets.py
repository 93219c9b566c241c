"""Rules preset names and their default komi, as the lobby offers them: read from the rules engine."""

from __future__ import annotations

from app.rules import PRESETS


def preset_names() -> list[str]:
    return list(PRESETS)


def is_preset(name: str) -> bool:
    return name in PRESETS


def default_komi(name: str, handicap: int = 0) -> float:
    """The preset's komi; with a handicap black gets no compensation beyond the half point tie-breaker."""
    if handicap >= 2:
        return 0.5
    return PRESETS[name].komi
