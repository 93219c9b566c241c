from app.games.chains import chain_at, expand_to_chains

ROWS = [
    "XX.O",
    ".X.O",
    "X..O",
    "..OO",
]


def test_chain_at_follows_orthogonal_neighbours_only():
    assert chain_at(ROWS, (0, 0)) == {(0, 0), (1, 0), (1, 1)}
    assert chain_at(ROWS, (0, 2)) == {(0, 2)}
    assert chain_at(ROWS, (3, 0)) == {(3, 0), (3, 1), (3, 2), (3, 3), (2, 3)}
    assert chain_at(ROWS, (2, 2)) == set()


def test_expand_to_chains():
    assert expand_to_chains(ROWS, [(1, 1), (0, 2)]) == {(0, 0), (1, 0), (1, 1), (0, 2)}
