"""Tengen's Go rules engine: standard library only, no I/O."""

from .coords import from_gtp, from_sgf, to_gtp, to_sgf
from .errors import REASONS, IllegalMove
from .game import Checkpoint, Game, Move, opponent
from .handicap import fixed_handicap_points, max_fixed_handicap
from .ruleset import PRESETS, RuleSet, rules_for
from .scoring import ColorScore, Score

COLORS = ("B", "W")

__all__ = [
    "COLORS",
    "Checkpoint",
    "ColorScore",
    "Game",
    "IllegalMove",
    "Move",
    "PRESETS",
    "REASONS",
    "RuleSet",
    "Score",
    "fixed_handicap_points",
    "from_gtp",
    "max_fixed_handicap",
    "from_sgf",
    "opponent",
    "rules_for",
    "to_gtp",
    "to_sgf",
]
