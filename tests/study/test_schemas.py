"""The tree as JSON: flat, in preorder, ids kept; reading it back checks every move and every reference."""

import pytest

from app.study.schemas import TreeDoc, tree_from_doc, tree_to_doc
from app.study.tree import Limits, TreeError
from tests.study.sample import sample_tree, shape


def test_json_round_trip_keeps_every_node_its_id_and_the_order_of_variations():
    tree = sample_tree()
    doc = tree_to_doc(tree)
    text = doc.model_dump_json()
    again = tree_from_doc(TreeDoc.model_validate_json(text))
    assert shape(again) == shape(tree)
    assert [n.id for n in again.walk()] == [n.id for n in tree.walk()]
    assert tree_to_doc(again) == doc
    nxt, _ = again.play(0, (0, 0))
    assert nxt.id == max(n.id for n in tree.walk()) + 1


def test_an_id_a_removed_node_retired_is_not_given_again_after_a_reload():
    tree = sample_tree()
    highest = max(n.id for n in tree.walk())
    tree.remove(highest)
    again = tree_from_doc(TreeDoc.model_validate_json(tree_to_doc(tree).model_dump_json()))
    assert highest not in {n.id for n in again.walk()}
    child, _ = again.play(0, (0, 0))
    assert child.id == highest + 1


def test_first_node_is_the_root():
    assert tree_to_doc(sample_tree()).model_dump()["nodes"][0] == {
        "id": 0,
        "parent": None,
        "move": None,
        "comment": "Start] here \\ [really]",
        "marks": [{"point": (6, 6), "kind": "circle", "label": ""}],
    }


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda d: d["nodes"][2].update(move={"color": "B", "point": [9, 9]}), "occupied"),
        (lambda d: d["nodes"][3].update(parent=999), "bad_tree"),
        (lambda d: d["nodes"].append({"id": 1, "parent": 0, "move": {"color": "B", "point": [0, 0]}}), "bad_tree"),
        (lambda d: d["nodes"].append(dict(d["nodes"][1], id=500)), "bad_tree"),
        (lambda d: d["nodes"][0].update(move={"color": "B", "point": [0, 0]}), "bad_tree"),
        (lambda d: d["nodes"][1].update(move=None), "bad_tree"),
        (lambda d: d["setup"].update(black=[[0, 0], [0, 0]]), "bad_setup"),
    ],
)
def test_a_document_that_does_not_describe_a_legal_tree_is_refused(change, code):
    data = tree_to_doc(sample_tree()).model_dump(mode="json")
    change(data)
    with pytest.raises(TreeError) as err:
        tree_from_doc(TreeDoc.model_validate(data))
    assert err.value.code == code


def test_limits_apply_when_reading():
    data = tree_to_doc(sample_tree())
    with pytest.raises(TreeError) as err:
        tree_from_doc(data, Limits(nodes=5))
    assert err.value.code == "tree_too_large"
    with pytest.raises(TreeError) as err:
        tree_from_doc(data, Limits(depth=3))
    assert err.value.code == "tree_too_deep"
