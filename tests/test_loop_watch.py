"""The event loop's heartbeat (``app/loop_watch.py``) sees a stall: a blocking call on the loop delays its
next wake-up by at least the stall less one interval."""

from __future__ import annotations

import asyncio
import time

from app.loop_watch import LoopWatch
from app.metrics import Metrics


async def test_a_blocking_call_on_the_loop_is_observed_as_a_late_heartbeat() -> None:
    seen: list[float] = []
    watch = LoopWatch(seen.append, interval=0.01)
    watch.start()
    await asyncio.sleep(0.05)  # a few beats first
    time.sleep(0.12)  # the loop runs nothing else for 120 ms
    await asyncio.sleep(0.05)
    await watch.close()
    assert seen and max(seen) >= 0.12 - 0.01, seen
    assert min(seen) >= 0.0
    count = len(seen)
    await asyncio.sleep(0.05)
    assert len(seen) == count  # closed: no more beats


async def test_the_lag_lands_in_the_instance_metrics() -> None:
    metrics = Metrics()
    watch = LoopWatch(metrics.loop_lag.observe, interval=0.01)
    watch.start()
    await asyncio.sleep(0.02)
    time.sleep(0.06)
    await asyncio.sleep(0.03)
    await watch.close()
    assert "tengen_event_loop_lag_seconds_bucket" in metrics.render()[0].decode()
    late = metrics.registry.get_sample_value("tengen_event_loop_lag_seconds_bucket", {"le": "0.04"})
    total = metrics.registry.get_sample_value("tengen_event_loop_lag_seconds_count")
    assert total is not None and late is not None and total - late >= 1  # one beat was later than 40 ms


async def test_a_stall_of_the_loop_s_own_making_is_told_from_waiting_for_a_core() -> None:
    """Busy lateness is capped at the CPU the loop's thread used: blocking in a CPU loop counts, while a
    blocking sleep (as waiting for a core looks to the thread: no CPU used) does not."""
    lags: list[float] = []
    busy: list[float] = []
    watch = LoopWatch(lags.append, interval=0.01, observe_busy=busy.append)
    watch.start()
    await asyncio.sleep(0.03)
    time.sleep(0.1)  # the thread is off the CPU: late, but not busy
    await asyncio.sleep(0.03)
    slept = len(lags)
    end = time.thread_time() + 0.1
    while time.thread_time() < end:  # 100 ms of the loop's own work (however long a busy machine makes it)
        pass
    await asyncio.sleep(0.03)
    await watch.close()
    assert max(lags[:slept]) >= 0.09 and max(busy[:slept]) < 0.05, (lags[:slept], busy[:slept])
    assert max(busy[slept:]) >= 0.08, busy[slept:]
