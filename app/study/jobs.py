"""What the study workers run (``app.study.workers``): module-level functions taking and returning plain
data, so that they cross to a worker process and back by value."""

from __future__ import annotations

from typing import Any

from app.engines.analysis import Position
from app.engines.dead_stones import Reading, judge
from app.engines.rules import RulesNotMapped, position_of
from app.rules import Game, IllegalMove, Move
from app.study.schemas import SetupDoc, TreeDoc, tree_from_doc, tree_to_doc
from app.study.sgf_tree import export_tree, import_tree
from app.study.tree import LIMITS, Limits, Tree, TreeError, play_move, replay

Line = list[tuple[str, tuple[int, int] | None]]  # (colour, point or None for a pass), from the start


def _moves(line: Line) -> list[Move]:
    if len(line) > LIMITS.depth:
        raise TreeError(*LIMITS.refusal("depth"))
    return [Move(color, None if point is None else (point[0], point[1])) for color, point in line]


def position(setup: dict[str, Any], line: Line, history: Line | None = None) -> dict[str, Any]:
    """The position after ``line`` from ``setup``, with the stones its last move captured (TreeError for an
    illegal move, whose message names its number in ``line``). ``history``: the moves a stored game played
    from ``setup`` before the line, so that the line's ko and superko are judged against the whole game."""
    moves = _moves(line)
    game = SetupDoc.model_validate(setup).to_setup().new_game()
    for color, point in history or []:
        play_move(game, color, point)  # the game's own moves, each accepted by its authority when played
    game = replay(game, moves[:-1])
    captured: list[tuple[int, int]] = []
    if moves:
        last = moves[-1]
        try:
            captured = play_move(game, last.color, last.point)
        except IllegalMove as exc:
            raise TreeError(exc.reason, f"move {len(moves)}: {exc}") from None
    return {**position_view(game), "captured": sorted(list(p) for p in captured)}


def position_view(game: Game) -> dict[str, Any]:
    return {
        "rows": game.board_rows(),
        "to_move": game.to_move,
        "prisoners": dict(game.prisoners),
        "ko": None if game.ko_point is None else list(game.ko_point),
    }


def estimate(setup: dict[str, Any], line: Line) -> dict[str, Any]:
    """The engine's dead-stone estimate at the position: dead stones, each point's ownership, the score."""
    game = replay(SetupDoc.model_validate(setup).to_setup().new_game(), _moves(line))
    dead, ownership = game.estimate()
    return {
        "dead": sorted([x, y] for x, y in dead),
        "ownership": [[round(v, 2) for v in row] for row in ownership],
        "score": game.score(dead).to_dict(),
    }


def line_to_doc(setup: dict[str, Any], info: dict[str, str], line: Line) -> dict[str, Any]:
    """A tree whose main line is ``line`` (a game's moves), as JSON."""
    tree = Tree(SetupDoc.model_validate(setup).to_setup(), info=info)
    node, game = tree.root, tree.start()
    for color, point in line:
        node, _ = tree.extend(node, game, color, point)
    return tree_to_doc(tree).model_dump(mode="json")


def sgf_to_doc(data: bytes | str) -> dict[str, Any]:
    """An SGF record as a tree document: bytes (a file) in their character set, text as it is (``read_game``)."""
    return tree_to_doc(import_tree(data)).model_dump(mode="json")


def doc_to_sgf(doc: dict[str, Any]) -> str:
    return export_tree(tree_from_doc(TreeDoc.model_validate(doc)))


def doc_to_tree(doc: dict[str, Any], limits: Limits) -> Tree:
    """A stored tree, every move replayed and checked (it crosses back flat: ``Tree.__reduce__``)."""
    return tree_from_doc(TreeDoc.model_validate(doc), limits)


def katago_position(setup: dict[str, Any], line: Line) -> Position | None:
    """The position after ``line`` as KataGo is asked about it (TreeError naming the number of an illegal move;
    None when KataGo cannot be told the rules: docs/rules.md)."""
    game = replay(SetupDoc.model_validate(setup).to_setup().new_game(), _moves(line))
    try:
        return position_of(game)
    except RulesNotMapped:
        return None


def estimate_from(setup: dict[str, Any], line: Line, ownership: list[list[float]]) -> dict[str, Any]:
    """:func:`estimate` from KataGo's ownership: the dead stones it gives (``app.engines.dead_stones``), counted
    by the rules engine under the position's own rules and komi; the ownership is KataGo's."""
    game = replay(SetupDoc.model_validate(setup).to_setup().new_game(), _moves(line))
    dead = judge(game, [Reading(ownership)]).dead
    return {
        "dead": dead,
        "ownership": [[round(v, 2) for v in row] for row in ownership],
        "score": game.score([(x, y) for x, y in dead]).to_dict(),
    }
