"""Single and double elimination played out with random upsets: seeding by rating, walkovers for the empty
places, each player out after one loss (single) or two (double), the grand final replayed exactly when the
lower-bracket player wins it, and placings from the round each player went out in."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.tournaments.model import Bye, Entrant, Format, PairingError, Result, RoundInput, RoundPairing, TournamentRules
from app.tournaments.pairing import pair_round
from app.tournaments.pairing.elimination import placings, seed_positions
from app.tournaments.validation import rounds_needed


def run(
    fmt: Format, n: int, upset: float, seed: int
) -> tuple[list[RoundPairing], list[Result], list[Bye], list[tuple[int, str]], str]:
    rng = random.Random(seed)
    entrants = tuple(Entrant(f"p{i:02d}", f"P{i}", 2400.0 - 10 * i, 30) for i in range(n))
    rules = TournamentRules(fmt, rounds=rounds_needed(fmt, n), tiebreaks=())
    rating = {e.player_id: e.rating for e in entrants}
    done: list[RoundPairing] = []
    results: list[Result] = []
    byes: list[Bye] = []
    stop = ""
    for rnd in range(1, rules.rounds + 1):
        try:
            rp = pair_round(RoundInput(rules, entrants, rnd, results=tuple(results), byes=tuple(byes)))
        except PairingError as e:
            stop = e.code
            break
        done.append(rp)
        for p in rp.pairings:
            strong, weak = sorted((p.black, p.white), key=lambda x: -rating[x])
            winner = weak if rng.random() < upset else strong
            results.append(Result(rnd, p.black, p.white, "B" if winner == p.black else "W"))
        byes.extend(rp.byes)
    places = placings(RoundInput(rules, entrants, 1, results=tuple(results), byes=tuple(byes)))
    return done, results, byes, places, stop


def losses(results: list[Result]) -> Counter[str]:
    return Counter(r.white if r.outcome == "B" else r.black for r in results)


def test_seed_positions_keep_the_top_seeds_apart() -> None:
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_positions(4) == [1, 4, 2, 3]


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 16])
@pytest.mark.parametrize("seed", range(4))
def test_single_elimination_everyone_but_the_champion_loses_once(n: int, seed: int) -> None:
    done, results, byes, places, _ = run("single_elimination", n, 0.3, seed)
    lost = losses(results)
    assert set(lost.values()) == {1} and len(lost) == n - 1
    champion = [p for _, p in places if p not in lost]
    assert len(champion) == 1 and places[0] == (1, champion[0])
    final = done[-1].pairings
    assert len(final) == 1 and places[1][0] == 2
    assert {p for _, p in places[:2]} == {final[0].black, final[0].white}
    # the empty places of the bracket went to the top seeds, who pass round one without a game
    first_walkovers = [b.player for b in done[0].byes]
    assert first_walkovers == [f"p{i:02d}" for i in range(len(first_walkovers))]
    assert len(first_walkovers) == (1 << (n - 1).bit_length()) - n


@pytest.mark.parametrize("n", [2, 3, 6, 8, 11, 16])
@pytest.mark.parametrize("seed", range(5))
def test_double_elimination_two_losses_out_and_the_reset_only_after_the_first_loss(n: int, seed: int) -> None:
    done, results, byes, places, stop = run("double_elimination", n, 0.35, seed)
    lost = losses(results)
    champion = places[0][1]
    assert places[0][0] == 1 and lost[champion] <= 1
    assert all(lost[p] == 2 for p in lost if p != champion)
    assert len([p for p in lost if p != champion]) == n - 1
    finals = [(rp.round, p) for rp in done for p in rp.pairings if p.bracket == "grand_final"]
    resets = [p for rp in done for p in rp.pairings if p.bracket == "grand_final_reset"]
    assert len(finals) == 1 and len(resets) <= 1
    gf_round, gf = finals[0]
    gf_result = next(r for r in results if r.round == gf_round)
    gf_winner = gf_result.black if gf_result.outcome == "B" else gf_result.white
    before = losses([r for r in results if r.round < gf_round])
    # the reset is played exactly when the grand final's winner came from the lower bracket (had lost once)
    assert bool(resets) == (before[gf_winner] == 1)
    if resets:
        assert {resets[0].black, resets[0].white} == {gf.black, gf.white}
    else:
        assert champion == gf_winner and stop in ("", "bracket_finished")
    assert places[1][0] == 2
    losers_final = [(rp.round, p) for rp in done for p in rp.pairings if p.bracket == "losers"]
    if losers_final:  # third: the loser of the last losers' bracket match, alone
        rnd, last = losers_final[-1]
        game = next(r for r in results if r.round == rnd and r.black == last.black)
        third = game.white if game.outcome == "B" else game.black
        assert (3, third) in places and [pl for pl, _ in places].count(3) == 1


def test_a_jigo_in_elimination_waits_for_the_director() -> None:
    entrants = tuple(Entrant(f"p{i}", f"P{i}", 2000.0 - i, 30) for i in range(4))
    rules = TournamentRules("single_elimination", rounds=2, tiebreaks=())
    rp = pair_round(RoundInput(rules, entrants, 1))
    results = tuple(Result(1, p.black, p.white, "jigo") for p in rp.pairings)
    with pytest.raises(PairingError) as err:
        pair_round(RoundInput(rules, entrants, 2, results=results))
    assert err.value.code == "match_undecided"
    with pytest.raises(PairingError) as missing:
        pair_round(RoundInput(rules, entrants, 2))
    assert missing.value.code == "result_missing"


def test_an_absent_player_loses_the_match_without_a_rated_game() -> None:
    entrants = tuple(Entrant(f"p{i}", f"P{i}", 2000.0 - i, 30) for i in range(4))
    rules = TournamentRules("single_elimination", rounds=2, tiebreaks=())
    rp = pair_round(RoundInput(rules, entrants[:3], 1, absent=("p3",), everyone=entrants))
    assert [(b.player, b.kind) for b in rp.byes] == [("p0", "bye"), ("p3", "absent")]
    results = tuple(Result(1, p.black, p.white, "B") for p in rp.pairings)
    final = pair_round(RoundInput(rules, entrants, 2, results=results, byes=rp.byes, everyone=entrants))
    assert len(final.pairings) == 1 and "p0" in (final.pairings[0].black, final.pairings[0].white)
