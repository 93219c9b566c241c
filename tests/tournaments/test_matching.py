"""The matching against exhaustive search: on random graphs (sparse and complete, small and large weights, odd
and even vertex counts) it finds a matching of maximum cardinality and, among those, of maximum weight; the
dense solver (a few candidate edges, then every pair checked against the duals) finds the complete graph's
optimum from any candidates."""

from __future__ import annotations

import random
from functools import cache

import pytest

from app.tournaments.matching import Edge, max_weight_matching, max_weight_matching_dense


def best_by_search(n: int, edges: tuple[Edge, ...]) -> tuple[int, int]:
    """(cardinality, weight) of the best matching, by trying every one."""
    weight = {}
    for i, j, w in edges:
        weight[(i, j)] = weight[(j, i)] = w

    @cache
    def best(mask: int) -> tuple[int, int]:
        i = 0
        while i < n and mask >> i & 1:
            i += 1
        if i == n:
            return 0, 0
        found = best(mask | 1 << i)
        for j in range(i + 1, n):
            if not mask >> j & 1 and (i, j) in weight:
                c, w = best(mask | 1 << i | 1 << j)
                found = max(found, (c + 1, w + weight[(i, j)]))
        return found

    return best(0)


def check(n: int, edges: list[Edge], mate: list[int]) -> tuple[int, int]:
    weight = {(min(i, j), max(i, j)): w for i, j, w in edges}
    for v, m in enumerate(mate):
        if m != -1:
            assert mate[m] == v and (min(v, m), max(v, m)) in weight
    return sum(m != -1 for m in mate) // 2, sum(weight[(v, m)] for v, m in enumerate(mate) if m > v)


@pytest.mark.parametrize("seed", range(6))
def test_matching_is_the_best_one_on_random_graphs(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        n = rng.randint(1, 12)
        density = rng.random()
        top = rng.choice([2, 10, 1000])
        edges = [(i, j, rng.randint(0, top)) for i in range(n) for j in range(i + 1, n) if rng.random() < density]
        rng.shuffle(edges)
        mate = max_weight_matching(n, edges)
        assert check(n, edges, mate) == best_by_search(n, tuple(edges))


class Weights:
    def __init__(self, table: dict[tuple[int, int], int]) -> None:
        self.table = table

    def of(self, i: int, j: int) -> int:
        return self.table[(i, j)]


@pytest.mark.parametrize("seed", range(3))
def test_dense_solver_reaches_the_complete_graphs_optimum_from_few_candidates(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(60):
        n = 2 * rng.randint(1, 7)
        w = {(i, j): rng.randint(-50, 50) for i in range(n) for j in range(i + 1, n)}
        candidates = [[rng.randrange(n)] for _ in range(n)]
        mate = max_weight_matching_dense(n, Weights(w).of, candidates)
        edges = [(i, j, x) for (i, j), x in w.items()]
        assert check(n, edges, mate) == best_by_search(n, tuple(edges))
        assert -1 not in mate


def test_no_edges_and_a_single_vertex() -> None:
    assert max_weight_matching(0, []) == []
    assert max_weight_matching(1, []) == [-1]
    assert max_weight_matching(3, [(0, 1, 5)]) == [1, 0, -1]
