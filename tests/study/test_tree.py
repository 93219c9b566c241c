"""The tree of variations: moves checked by the rules engine, reuse of identical children, removal, comments,
marks, addressing by id and by path, and the caps."""

import pytest

from app.rules import Move
from app.study.tree import Limits, Mark, Setup, Tree, TreeError


def test_moves_branch_and_an_identical_move_reuses_its_child():
    tree = Tree(Setup(size=9))
    a, caps = tree.play(0, (2, 2))
    assert caps == [] and a.move == Move("B", (2, 2)) and a.depth == 1
    b, _ = tree.play(a.id, (6, 6))
    c, _ = tree.play(a.id, (6, 2))
    assert [n.id for n in a.children] == [b.id, c.id]
    again, _ = tree.play(a.id, (6, 6))
    assert again is b and len(tree) == 4
    assert tree.path(c.id) == [0, 1] and tree.at_path([0, 1]) is c and tree.at_path([]) is tree.root
    assert tree.moves_to(c.id) == [Move("B", (2, 2)), Move("W", (6, 2))]
    assert tree.game_at(c.id).to_move == "B"


def test_captures_come_back_and_the_captured_point_is_empty():
    tree = Tree(Setup(size=9))
    node = tree.root
    for point in [(1, 0), (0, 0), (0, 1)]:
        node, caps = tree.play(node.id, point)
    assert caps == [(0, 0)]
    assert tree.game_at(node.id).stone_at((0, 0)) is None
    assert tree.game_at(node.id).prisoners == {"B": 1, "W": 0}


@pytest.mark.parametrize("point, code", [((2, 2), "occupied"), ((9, 0), "off_board"), ("x", "off_board")])
def test_an_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing(point, code):
    tree = Tree(Setup(size=9))
    a, _ = tree.play(0, (2, 2))
    tree.play(a.id, (3, 3))
    with pytest.raises(TreeError) as err:
        tree.play(a.id + 1, point)
    assert err.value.code == code
    assert len(tree) == 3


def test_ko_and_superko_follow_the_rules_of_the_tree():
    # B: (1,0) (0,1) (2,1) (1,2); W: (2,0) (3,1) (2,2) -> W takes the ko at (1,1), B may not take back at once
    moves = [
        ((1, 0), "B"),
        ((2, 0), "W"),
        ((0, 1), "B"),
        ((3, 1), "W"),
        ((1, 2), "B"),
        ((2, 2), "W"),
        ((2, 1), "B"),
        ((1, 1), "W"),
    ]
    tree = Tree(Setup(size=9, rules="japanese", komi=6.5))
    node = tree.root
    for point, color in moves:
        node, caps = tree.play(node.id, point, color)
    assert caps == [(2, 1)]
    with pytest.raises(TreeError) as err:
        tree.play(node.id, (2, 1))
    assert err.value.code == "ko"
    passed, _ = tree.play(node.id, None)
    assert passed.move == Move("B", None)


def test_a_colour_may_play_twice_as_records_allow():
    tree = Tree(Setup(size=9))
    a, _ = tree.play(0, (2, 2))
    b, _ = tree.play(a.id, (3, 3), "B")
    assert b.move == Move("B", (3, 3)) and tree.game_at(b.id).to_move == "W"


def test_handicap_and_setup_stones():
    tree = Tree(Setup(size=9, handicap=2, black=((2, 6), (6, 2))))
    assert tree.start().to_move == "W" and tree.start().handicap == 2
    with pytest.raises(TreeError) as err:
        tree.play(0, (2, 6))
    assert err.value.code == "occupied"
    problem = Tree(Setup(size=9, black=((0, 1), (1, 1)), white=((0, 0), (5, 5)), to_move="W"))
    assert problem.start().stone_at((0, 0)) == "W" and problem.start().to_move == "W"
    with pytest.raises(TreeError) as err:
        Tree(Setup(size=9, black=((0, 0),), white=((0, 0),)))
    assert err.value.code == "bad_setup"
    with pytest.raises(TreeError) as err:
        Tree(Setup(size=9, rules="klingon"))
    assert err.value.code == "bad_setup"


def test_remove_a_branch_with_everything_below_it():
    tree = Tree(Setup(size=9))
    a, _ = tree.play(0, (2, 2))
    b, _ = tree.play(a.id, (3, 3))
    tree.play(b.id, (4, 4))
    c, _ = tree.play(a.id, (5, 5))
    assert tree.remove(b.id) == 2
    assert a.children == [c] and len(tree) == 3
    with pytest.raises(TreeError) as err:
        tree.node(b.id)
    assert err.value.code == "node_not_found"
    with pytest.raises(TreeError) as err:
        tree.remove(0)
    assert err.value.code == "cannot_remove_root"
    d, _ = tree.play(a.id, (3, 3))
    assert d.id > c.id  # ids are never reused


def test_comments_and_marks():
    tree = Tree(Setup(size=9), Limits(comment=10))
    a, _ = tree.play(0, (2, 2))
    tree.set_comment(a.id, "good move")
    tree.set_mark(a.id, (3, 3), "triangle")
    tree.set_mark(a.id, (4, 4), "label", "A")
    tree.set_mark(a.id, (3, 3), "square")
    assert a.comment == "good move"
    assert a.marks == {(3, 3): Mark("square"), (4, 4): Mark("label", "A")}
    tree.remove_mark(a.id, (3, 3))
    assert a.marks == {(4, 4): Mark("label", "A")}
    for bad in [((9, 9), "circle", ""), ((1, 1), "star", ""), ((1, 1), "label", ""), ((1, 1), "label", "ABCDE")]:
        with pytest.raises(TreeError):
            tree.set_mark(a.id, *bad)
    with pytest.raises(TreeError) as err:
        tree.set_comment(a.id, "x" * 11)
    assert err.value.code == "comment_too_long"


def test_caps_on_nodes_and_depth():
    tree = Tree(Setup(size=9), Limits(nodes=4, depth=2))
    a, _ = tree.play(0, (0, 0))
    b, _ = tree.play(a.id, (1, 1))
    with pytest.raises(TreeError) as err:
        tree.play(b.id, (2, 2))
    assert err.value.code == "tree_too_deep"
    tree.play(a.id, (3, 3))
    with pytest.raises(TreeError) as err:
        tree.play(0, (4, 4))
    assert err.value.code == "tree_too_large"
    assert tree.play(0, (0, 0))[0] is a  # an existing child is still found at the cap


def test_a_deep_line_is_walked_without_recursion():
    tree = Tree(Setup(size=19), Limits(nodes=2000, depth=2000))
    node = tree.root
    for _ in range(1500):
        node, _ = tree.play(node.id, None)
    assert sum(1 for _ in tree.walk()) == 1501 and node.depth == 1500
    assert tree.remove(tree.root.children[0].id) == 1500
