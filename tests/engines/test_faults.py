"""The engine service when KataGo fails: killed in the middle of a question, and answers that cannot be read (a
program between the service and the real KataGo damages marked answers: ``garbler.py``)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from app.engines.errors import EngineFailed
from app.engines.lane import Lane, Priority
from app.engines.layout import Layout
from app.engines.process import Launch
from app.engines.service import EngineService
from app.engines.analysis import Question
from tests.engines.questions import katago_settings, until, walls

pytestmark = pytest.mark.katago

GARBLER = Path(__file__).with_name("garbler.py")
ANSWER_SECONDS = 120.0  # a restart included


async def test_killed_in_the_middle_of_a_question_it_is_started_again(katago_dir: Path) -> None:
    service = EngineService.from_settings(katago_settings(katago_dir, katago_measure_visits=0))
    lane = service.lanes[0]
    service.start()
    try:
        await until(lambda: lane.state == "ready")
        first = lane.pid
        assert first is not None
        question = asyncio.create_task(service.analyze(Question(walls(), visits=100_000), Priority.ESTIMATE))
        await until(lambda: lane.running == 1)
        os.kill(first, signal.SIGKILL)
        with pytest.raises(EngineFailed) as failed:
            await asyncio.wait_for(question, ANSWER_SECONDS)
        assert failed.value.code == "engine_failed"
        # The next question waits for the new process and is answered by it.
        answer = await asyncio.wait_for(service.analyze(Question(walls(), visits=2), Priority.ESTIMATE), ANSWER_SECONDS)
        assert answer.visits >= 1
        assert lane.restarts == 1 and lane.pid not in (None, first)
    finally:
        await service.close()


async def test_an_answer_that_cannot_be_read_fails_its_question_only(katago_dir: Path) -> None:
    launch = Launch.katago(Layout.under(katago_dir), 9, parallel=1, search_threads=1, niceness=19)
    lane = Lane(9, launch.wrapped([sys.executable, str(GARBLER)]), measure_visits=0)
    service = EngineService([lane], queue=4)
    service.start()

    async def ask(komi: float) -> object:
        return await asyncio.wait_for(service.analyze(Question(walls(komi), visits=2), Priority.ESTIMATE), ANSWER_SECONDS)

    try:
        await until(lambda: lane.state == "ready")
        for damaged in (0.5, 1.5):  # JSON that is not an answer; a line cut short after its id
            with pytest.raises(EngineFailed, match="could not be read"):
                await ask(damaged)
            await ask(7.5)  # the next one is answered by the same process
            assert lane.restarts == 0
        # A line that names no question: the one KataGo had fails, the process is restarted, the next is answered.
        with pytest.raises(EngineFailed, match="could not be read"):
            await ask(2.5)
        await ask(7.5)
        assert lane.restarts == 1
    finally:
        await service.close()
