"""``Backoff``: the reconnection delays in turn, then the last one, from the start again after a reset."""

from __future__ import annotations

from app.bots.backoff import RECONNECT_DELAYS, Backoff


def test_delays_grow_stay_at_the_last_and_start_over_after_a_reset() -> None:
    backoff = Backoff()
    seen = [backoff.next() for _ in range(len(RECONNECT_DELAYS) + 3)]
    assert seen == list(RECONNECT_DELAYS) + [RECONNECT_DELAYS[-1]] * 3
    backoff.reset()
    assert backoff.next() == RECONNECT_DELAYS[0]
