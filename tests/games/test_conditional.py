import pytest

from app.games.conditional import MAX_NODES, follow, parse_tree, to_wire
from app.games.errors import GameError


def test_a_tree_round_trips_and_is_followed_branch_by_branch():
    wire = [[[2, 2], [6, 6], [[[2, 6], [6, 2], []]]], [[4, 4], [3, 3], []]]
    tree = parse_tree(wire, 9)
    assert to_wire(tree) == wire
    followed = follow(tree, (2, 2))
    assert followed is not None
    answer, rest = followed
    assert answer == (6, 6) and to_wire(rest) == [[[2, 6], [6, 2], []]]
    assert follow(tree, (0, 0)) is None
    assert follow(tree, None) is None  # a pass is never answered
    assert parse_tree([[[1, 1], [2, 2]]], 9) == (((1, 1), (2, 2), ()),)  # "next" may be left out


@pytest.mark.parametrize(
    "wire, fragment",
    [
        ({"if": [1, 1]}, "list"),
        ([[[9, 0], [1, 1]]], "not a point"),
        ([[[1, 1], [1, 1]]], "same point"),
        ([[[1, 1], [2, 2]], [[1, 1], [3, 3]]], "two branches"),
        ([[[1, 1]]], "each branch"),
        ([[[1, 1], [2, "x"]]], "not a point"),
        ([[[True, 1], [2, 2]]], "not a point"),
    ],
)
def test_bad_trees_are_refused(wire, fragment):
    with pytest.raises(GameError) as info:
        parse_tree(wire, 9)
    assert info.value.code == "invalid_conditional" and fragment in info.value.message


def test_the_tree_size_is_capped():
    wide = [[[i % 19, i // 19], [18, 18], []] for i in range(MAX_NODES)]
    assert len(parse_tree(wide, 19)) == MAX_NODES
    with pytest.raises(GameError, match="at most"):
        parse_tree(wide + [[[5, 18], [18, 17], []]], 19)
    deep: list = []
    for i in range(MAX_NODES + 1):
        deep = [[[i % 19, i // 19], [18, 18], deep]]
    with pytest.raises(GameError):
        parse_tree(deep, 19)
