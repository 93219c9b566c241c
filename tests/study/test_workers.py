"""The study workers: a job's answer or its TreeError comes back from the worker process; a job over its
budget is answered study_busy and the pool starts afresh for the next; too many jobs waiting are refused."""

import asyncio

import pytest

from app.errors import ServiceError
from app.study.tree import TreeError
from app.study.workers import StudyWorkers
from tests.study.slow_jobs import refuse, sleep_then


async def test_answers_errors_overruns_and_a_full_queue():
    workers = StudyWorkers(processes=1, queue=2)
    try:
        assert await workers.run(sleep_then, 7, 0, budget=60) == 7
        with pytest.raises(TreeError) as err:
            await workers.run(refuse, "occupied", budget=60)
        assert err.value.code == "occupied" and err.value.message == "refused in the worker"
        with pytest.raises(ServiceError) as busy:
            await workers.run(sleep_then, 1, 60, budget=0.5)
        assert busy.value.code == "study_busy" and busy.value.status == 503 and workers.given_up == 1
        assert await workers.run(sleep_then, 8, 0, budget=60) == 8  # a fresh pool
        slow = [asyncio.create_task(workers.run(sleep_then, i, 2, budget=60)) for i in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(ServiceError) as full:
            await workers.run(sleep_then, 3, 0, budget=60)
        assert full.value.code == "study_busy"
        assert sorted(await asyncio.gather(*slow)) == [0, 1]
    finally:
        workers.close()
