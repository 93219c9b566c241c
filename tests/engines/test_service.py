"""The engine service against the real KataGo (few visits, the 9x9 buffer): answers, priorities, cancelling, the
queue's bound. One service for the module; each test leaves it idle. Its process's death and answers that cannot
be read are in ``test_faults.py``."""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from app.engines.analysis import Position, Question
from app.engines.errors import EngineBusy, EngineUnavailable
from app.engines.lane import Lane, Priority
from app.engines.service import EngineService
from app.rules.coords import on_board
from tests.engines.questions import katago_settings, until, walls

pytestmark = [pytest.mark.katago, pytest.mark.asyncio(loop_scope="module")]

QUEUE = 3
FOREVER = 100_000  # visits: hours on a CPU, so such a question only ends by being stopped
ANSWER_SECONDS = 60.0  # a few visits take seconds; a question left behind one of FOREVER would take hours


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(katago_dir: Path) -> AsyncIterator[EngineService]:
    service = EngineService.from_settings(katago_settings(katago_dir, katago_queue=QUEUE))
    service.start()
    await until(lambda: service.lanes[0].started.is_set())
    assert service.state == "ready", service.status()
    yield service
    await service.close()


@pytest_asyncio.fixture(loop_scope="module")
async def service(shared: EngineService) -> AsyncIterator[EngineService]:
    yield shared
    await until(lambda: lane(shared).running == 0 and lane(shared).waiting == 0, timeout=60)


def lane(service: EngineService) -> Lane:
    return service.lanes[0]


async def test_a_position_is_answered_with_ownership_and_score_lead(service: EngineService) -> None:
    answer = await service.analyze(Question(walls(), visits=2, ownership=True), Priority.ESTIMATE)
    assert answer.to_move == "B" and answer.visits >= 1 and 0 <= answer.winrate <= 1 and math.isfinite(answer.score_lead)
    assert answer.ownership is not None and [len(row) for row in answer.ownership] == [9] * 9
    assert answer.ownership[4][0] > 0.5 and answer.ownership[4][8] < -0.5  # Black's side left, White's right
    assert answer.candidates and all(c.point is None or on_board(c.point, 9) for c in answer.candidates)
    # Komi reaches KataGo: the lead is Black's, in points.
    generous = await service.analyze(Question(walls(komi=-30.5), visits=2), Priority.ESTIMATE)
    harsh = await service.analyze(Question(walls(komi=30.5), visits=2), Priority.ESTIMATE)
    assert generous.score_lead > 0 > harsh.score_lead
    # Its speed was measured at start; a 7x7 board goes to the 9x9 process, a 13x13 has none here.
    rate = service.evals_per_second(9)
    assert rate is not None and rate > 0 and service.evals_per_second(7) == rate
    assert service.status()["buffers"]["9x9"]["evals_per_second"] > 0
    with pytest.raises(EngineUnavailable):
        await service.analyze(Question(Position(13), visits=1), Priority.ESTIMATE)


async def test_the_policy_is_reported_when_asked_with_minus_one_on_occupied_points(service: EngineService) -> None:
    answer = await service.analyze(Question(walls(), visits=1, policy=True), Priority.ESTIMATE)
    assert answer.policy is not None and len(answer.policy) == 9 * 9 + 1
    assert answer.policy[4 * 9 + 2] == -1 and answer.policy[4 * 9 + 6] == -1  # C5 and G5 hold stones
    assert abs(sum(p for p in answer.policy if p > 0) - 1) < 0.01
    plain = await service.analyze(Question(walls(), visits=1), Priority.ESTIMATE)
    assert plain.policy is None


async def test_counting_then_estimates_then_background_work(service: EngineService) -> None:
    finished: list[str] = []

    async def ask(name: str, priority: Priority, visits: int) -> None:
        try:
            await service.analyze(Question(walls(), visits=visits), priority)
        finally:
            finished.append(name)

    blocker = asyncio.create_task(ask("blocker", Priority.BACKGROUND, FOREVER))
    await until(lambda: lane(service).running == 1)
    later = asyncio.create_task(ask("later", Priority.BACKGROUND, 2))
    estimate = asyncio.create_task(ask("estimate", Priority.ESTIMATE, 2))
    counting = asyncio.create_task(ask("counting", Priority.COUNTING, 2))
    async with asyncio.timeout(ANSWER_SECONDS):
        await asyncio.gather(counting, estimate)
    # The background question KataGo had was stopped for them, and waits again ahead of the later one.
    assert finished == ["counting", "estimate"]
    assert not blocker.done() and not later.done()
    blocker.cancel()
    await asyncio.wait_for(later, ANSWER_SECONDS)
    assert finished == ["counting", "estimate", "blocker", "later"]


async def test_a_question_nobody_waits_for_is_stopped(service: EngineService) -> None:
    long = asyncio.create_task(service.analyze(Question(walls(), visits=FOREVER), Priority.ESTIMATE))
    await until(lambda: lane(service).running == 1)
    queued = asyncio.create_task(service.analyze(Question(walls(), visits=2), Priority.ESTIMATE))
    await until(lambda: lane(service).waiting == 1)
    queued.cancel()
    await until(lambda: lane(service).waiting == 0)
    long.cancel()
    # KataGo was told to stop: with one analysis thread, nothing else could be answered otherwise.
    answer = await asyncio.wait_for(service.analyze(Question(walls(), visits=2), Priority.ESTIMATE), ANSWER_SECONDS)
    assert answer.visits >= 1
    assert long.cancelled() and queued.cancelled()


async def test_a_full_queue_refuses_with_its_own_error(service: EngineService) -> None:
    running = asyncio.create_task(service.analyze(Question(walls(), visits=FOREVER), Priority.ESTIMATE))
    await until(lambda: lane(service).running == 1)
    waiting = [asyncio.create_task(service.analyze(Question(walls(), visits=2), Priority.BACKGROUND)) for _ in range(QUEUE)]
    await until(lambda: lane(service).waiting == QUEUE)
    with pytest.raises(EngineBusy) as refused:
        await service.analyze(Question(walls(), visits=2), Priority.COUNTING)
    assert refused.value.code == "engine_busy" and refused.value.status == 503
    for task in [running, *waiting]:
        task.cancel()
    await asyncio.gather(running, *waiting, return_exceptions=True)
