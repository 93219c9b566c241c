"""Rules preset names and their default komi: the one place the lobby validates them.

When the rules engine's ``app.rules.PRESETS`` lands this module should read names and komi from it instead of
keeping its own table; nothing else in the lobby knows the list.
"""

from __future__ import annotations

DEFAULT_KOMI: dict[str, float] = {
    "chinese": 7.5,
    "japanese": 6.5,
    "korean": 6.5,
    "aga": 7.5,
    "new_zealand": 7.0,
    "ing": 8.0,
}


def preset_names() -> list[str]:
    return list(DEFAULT_KOMI)


def is_preset(name: str) -> bool:
    return name in DEFAULT_KOMI


def default_komi(name: str, handicap: int = 0) -> float:
    """The preset's komi; with a handicap black gets no compensation beyond the half point tie-breaker."""
    if handicap >= 2:
        return 0.5
    return DEFAULT_KOMI[name]
