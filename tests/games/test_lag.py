import pytest

from app.games.lag import LagPolicy
from app.transport.lag import LagEstimator


def test_credit_is_the_estimate_within_quota():
    policy = LagPolicy(initial=0.5, cap=2.0, refill_fraction=0.8, refill_max=0.3)
    credit, quota = policy.credit(0.5, elapsed=10.0, estimate=0.2)
    assert credit == pytest.approx(0.2)
    assert quota == pytest.approx(0.5 - 0.2 + 0.16)


def test_credit_is_limited_by_quota_and_elapsed_time():
    policy = LagPolicy()
    credit, quota = policy.credit(0.4, elapsed=10.0, estimate=1.5)
    assert credit == pytest.approx(0.4)
    assert quota == pytest.approx(0.3)  # emptied, then refilled by refill_max
    credit, _ = policy.credit(2.0, elapsed=0.1, estimate=1.0)
    assert credit == pytest.approx(0.1)  # never more than the move took


def test_quota_never_exceeds_cap_and_faked_lag_buys_little():
    policy = LagPolicy(initial=0.5, cap=2.0, refill_max=0.3)
    quota = policy.initial
    total = 0.0
    for _ in range(100):
        credit, quota = policy.credit(quota, elapsed=30.0, estimate=100.0)  # absurd claimed lag
        assert quota <= policy.cap
        assert credit <= policy.cap
        total += credit
    # at most the starting quota plus refill_max per move
    assert total <= policy.initial + 100 * policy.refill_max + 1e-9


@pytest.mark.parametrize("bad", [None, -1.0, float("nan"), float("inf"), "0.3", True])
def test_bad_estimates_count_as_no_lag(bad):
    credit, quota = LagPolicy().credit(0.5, elapsed=5.0, estimate=bad)
    assert credit == 0.0
    assert quota == 0.5


def test_estimator_is_half_a_decaying_round_trip():
    est = LagEstimator(alpha=0.5, max_rtt=10.0)
    assert est.estimate() == 0.0
    est.record(0.4)
    assert est.estimate() == pytest.approx(0.2)
    est.record(0.8)
    assert est.estimate() == pytest.approx(0.3)
    est.record(-1)
    est.record(float("nan"))
    assert est.samples == 2
    est.record(1000)
    assert est.estimate() == pytest.approx((0.6 + 0.5 * (10.0 - 0.6)) / 2)
