"""The board a review shows at a node, computed by the rules engine (app/study's tree) and kept for the nodes
last shown, so that stepping through a line costs one move each, not a replay from the start."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from app.rules import Game
from app.study.tree import Tree, replay

KEPT = 32  # positions kept per review


class PositionCache:
    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self._games: OrderedDict[int, Game] = OrderedDict()

    def forget(self) -> None:
        """Drop every kept position (after a branch was removed: its node ids are gone)."""
        self._games.clear()

    def game(self, node_id: int) -> Game:
        """The position at ``node_id`` (not to be changed by the caller)."""
        game = self._games.get(node_id)
        if game is None:
            node = self.tree.node(node_id)
            parent = None if node.parent is None else self._games.get(node.parent.id)
            if parent is not None and node.move is not None:
                game = replay(parent.copy(), [node.move])
            else:
                game = self.tree.game_at(node_id)
            self._games[node_id] = game
            while len(self._games) > KEPT:
                self._games.popitem(last=False)
        else:
            self._games.move_to_end(node_id)
        return game

    def view(self, node_id: int) -> dict[str, Any]:
        """``POSITION`` of docs/protocol.md §9: the board, the prisoners, whose turn, the move that led here."""
        game = self.game(node_id)
        move = self.tree.node(node_id).move
        return {
            "node": node_id,
            "board": game.board_rows(),
            "prisoners": dict(game.prisoners),
            "to_move": game.to_move,
            "move": None if move is None else {"color": move.color, "p": None if move.point is None else list(move.point)},
            "number": self.tree.node(node_id).depth,
        }
