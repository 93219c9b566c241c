"""The policy steps' rule (app/bots/rank_pick.py) on made-up policies: the place of the move played grows with the
kyu rank, obvious moves and passes are kept, and a weak step never puts its own chain where it is taken."""

from __future__ import annotations

import random
from statistics import mean

from app.bots.rank_pick import PLAUSIBLE, STEPS, WIDE_FROM, choose, loses_a_chain, mean_place, picks, pool_floor, step_named
from app.bots.sparring import SEARCH_KYU, WEAKEST_KYU, Aim, Offer, advantage, aim, kyu_of, offer, outcomes
from app.rules import Game

SIZE = 9


def falling_policy(size: int = SIZE, pass_share: float = 0.0) -> list[float]:
    """Every point legal, the policy falling by a third from each point to the next in row order."""
    raw = [0.67**i for i in range(size * size)]
    total = sum(raw) / (1 - pass_share)
    return [p / total for p in raw] + [pass_share]


def place_played(kyu: float | None, draws: int = 400) -> float:
    rng = random.Random(7)
    game = Game(SIZE)
    policy = falling_policy()
    places = []
    for _ in range(draws):
        x, y = choose(policy, game, kyu, rng) or (0, 0)
        places.append(y * SIZE + x + 1)
    return mean(places)


def test_the_weaker_the_step_the_further_down_the_policy_its_moves() -> None:
    places = [place_played(kyu) for kyu in (25, 15, 7, 1)]
    assert places == sorted(places, reverse=True) and places[0] > 3 * places[-1], places
    assert place_played(None) == 1  # the network's own choice
    # Fewer moves on a smaller board, but a small board's place less than in proportion to its area.
    assert 2 * mean_place(25, 9) < mean_place(25, 19) < 361 / 81 * mean_place(25, 9) and mean_place(0, 19) < 2.5
    assert picks(25, 19, 300) < picks(5, 19, 300) and picks(40, 9, 3) == 1


def test_an_obvious_move_and_a_pass_are_played_at_any_rank() -> None:
    game = Game(SIZE)
    obvious = [0.0] * (SIZE * SIZE + 1)
    obvious[40], obvious[41] = 0.95, 0.05
    assert all(choose(obvious, game, 25, random.Random(seed)) == (4, 4) for seed in range(20))
    passing = falling_policy(pass_share=0.9)
    assert all(choose(passing, game, 25, random.Random(seed)) is None for seed in range(20))
    nothing = [-1.0] * (SIZE * SIZE) + [1.0]
    assert choose(nothing, game, 10, random.Random(1)) is None


def corner_game() -> Game:
    """Black A9-B9 (top left) with White at C9 and B8 around it: Black A8 would leave three stones in atari."""
    game = Game(SIZE)
    for colour, point in (("B", (0, 0)), ("W", (2, 0)), ("B", (1, 0)), ("W", (1, 1)), ("B", (8, 8)), ("W", (7, 8))):
        game.play(colour, point)
    return game


def test_a_weak_step_never_plays_a_self_atari_that_loses_the_chain() -> None:
    game = corner_game()
    assert game.to_move == "B"
    assert loses_a_chain(game, "B", (0, 1))  # A8: A9-B9-A8 with one liberty, A7, where White may play
    assert not loses_a_chain(game, "B", (4, 4))
    policy = [0.0] * (SIZE * SIZE + 1)
    policy[4 * SIZE + 4] = 0.3  # the top move: E5
    policy[1 * SIZE + 0] = 0.25  # A8, the second
    for i in (20, 30, 50, 60, 70):
        policy[i] = 0.09
    played = {choose(policy, game, 25, random.Random(seed)) for seed in range(200)}
    assert (0, 1) not in played and (4, 4) in played and len(played) > 2


def test_the_steps_go_from_beginner_to_the_search() -> None:
    assert len(STEPS) >= 8 and STEPS[0].strength == "25k" and STEPS[-1].search
    assert [step.kyu for step in STEPS[:7]] == sorted((step.kyu for step in STEPS[:7] if step.kyu is not None), reverse=True)
    assert step_named("kata-7k").kyu == 7 and step_named("15k").name == "Kata-15k"
    assert step_named("Kata-Sparring").adaptive


def test_the_sparring_partner_aims_at_the_player_and_moves_with_the_results() -> None:
    assert kyu_of("12k") == 12 and kyu_of("12k?") == 12 and kyu_of("1d") == 0 and kyu_of("3d") == -2
    assert aim(12, []).kyu == 12
    won, lost = aim(12, [1.0]).kyu, aim(12, [0.0]).kyu
    assert won is not None and lost is not None and won > 12 > lost  # it won: weaker next time; lost: stronger
    # The newest game counts most; old ones fade; a draw moves nothing.
    recent_win = aim(12, [1.0, 0.0]).kyu
    assert recent_win is not None and recent_win > 12 and aim(12, [0.5, 0.5]).kyu == 12
    assert aim(1, [0.0, 0.0, 0.0]) == Aim(None) and aim(-5, []) == Aim(None, search=True)
    assert aim(29, [1.0] * 6).kyu == 30


def test_the_partner_reads_its_own_results_from_the_head_to_head() -> None:
    def game(result: str, bot_colour: str, status: str = "finished") -> dict:
        return {
            "status": status,
            "result": result,
            "players": {bot_colour: {"id": 7}, "W" if bot_colour == "B" else "B": {"id": 3}},
        }

    profile = {
        "head_to_head": {
            "opponent": {"id": 7},
            "games": [game("B+R", "B"), game("B+3.5", "W"), game("Draw", "W"), game("Void", "B"), game("W+R", "W")],
        }
    }
    assert outcomes(profile) == [1.0, 0.0, 0.5, 1.0]
    assert outcomes({"head_to_head": None}) == []


def test_the_weakest_steps_also_draw_moves_the_network_would_not_consider() -> None:
    """Below ``WIDE_FROM`` kyu the pool widens past the plausible moves (never to a self-atari or an own eye)."""
    assert pool_floor(WIDE_FROM) == pool_floor(1) == PLAUSIBLE and pool_floor(25) < pool_floor(15) < PLAUSIBLE / 10
    game = Game(SIZE)
    policy = [0.0] * (SIZE * SIZE + 1)
    policy[40] = 0.6  # E5, not obvious
    for i in range(SIZE * SIZE):
        if i != 40:
            policy[i] = 0.4 * 1e-4 / 80  # every other point far below PLAUSIBLE of the top move
    weak = {choose(policy, game, 25, random.Random(seed)) for seed in range(100)}
    strong = {choose(policy, game, 7, random.Random(seed)) for seed in range(100)}
    assert strong == {(4, 4)} and len(weak) > 10


def test_the_partner_discounts_a_games_handicap_and_offers_what_its_reach_leaves() -> None:
    assert advantage(0, 7.5, 19, opponent_black=True) == 0 == advantage(0, 6.5, 9, opponent_black=False)  # even games
    assert advantage(4, 0.5, 19, opponent_black=True) == 4 and advantage(4, 0.5, 19, opponent_black=False) == -4
    # Four stones to a 12 kyu: the partner plays four ranks stronger; given four, four weaker.
    assert aim(12, [], advantage=4).kyu == 8 and aim(12, [], advantage=-4).kyu == 16
    # Within its reach: an even game at the wanted rank.
    assert offer(12, [1.0], 19) == Offer(0, None, None, aim(12, [1.0]))
    # Beyond its weakest: stones to the player, and the aim what is left after them.
    beyond = offer(WEAKEST_KYU + 3, [], 19)
    assert (beyond.handicap, beyond.komi, beyond.player_black) == (3, 0.5, True) and beyond.aim.kyu == WEAKEST_KYU
    # Beyond its search: the partner takes the stones and searches.
    strong = offer(SEARCH_KYU - 5, [], 19)
    assert (strong.handicap, strong.player_black, strong.aim) == (5, False, Aim(None, search=True))
    assert offer(WEAKEST_KYU + 0.3, [], 19).handicap == 0 and offer(WEAKEST_KYU + 1, [], 19).komi == 0.5
