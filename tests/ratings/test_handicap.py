import pytest

from app.ratings import handicap, ranks
from app.ratings.glicko2 import Rating, expected_score


def test_even_game_is_about_even_and_stones_count_one_rank_each():
    assert handicap.black_advantage_ranks(0, 7.0, 19) == pytest.approx(0)
    assert handicap.black_advantage_ranks(0, 0.5, 19) == pytest.approx(1)
    assert handicap.black_advantage_ranks(4, 0.5, 19) == pytest.approx(4)
    assert handicap.black_advantage_ranks(4, 0.5, 9) == pytest.approx(4 * 361 / 81)


def test_a_fair_handicap_game_is_an_even_bet():
    weaker = ranks.rating_for_rank_number(ranks.parse_rank("10k"))
    stronger = ranks.rating_for_rank_number(ranks.parse_rank("5k"))
    extra = handicap.black_advantage_points(weaker, 5, 0.5, 19)
    e = expected_score(Rating(weaker, 60), Rating(stronger, 60), extra)
    assert e == pytest.approx(0.5, abs=1e-9)
    assert expected_score(Rating(weaker, 60), Rating(stronger, 60)) < 0.2


@pytest.mark.parametrize(
    "gap,size,expected",
    [
        (0.2, 19, (0, None, False)),
        (1.0, 19, (0, 0.5, True)),
        (3.4, 19, (3, 0.5, True)),
        (14, 19, (9, 0.5, True)),
        (2.0, 9, (0, None, False)),
        (9.0, 9, (2, 0.5, True)),
    ],
)
def test_suggestion(gap, size, expected):
    s = handicap.suggest(gap, size)
    assert (s.handicap, s.komi, s.weaker_is_black) == expected


def test_suggested_handicap_makes_the_bet_nearly_even():
    for weaker_label, stronger_label in [("12k", "8k"), ("20k", "11k"), ("3k", "2k")]:
        w = ranks.rating_for_rank_number(ranks.parse_rank(weaker_label))
        s = ranks.rating_for_rank_number(ranks.parse_rank(stronger_label))
        sug = handicap.suggest(ranks.rank_number(s) - ranks.rank_number(w), 19)
        assert sug.komi is not None
        extra = handicap.black_advantage_points(w, sug.handicap, sug.komi, 19)
        assert expected_score(Rating(w, 60), Rating(s, 60), extra) == pytest.approx(0.5, abs=0.02)
