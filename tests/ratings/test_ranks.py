import pytest

from app.ratings import ranks


@pytest.mark.parametrize(
    "rating,label",
    [(1500, "6k"), (100, "30k"), (525, "30k"), (1917, "1k"), (1919, "1d"), (2709, "8d"), (2711, "9d"), (4000, "9d")],
)
def test_published_mapping(rating, label):
    assert ranks.rank_label(rating) == label


def test_mapping_is_monotonic():
    order = [f"{k}k" for k in range(30, 0, -1)] + [f"{d}d" for d in range(1, 10)]
    seen = [ranks.rank_label(r) for r in range(50, 3500, 3)]
    positions = [order.index(label) for label in seen]
    assert positions == sorted(positions)
    assert set(seen) == set(order)


def test_parse_rank_round_trips_to_the_middle_of_the_rank():
    for label in ["30k", "12k", "1k", "1d", "9d"]:
        assert ranks.label_for_number(ranks.parse_rank(label)) == label
        assert ranks.rank_label(ranks.rating_for_rank_number(ranks.parse_rank(label))) == label
    for bad in ["0k", "31k", "10d", "5p", "", "k"]:
        with pytest.raises(ValueError):
            ranks.parse_rank(bad)


def test_provisional_question_mark():
    assert ranks.display(1500, 350) == "6k?"
    assert ranks.display(1500, 100) == "6k"


def test_starting_strengths():
    assert ranks.rank_label(ranks.starting_rating("new").rating) == "25k"
    assert ranks.rank_label(ranks.starting_rating("casual").rating) == "15k"
    assert ranks.rank_label(ranks.starting_rating("club").rating) == "5k"
    assert ranks.rank_label(ranks.starting_rating("strong").rating) == "2d"
    assert ranks.rank_label(ranks.starting_rating("3k").rating) == "3k"
    assert ranks.starting_rating(None).rating == 1500
    assert ranks.starting_rating("club").deviation == ranks.STARTING_DEVIATION
    assert ranks.check_strength(" Club ") == "club"
    assert ranks.check_strength("3D") == "3d"
    with pytest.raises(ValueError):
        ranks.check_strength("grandmaster")
