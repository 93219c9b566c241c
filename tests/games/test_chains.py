from app.games.chains import expand_to_chains
from app.rules import Game
from tests.rules.positions import place_stones

ROWS = [
    "XX.O",
    ".X.O",
    "X..O",
    "..OO",
]


def _game(rows: list[str]) -> Game:
    game = Game(len(rows))
    place_stones(
        game,
        black=[(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "X"],
        white=[(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "O"],
    )
    assert game.board_rows() == rows
    return game


def test_chain_at_follows_orthogonal_neighbours_only():
    game = _game(ROWS)
    assert game.chain((0, 0)) == {(0, 0), (1, 0), (1, 1)}
    assert game.chain((0, 2)) == {(0, 2)}
    assert game.chain((3, 0)) == {(3, 0), (3, 1), (3, 2), (3, 3), (2, 3)}
    assert game.chain((2, 2)) == set()


def test_expand_to_chains():
    assert expand_to_chains(_game(ROWS), [(1, 1), (0, 2)]) == {(0, 0), (1, 0), (1, 1), (0, 2)}
