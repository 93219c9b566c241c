"""The pure rules of a ladder (app/ladders/rules.py): every refusal and its code, the order after each outcome,
the game's outcome whichever colour the challenger had, and properties of the order over random histories."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.ladders.rules import CHALLENGER_TAKES, Facts, Policy, after_leaving, after_outcome, challenger_score, refusal

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
POLICY = Policy(reach=3, max_outgoing=1, max_incoming=2, rechallenge=timedelta(hours=24))
ORDER = [10, 20, 30, 40, 50, 60]  # 10 is at the top


def _refusal(challenger: int | None, defender: int, facts: Facts | None = None, now: datetime = NOW) -> str | None:
    return refusal(ORDER, challenger, defender, POLICY, facts or Facts(), now)


def test_a_player_may_challenge_up_to_reach_places_above() -> None:
    assert [_refusal(50, d) for d in (40, 30, 20)] == [None, None, None]
    assert _refusal(50, 10) == "too_far_above"


@pytest.mark.parametrize(
    ("challenger", "defender", "code"),
    [
        (None, 10, "account_required"),
        (99, 10, "not_on_ladder"),
        (20, 99, "not_on_ladder_defender"),
        (20, 20, "own_rung"),
        (20, 30, "not_above"),
        (60, 20, "too_far_above"),
    ],
)
def test_refusals_by_position(challenger: int | None, defender: int, code: str) -> None:
    assert _refusal(challenger, defender) == code


def test_refusals_by_what_is_already_open_or_recent() -> None:
    assert _refusal(50, 40, Facts(blocked=frozenset({40}))) == "blocked"
    assert _refusal(50, 40, Facts(engaged=frozenset({40}))) == "already_challenged"
    recent = Facts(last_settled={40: NOW - timedelta(hours=23)})
    assert _refusal(50, 40, recent) == "rechallenge_too_soon"
    assert _refusal(50, 40, recent, now=NOW + timedelta(hours=1)) is None  # the period is over
    assert _refusal(50, 30, recent) is None  # another player
    assert _refusal(50, 40, Facts(outgoing=1)) == "too_many_ladder_challenges"
    assert _refusal(50, 40, Facts(incoming={40: 2})) == "defender_busy"
    assert _refusal(50, 40, Facts(incoming={40: 1, 30: 2})) is None


def test_the_challenger_who_wins_takes_the_place_and_those_between_move_down_one() -> None:
    assert after_outcome(ORDER, 50, 20, "challenger_won") == [10, 50, 20, 30, 40, 60]


@pytest.mark.parametrize("outcome", ["declined", "expired"])
def test_a_decline_or_an_unanswered_challenge_is_lost_by_the_defender(outcome: str) -> None:
    assert after_outcome(ORDER, 40, 30, outcome) == [10, 20, 40, 30, 50, 60]


@pytest.mark.parametrize("outcome", ["defender_won", "void"])
def test_the_defender_holding_or_a_void_game_moves_nobody(outcome: str) -> None:
    assert after_outcome(ORDER, 50, 20, outcome) == ORDER


def test_a_challenger_already_above_the_defender_or_gone_moves_nobody() -> None:
    assert after_outcome(ORDER, 20, 50, "challenger_won") == ORDER  # risen meanwhile
    assert after_outcome(ORDER, 99, 20, "challenger_won") == ORDER  # left meanwhile


def test_leaving_moves_everyone_below_up_one() -> None:
    assert after_leaving(ORDER, 30) == [10, 20, 40, 50, 60]


@pytest.mark.parametrize(
    ("black_score", "challenger_black", "outcome"),
    [
        (1.0, True, "challenger_won"),  # B+R, B+T, B+3.5 with the challenger Black
        (0.0, True, "defender_won"),
        (1.0, False, "defender_won"),  # the same results with the challenger White
        (0.0, False, "challenger_won"),
        (0.5, True, "defender_won"),  # a draw: the defender holds
        (0.5, False, "defender_won"),
        (None, True, "void"),
        (None, False, "void"),
    ],
)
def test_the_game_outcome_whichever_colour_the_challenger_had(
    black_score: float | None, challenger_black: bool, outcome: str
) -> None:
    assert challenger_score(black_score, challenger_black) == outcome


@given(
    st.integers(min_value=2, max_value=30).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.tuples(
                    st.integers(0, n - 1),
                    st.integers(0, n - 1),
                    st.sampled_from(["challenger_won", "defender_won", "declined", "expired", "void"]),
                ),
                max_size=40,
            ),
        )
    )
)
def test_the_order_stays_a_permutation_and_only_the_two_and_those_between_move(case: tuple[int, list]) -> None:
    n, history = case
    order = list(range(n))
    for a, b, outcome in history:
        before = list(order)
        order = after_outcome(order, a, b, outcome)
        assert sorted(order) == list(range(n))
        moved = [u for i, u in enumerate(order) if before[i] != u]
        if outcome in CHALLENGER_TAKES and before.index(a) > before.index(b):
            assert order.index(a) == before.index(b)
            low, high = before.index(b), before.index(a)
            assert set(moved) == set(before[low : high + 1])
            assert all(order.index(u) == before.index(u) + 1 for u in before[low:high])
        else:
            assert moved == []


def test_every_refusal_has_its_error_in_the_service() -> None:
    """The API answers each code ``refusal`` gives with that same code (``service.REFUSALS``)."""
    from app.ladders.service import REFUSALS, refusal_error

    codes = {
        _refusal(None, 10),
        _refusal(99, 10),
        _refusal(20, 99),
        _refusal(20, 20),
        _refusal(20, 30),
        _refusal(60, 20),
        _refusal(50, 40, Facts(blocked=frozenset({40}))),
        _refusal(50, 40, Facts(engaged=frozenset({40}))),
        _refusal(50, 40, Facts(last_settled={40: NOW})),
        _refusal(50, 40, Facts(outgoing=1)),
        _refusal(50, 40, Facts(incoming={40: 2})),
    }
    assert None not in codes and codes == set(REFUSALS)
    assert all(refusal_error(str(code)).code == code for code in codes)
