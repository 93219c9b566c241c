"""Tengen's rule sets as KataGo's rules: the position a game is in, as a question KataGo can answer.

Every ``RuleSet`` (each preset and any custom combination) is sent as KataGo's rules object, never by name, so
that what KataGo assumes is exactly what the rules engine counts: ko (simple, positional, situational), scoring
(area, territory), the tax (territory scoring without points in seki: ``SEKI``), multi-stone suicide, no
button, and White's handicap bonus under area scoring (none, N, N-1). Komi is the game's, handicap stones are
set up as they lie. What KataGo cannot express is stated in docs/rules.md ("KataGo's rules"): Black winning ties
(Ing), a triple ko voiding the game (Japanese, Korean), and a komi beyond KataGo's -400..400.
"""

from __future__ import annotations

from typing import Any

from app.engines.analysis import Colour, Point, Position
from app.rules.game import Game
from app.rules.ruleset import RuleSet

KOMI_LIMIT = 400.0  # KataGo refuses a komi beyond this

_KO = {"simple": "SIMPLE", "positional": "POSITIONAL", "situational": "SITUATIONAL"}
_BONUS = {"none": "0", "n": "N", "n_minus_1": "N-1"}


class RulesNotMapped(ValueError):
    """A rule set KataGo cannot be told (a komi beyond its range)."""


def katago_rules(rules: RuleSet) -> dict[str, Any]:
    """KataGo's rules object for ``rules`` (its analysis engine's ``rules`` field)."""
    area = rules.scoring == "area"
    return {
        "ko": _KO[rules.ko],
        "scoring": "AREA" if area else "TERRITORY",
        # territory scoring: no points for the empty points of a seki where the rule set says so
        "tax": "NONE" if area or rules.seki_territory else "SEKI",
        "suicide": rules.multi_stone_suicide,
        "hasButton": False,
        # KataGo adds the bonus only under area scoring, as the rules engine does (RuleSet.compensation)
        "whiteHandicapBonus": _BONUS[rules.handicap_compensation] if area else "0",
    }


def katago_komi(rules: RuleSet) -> float:
    if abs(rules.komi) > KOMI_LIMIT:
        raise RulesNotMapped(f"KataGo takes a komi from -{KOMI_LIMIT:g} to {KOMI_LIMIT:g}, not {rules.komi:g}")
    return rules.komi


def position_of(game: Game) -> Position:
    """The game's position as KataGo is asked about it: the handicap and setup stones as they lie, every move
    and pass in order, whoever starts, the game's komi and rules (``RulesNotMapped`` for a komi beyond KataGo's)."""
    stones: list[tuple[Colour, Point]] = [("B", (x, y)) for x, y in game.handicap_points]
    setup = game.setup  # the record's AB/AW stones and first player, if any
    first: Colour | None = None
    if setup is not None:
        black, white, first_given = setup
        stones += [("B", (x, y)) for x, y in black] + [("W", (x, y)) for x, y in white]
        first = "B" if first_given == "B" else "W" if first_given == "W" else None
    moves: tuple[tuple[Colour, Point | None], ...] = tuple(
        ("B" if move.color == "B" else "W", None if move.point is None else (move.point[0], move.point[1])) for move in game.moves
    )
    if first is None:
        first = "W" if game.handicap_points else "B"
    if not moves:
        first = "B" if game.to_move == "B" else "W"
    return Position(
        size=game.size,
        moves=moves,
        stones=tuple(stones),
        to_move=first,
        komi=katago_komi(game.rules),
        rules=katago_rules(game.rules),
    )


def board_position(game: Game, to_move: Colour) -> Position:
    """The stones on the game's board as they lie, ``to_move`` to play, without the moves that led there (what the
    dead stones are judged on: the same board asked with each side to move, whoever passed last)."""
    stones: list[tuple[Colour, Point]] = []
    for y in range(game.size):
        for x in range(game.size):
            colour = game.stone_at((x, y))
            if colour is not None:
                stones.append(("B" if colour == "B" else "W", (x, y)))
    return Position(game.size, (), tuple(stones), to_move, katago_komi(game.rules), katago_rules(game.rules))
