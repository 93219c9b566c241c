import pytest

from app.ratings.glicko2 import Outcome, Rating, expected_score, update


def test_glickmans_worked_example():
    player = Rating(1500, 200, 0.06)
    outcomes = [
        Outcome(Rating(1400, 30, 0.06), 1),
        Outcome(Rating(1550, 100, 0.06), 0),
        Outcome(Rating(1700, 300, 0.06), 0),
    ]
    after = update(player, outcomes, tau=0.5)
    # The paper's figures: r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation():
    after = update(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.deviation == pytest.approx((200**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_win_raises_loss_lowers_and_draw_between_equals_keeps():
    me, them = Rating(1500, 100, 0.06), Rating(1500, 100, 0.06)
    assert update(me, [Outcome(them, 1)]).rating > 1500
    assert update(me, [Outcome(them, 0)]).rating < 1500
    assert update(me, [Outcome(them, 0.5)]).rating == pytest.approx(1500)


def test_advantage_enters_the_expected_score():
    weak, strong = Rating(1400, 80), Rating(1600, 80)
    assert expected_score(weak, strong) < 0.5
    # With an advantage equal to the gap the game is an even bet.
    assert expected_score(weak, strong, advantage=200) == pytest.approx(0.5)
    # Winning an even bet moves both by the same amount as between equals.
    even = update(Rating(1500, 80), [Outcome(Rating(1500, 80), 1)])
    fair = update(weak, [Outcome(strong, 1, advantage=200)])
    assert fair.rating - weak.rating == pytest.approx(even.rating - 1500)


def test_tau_changes_the_volatility_response():
    player = Rating(1500, 200, 0.06)
    upset = [Outcome(Rating(2200, 50), 1)]
    assert update(player, upset, tau=1.2).volatility > update(player, upset, tau=0.3).volatility
