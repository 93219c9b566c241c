"""The study workers: a job's answer or its TreeError comes back from the worker process; a job over its
budget is answered study_busy and the pool starts afresh for the next; too many jobs waiting are refused."""

import asyncio

import pytest

from app.errors import ServiceError
from app.study import jobs
from app.study.schemas import tree_to_doc
from app.study.tree import LIMITS, Setup, Tree, TreeError
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


async def test_a_deep_tree_comes_back_from_a_worker_as_it_was() -> None:
    """A stored tree is rebuilt in a worker and crosses back flat: a variation at the depth limit, comments,
    marks and retired ids all arrive."""
    tree = Tree(Setup(size=19))
    node, game = tree.root, tree.start()
    for n in range(LIMITS.depth):
        node, _ = tree.extend(node, game, "BW"[n % 2], None)  # passes: any depth is legal
    tree.set_comment(node.id, "the end")
    tree.set_mark(node.id, (3, 3), "label", "A")
    tree.remove(tree.play(0, (4, 4))[0].id)
    doc = tree_to_doc(tree).model_dump(mode="json")
    workers = StudyWorkers(1)
    try:
        back = await workers.run(jobs.doc_to_tree, doc, LIMITS, budget=60)
    finally:
        workers.close()
    assert tree_to_doc(back) == tree_to_doc(tree)
    assert back.node(node.id).depth == LIMITS.depth and back.next_id == tree.next_id
    assert back.game_at(node.id).to_move == tree.game_at(node.id).to_move
