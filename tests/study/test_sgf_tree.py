"""A tree as SGF and back: every variation, comment and mark survives; hostile records get a clear error."""

import pytest
from sgfmill import sgf

from app.study.sgf_tree import export_tree, import_tree
from app.study.tree import Limits, Setup, Tree, TreeError
from tests.study.sample import sample_tree, shape


def test_export_then_import_gives_the_same_tree():
    tree = sample_tree()
    text = export_tree(tree)
    flat = text.replace("\n", "")
    assert "SZ[13]" in flat and "RU[Japanese]" in flat and "HA[2]" in flat and "AB[dj][jd]" in flat
    assert "C[Start\\] here \\\\ [really\\]]" in flat and "LB[ii:12][ij:A]" in flat and "TR[jj]" in flat
    assert ";W[]" not in flat and ";B[]" in flat  # the pass
    again = import_tree(text.encode())
    assert shape(again) == shape(tree)
    assert export_tree(again) == text


def test_sgfmill_reads_every_variation_of_the_export():
    game = sgf.Sgf_game.from_bytes(export_tree(sample_tree()).encode())
    first = game.get_root()[0]
    assert first.get_move() == ("w", (3, 9)) and len(first) == 2
    assert [child.get_move()[0] for child in first] == ["b", "b"]


def test_a_foreign_record_with_comment_only_nodes_setup_and_a_tt_pass():
    text = (
        b"(;GM[1]FF[4]SZ[9]KM[6.5]RU[NZ]AB[aa][bb]AW[cc]PL[W]C[problem];W[dd];C[a note]LB[ee:x](;B[tt];W[ef])(;B[ff]C[try this]))"
    )
    tree = import_tree(text)
    setup = tree.setup
    assert (setup.rules, setup.komi, setup.black, setup.white, setup.to_move) == (
        "new_zealand",
        6.5,
        ((0, 0), (1, 1)),
        ((2, 2),),
        "W",
    )
    w = tree.root.children[0]
    assert w.comment == "a note" and [c.move.point if c.move else "no move" for c in w.children] == [None, (5, 5)]
    assert w.children[1].comment == "try this"


HOSTILE = [
    (b"not sgf at all", "bad_sgf"),
    (b"(;SZ[30];B[aa])", "bad_sgf"),
    (b"(;SZ[1];B[aa])", "bad_sgf"),
    (b"(;SZ[9];B[zz])", "bad_sgf"),
    (b"(;SZ[9];B[aa];W[aa])", "occupied"),
    (b"(;SZ[9];B[aa];AB[bb])", "bad_sgf"),
    (b"(;SZ[9];B[aa]AW[bb])", "bad_sgf"),
    (b"(;SZ[9]KM[2.25];B[aa])", "bad_setup"),
    (b"(;SZ[9]AB[aa]AW[aa])", "bad_setup"),
    (b"(;SZ[9]RU[Chinese]KM[x])", "bad_sgf"),
    (b"(;SZ[9];B[aa]TR[qq])", "bad_sgf"),
    (b"(;SZ[9];B[aa]C[" + b"x" * 5000 + b"])", "comment_too_long"),
]


@pytest.mark.parametrize("data, code", HOSTILE)
def test_hostile_records_get_a_clear_error(data, code):
    with pytest.raises(TreeError) as err:
        import_tree(data)
    assert err.value.code == code and err.value.message


def test_deeply_nested_and_huge_records_stop_at_the_limits():
    nested = b"(;SZ[19]" + b"".join(b"(;B[]" for _ in range(3000)) + b")" * 3001
    with pytest.raises(TreeError) as err:
        import_tree(nested)
    assert err.value.code == "tree_too_deep"
    wide = b"(;SZ[19]" + b"".join(b"(;B[%s%s])" % (bytes([97 + i % 19]), bytes([97 + i // 19])) for i in range(361)) + b")"
    assert len(import_tree(wide).root.children) == 361
    with pytest.raises(TreeError) as err:
        import_tree(wide, Limits(nodes=100))
    assert err.value.code == "tree_too_large"
    empty = b"(;SZ[19]" + b";TR[aa]" * 50000 + b")"
    with pytest.raises(TreeError) as err:
        import_tree(empty, Limits(nodes=1000))
    assert err.value.code == "tree_too_large"


def test_a_tree_made_here_exports_setup_and_the_side_to_move():
    tree = Tree(Setup(size=9, black=((0, 1), (1, 1)), white=((0, 0),), to_move="W"))
    tree.play(0, (2, 2))
    again = import_tree(export_tree(tree).encode())
    assert shape(again) == shape(tree)
