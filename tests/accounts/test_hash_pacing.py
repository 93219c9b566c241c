"""Hashes paced to a share of a core: the delays the pacer asks for, read on a clock the test moves, and the
pool's queue while requests wait for their turn. No time is waited for."""

from __future__ import annotations

import asyncio

import pytest

from app.accounts.hash_pacing import HashPacer
from app.accounts.hashing import PasswordPool
from app.errors import ServiceError
from tests.support.gated_hash import instant_verify


class Clock:
    """A clock that moves only when told; its sleep records the delay asked for and moves the clock by it,
    or, once ``hold`` is set, waits until the test lets it end."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []
        self.hold: asyncio.Event | None = None

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        if self.hold is not None:
            await self.hold.wait()
        self.now += seconds


async def _hash(pacer: HashPacer, clock: Clock, seconds: float) -> None:
    async with pacer.turn():
        clock.now += seconds


async def test_the_next_hash_starts_its_duration_over_the_share_after_the_last_one_started() -> None:
    clock = Clock()
    pacer = HashPacer(0.25, clock=clock, sleep=clock.sleep)
    await _hash(pacer, clock, 0.2)  # the first waits for nothing
    assert clock.sleeps == []
    await _hash(pacer, clock, 0.3)  # 0.2 / 0.25 = 0.8 after the first started: 0.6 after it ended
    assert clock.sleeps == [pytest.approx(0.6)]
    clock.now += 0.5  # idle for a while: the wait left is what the idle time did not cover
    await _hash(pacer, clock, 0.1)
    assert clock.sleeps == [pytest.approx(0.6), pytest.approx(1.2 - 0.3 - 0.5)]
    clock.now += 10  # long idle: no wait at all
    await _hash(pacer, clock, 0.2)
    assert len(clock.sleeps) == 2


async def test_a_whole_core_means_no_pacing_and_each_worker_is_paced_on_its_own() -> None:
    clock = Clock()
    unpaced = HashPacer(1.0, clock=clock, sleep=clock.sleep)
    for _ in range(3):
        await _hash(unpaced, clock, 0.2)
    assert clock.sleeps == []

    two = HashPacer(0.5, lanes=2, clock=clock, sleep=clock.sleep)
    async with two.turn(), two.turn():  # both workers at once, neither waits for the other
        clock.now += 0.2
    assert clock.sleeps == []
    await _hash(two, clock, 0.2)  # either worker: 0.4 after it started, 0.2 after it ended
    assert clock.sleeps == [pytest.approx(0.2)]


async def test_the_cost_the_work_reports_counts_instead_of_the_time_its_turn_lasted() -> None:
    clock = Clock()
    pacer = HashPacer(0.25, clock=clock, sleep=clock.sleep)
    async with pacer.turn() as turn:
        clock.now += 3.0  # e.g. the worker starting first, or waiting for a core
        turn.seconds = 0.2  # what the hash itself cost
    async with pacer.turn() as turn:  # 0.8 after the first started has long passed: no wait
        turn.seconds = 0.5
    assert clock.sleeps == []
    await _hash(pacer, clock, 0.2)  # the clock did not move: 0.5 / 0.25 from that start
    assert clock.sleeps == [pytest.approx(2.0)]


async def test_the_pool_paces_by_the_cpu_time_a_hash_took_in_its_worker() -> None:
    """The pool's clock never moves here: a wait before the second hash can come only from the CPU time
    the worker reported for the first."""
    clock = Clock()
    pool = PasswordPool(1, 4, pacer=HashPacer(0.25, clock=clock, sleep=clock.sleep))
    try:
        first = await pool.hash("Correct horse 9")
        assert clock.sleeps == []
        assert await pool.verify(first, "Correct horse 9")
        assert len(clock.sleeps) == 1 and clock.sleeps[0] > 0
    finally:
        pool.close()


@pytest.mark.parametrize("share", [0.0, -0.1, 1.5])
def test_a_share_outside_one_core_is_refused(share: float) -> None:
    with pytest.raises(ValueError):
        HashPacer(share)


async def test_requests_waiting_for_their_turn_hold_the_queue_and_beyond_it_are_refused_busy() -> None:
    clock = Clock()
    pacer = HashPacer(0.25, clock=clock, sleep=clock.sleep)
    pool = PasswordPool(1, 1, verify=instant_verify, pacer=pacer)
    try:
        await _hash(pacer, clock, 0.2)  # a hash that took 0.2 s: the next may start 0.6 s from now
        clock.hold = asyncio.Event()
        paced = asyncio.create_task(pool.verify("a hash", "first"))
        queued = asyncio.create_task(pool.verify("a hash", "second"))
        while not clock.sleeps:
            await asyncio.sleep(0)
        assert clock.sleeps == [pytest.approx(0.6)]  # the first waits for its turn, the second behind it
        with pytest.raises(ServiceError) as refused:  # one at work and one in the queue: full
            await pool.verify("a hash", "third")
        assert refused.value.code == "busy" and refused.value.status == 503
        assert not paced.done() and not queued.done()
        clock.hold.set()
        assert await paced and await queued
    finally:
        pool.close()
