"""McMahon and Swiss pairing by maximum-weight matching, checked against exhaustive search on small fields and
against the EGF's examples of what a round must look like: no avoidable repeat, then the least score gap, the
fold within a score group, the bars only in a McMahon, the handicap from the MMS difference, fair byes."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import pytest

from app.tournaments.mcmahon_score import mcmahon_scores, starting_mms
from app.tournaments.model import Bye, Entrant, Format, Outcome, Result, RoundInput, TournamentRules
from app.tournaments.pairing import pair_round
from app.tournaments.scores import opponents, points

from .helpers import field, play


def perfect_matchings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def random_history(
    rng: random.Random, rules: TournamentRules, entrants: tuple[Entrant, ...], rounds: int
) -> tuple[list[Result], list[Bye]]:
    results: list[Result] = []
    byes: list[Bye] = []
    for rnd in range(1, rounds + 1):
        rp = pair_round(RoundInput(rules, entrants, rnd, results=tuple(results), byes=tuple(byes)))
        for p in rp.pairings:
            outcome: Outcome = rng.choice(["B", "W", "B", "W", "jigo"])
            results.append(Result(rnd, p.black, p.white, outcome))
        byes.extend(rp.byes)
    return results, byes


@pytest.mark.parametrize("fmt", ["swiss", "mcmahon"])
@pytest.mark.parametrize("seed", range(8))
def test_no_repeat_then_least_score_gap_against_every_possible_round(fmt: Format, seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([6, 8, 10])
    entrants = tuple(Entrant(f"p{i}", f"P{i}", 2000 - 30 * i + rng.randint(-20, 20), rng.randint(20, 34)) for i in range(n))
    rules = TournamentRules(fmt, rounds=6, top_bar=32, bottom_bar=24, seed=seed)
    rounds_before = rng.randint(1, 4)
    results, byes = random_history(rng, rules, entrants, rounds_before)
    inp = RoundInput(rules, entrants, rounds_before + 1, results=tuple(results), byes=tuple(byes))
    rp = pair_round(inp)
    if fmt == "mcmahon":
        score = mcmahon_scores(rules, entrants, results, byes, inp.round)
    else:
        won = points(results, byes, inp.round)
        score = {e.player_id: won.get(e.player_id, 0.0) for e in entrants}
    met = opponents(results)

    def cost(pairs: list[tuple[str, str]]) -> tuple[int, float]:
        repeats = sum(1 for a, b in pairs if b in met.get(a, set()))
        return repeats, sum((score[a] - score[b]) ** 2 for a, b in pairs)

    got = cost([(p.black, p.white) for p in rp.pairings])
    best = min(cost(m) for m in perfect_matchings([e.player_id for e in entrants]))
    assert got == best


def test_a_score_group_is_folded_top_half_against_bottom_half() -> None:
    entrants = field(8)
    rp = pair_round(RoundInput(TournamentRules("swiss", rounds=3), entrants, 1))
    pairs = {frozenset((p.black, p.white)) for p in rp.pairings}
    assert pairs == {frozenset((f"p{i:03d}", f"p{i + 4:03d}")) for i in range(4)}
    assert all("same_score_group" in p.why.notes for p in rp.pairings)


def test_bars_never_reach_a_swiss() -> None:
    # the same field and bars: a McMahon's first round pairs within starting groups, a Swiss folds the field
    entrants = tuple(Entrant(f"p{i}", f"P{i}", 2400.0 - 50 * i, 36 - 2 * i) for i in range(8))
    mcmahon = pair_round(RoundInput(TournamentRules("mcmahon", 3, top_bar=34, bottom_bar=26), entrants, 1))
    swiss = pair_round(RoundInput(TournamentRules("swiss", 3, top_bar=34, bottom_bar=26), entrants, 1))
    assert {frozenset((p.black, p.white)) for p in swiss.pairings} == {frozenset((f"p{i}", f"p{i + 4}")) for i in range(4)}
    assert all(p.why.figures == (("black_score", 0.0), ("white_score", 0.0)) for p in swiss.pairings)
    # ranks 36, 34, 32, 30 ... with the top bar at 34: p0 and p1 both start at 34, alone in the top group
    opponent = {p.black: p.white for p in mcmahon.pairings} | {p.white: p.black for p in mcmahon.pairings}
    assert opponent["p0"] == "p1"
    top = next(p for p in mcmahon.pairings if "p0" in (p.black, p.white))
    assert top.why.figures == (("black_score", 34.0), ("white_score", 34.0))


def test_mcmahon_handicap_is_the_mms_difference_less_the_correction_under_the_ceiling() -> None:
    entrants = (
        Entrant("a", "A", 2400, 34),
        Entrant("b", "B", 2000, 30),
        Entrant("c", "C", 1500, 24),
        Entrant("d", "D", 1000, 14),
    )
    rules = TournamentRules("mcmahon", 1, top_bar=34, bottom_bar=10, handicap=True, handicap_correction=1)
    rp = pair_round(RoundInput(rules, entrants, 1))
    by_pair = {frozenset((p.black, p.white)): p for p in rp.pairings}
    ab = by_pair[frozenset(("a", "b"))]
    assert (ab.black, ab.white, ab.handicap, ab.komi_note) == ("b", "a", 3, "handicap")
    cd = by_pair[frozenset(("c", "d"))]
    assert (cd.black, cd.handicap) == ("d", 9)  # 10 - 1 = 9, at the ceiling
    capped = TournamentRules("mcmahon", 1, top_bar=34, bottom_bar=10, handicap=True, handicap_ceiling=4)
    rp = pair_round(RoundInput(capped, entrants, 1))
    assert sorted(p.handicap for p in rp.pairings) == [4, 4]
    even = pair_round(RoundInput(TournamentRules("mcmahon", 1, top_bar=34, bottom_bar=10), entrants, 1))
    assert {p.handicap for p in even.pairings} == {0} and {p.komi_note for p in even.pairings} == {"even"}


def test_one_stone_is_no_komi() -> None:
    entrants = (Entrant("a", "A", 2000, 30), Entrant("b", "B", 1900, 29))
    rules = TournamentRules("mcmahon", 1, handicap=True)
    (p,) = pair_round(RoundInput(rules, entrants, 1)).pairings
    assert (p.black, p.handicap, p.komi_note) == ("b", 1, "no_komi")


@pytest.mark.parametrize("fmt", ["swiss", "mcmahon"])
def test_the_bye_goes_to_the_lowest_score_among_those_with_fewest_byes(fmt: Format) -> None:
    rules = TournamentRules(fmt, rounds=9, top_bar=34, bottom_bar=26)
    entrants = field(9)
    done, results, byes = play(rules, entrants, 9)
    given: Counter[str] = Counter()
    for rp in done:
        (bye,) = rp.byes
        rnd = rp.round
        if fmt == "mcmahon":
            score = mcmahon_scores(rules, entrants, results, byes, rnd)
        else:
            won = points(results, byes, rnd)
            score = {e.player_id: won.get(e.player_id, 0.0) for e in entrants}
        fewest = min(given[e.player_id] for e in entrants)
        eligible = [e.player_id for e in entrants if given[e.player_id] == fewest]
        assert given[bye.player] == fewest
        assert score[bye.player] == min(score[p] for p in eligible)
        given[bye.player] += 1
    assert set(given.values()) == {1}


def test_absent_and_withdrawn_players_are_not_paired_and_late_entrants_wait_for_their_round() -> None:
    entrants = field(10)
    late = Entrant("late", "Late", 1800, 20, registered_round=2)
    rules = TournamentRules("swiss", rounds=3)
    inp = RoundInput(rules, (*entrants, late), 1, absent=("p001",), withdrawn=("p002",))
    rp = pair_round(inp)
    paired = {p.black for p in rp.pairings} | {p.white for p in rp.pairings}
    assert "p001" not in paired and "p002" not in paired and "late" not in paired
    assert [(b.player, b.kind) for b in rp.byes] == [("p001", "absent")]
    assert len(paired) == 8  # ten, less the absent and the withdrawn; the late entrant is not yet in


@pytest.mark.parametrize("fmt", ["swiss", "mcmahon"])
def test_the_sparse_first_pass_ends_at_the_complete_graphs_optimum(fmt: Format, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.tournaments import matching
    from app.tournaments.pairing import scored

    totals: dict[str, int] = {}

    def fast(n: int, weight: Callable[[int, int], int], candidates: Sequence[Sequence[int]]) -> list[int]:
        mate = matching.max_weight_matching_dense(n, weight, candidates)
        totals["fast"] = sum(weight(i, j) for i, j in enumerate(mate) if i < j)
        return mate

    def complete(n: int, weight: Callable[[int, int], int], candidates: Sequence[Sequence[int]]) -> list[int]:
        mate = matching.max_weight_matching_textbook(n, [(i, j, weight(i, j)) for i in range(n) for j in range(i + 1, n)])
        totals["complete"] = sum(weight(i, j) for i, j in enumerate(mate) if i < j)
        return mate

    rng = random.Random(5)
    entrants = tuple(Entrant(f"p{i:02d}", f"P{i}", 2300.0 - 9 * i, 34 - i // 4) for i in range(60))
    rules = TournamentRules(fmt, rounds=5, top_bar=32, bottom_bar=24)
    results, byes = random_history(rng, rules, entrants, 4)
    inp = RoundInput(rules, entrants, 5, results=tuple(results), byes=tuple(byes))
    monkeypatch.setattr(scored, "max_weight_matching_dense", fast)
    pair_round(inp)
    monkeypatch.setattr(scored, "max_weight_matching_dense", complete)
    pair_round(inp)
    assert totals["fast"] == totals["complete"]


def test_starting_mcmahon_scores_between_the_bars() -> None:
    rules = TournamentRules("mcmahon", 3, top_bar=32, bottom_bar=25)  # top bar 3d, bottom bar 5k
    ranks = {"7d": 36, "3d": 32, "2d": 31, "1k": 29, "5k": 25, "12k": 18}
    starts = {label: starting_mms(rank, rules) for label, rank in ranks.items()}
    assert starts == {"7d": 32, "3d": 32, "2d": 31, "1k": 29, "5k": 25, "12k": 25}
    assert {starting_mms(rank, TournamentRules("swiss", 3, top_bar=32, bottom_bar=25)) for rank in ranks.values()} == {0}


@pytest.mark.parametrize("fmt", ["single_elimination", "double_elimination", "round_robin"])
def test_bars_and_handicaps_change_nothing_outside_a_mcmahon(fmt: Format) -> None:
    entrants = tuple(Entrant(f"p{i}", f"P{i}", 2400.0 - 50 * i, 36 - 3 * i) for i in range(6))
    plain = TournamentRules(fmt, rounds=5, tiebreaks=())
    barred = TournamentRules(fmt, rounds=5, top_bar=30, bottom_bar=20, handicap=True, tiebreaks=())
    a, b = pair_round(RoundInput(plain, entrants, 1)), pair_round(RoundInput(barred, entrants, 1))
    assert a.pairings == b.pairings and a.byes == b.byes
    assert {p.handicap for p in b.pairings} == {0}
