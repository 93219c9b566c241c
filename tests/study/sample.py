"""A tree with everything a tree can hold, shared by the JSON, SGF and API tests."""

from app.study.tree import Setup, Tree


def sample_tree() -> Tree:
    """13x13 with two handicap stones: a main line with a capture and a pass, three variations (one nested),
    comments with SGF's special characters and non-ASCII text, every kind of mark, game information."""
    tree = Tree(
        Setup(size=13, rules="japanese", komi=0.5, handicap=2, black=((3, 9), (9, 3))),
        info={"black": "黑 Đen", "white": "Blanco", "result": "W+2.5", "date": "2024-05-01", "name": "Study"},
    )
    tree.set_comment(0, "Start] here \\ [really]")
    tree.set_mark(0, (6, 6), "circle")
    a, _ = tree.play(0, (9, 9))
    tree.set_comment(a.id, "White takes the corner.\nSecond line: 한국어")
    b, _ = tree.play(a.id, (3, 3))
    c, _ = tree.play(b.id, (2, 3))
    d, _ = tree.play(c.id, None)
    tree.play(d.id, (10, 10))
    v1, _ = tree.play(a.id, (9, 10))
    tree.set_mark(v1.id, (9, 9), "triangle")
    tree.set_mark(v1.id, (10, 9), "square")
    tree.set_mark(v1.id, (8, 9), "label", "A")
    tree.set_mark(v1.id, (8, 8), "label", "12")
    v2, _ = tree.play(v1.id, (10, 9))
    tree.play(v1.id, (8, 10))
    tree.set_comment(v2.id, "nested variation")
    tree.play(b.id, (10, 3))
    return tree


def shape(tree: Tree) -> list:
    """Everything a tree holds except node ids, in preorder (for comparing trees built apart)."""
    out: list = [tree.setup, sorted(tree.info.items())]
    for node in tree.walk():
        out.append((tree.path(node.id), node.move, node.comment, sorted(node.marks.items())))
    return out
