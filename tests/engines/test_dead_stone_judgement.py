"""KataGo's dead-stone proposal combined from its two readings (each side to move): fake ownership, no KataGo."""

from __future__ import annotations

from app.engines.dead_stones import Reading, judge, visits_for
from app.rules.game import Game


def board(rows: list[str]) -> Game:
    """A game with the stones of ``rows`` (``X`` Black, ``O`` White) set up."""
    game = Game(len(rows))
    black = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "X"]
    white = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "O"]
    game.add_setup(black, white)
    return game


def grid(rows: list[str], values: dict[str, float]) -> list[list[float]]:
    """Ownership from a picture: each character's value (Black's +1 .. White's -1)."""
    return [[values[c] for c in row] for row in rows]


ROWS = [
    ".....",
    ".XXX.",
    ".XO..",
    ".XXX.",
    ".....",
]


def test_a_stone_both_readings_give_away_is_dead() -> None:
    game = board(ROWS)
    owned = grid(ROWS, {".": 0.9, "X": 1.0, "O": 0.95})
    judgement = judge(game, [Reading(owned), Reading(owned)])
    assert judgement.dead == [[2, 2]]
    assert judgement.uncertain == []


def test_readings_that_disagree_leave_the_chain_alive_and_uncertain() -> None:
    game = board(ROWS)
    black_to_move = grid(ROWS, {".": 0.9, "X": 1.0, "O": 0.95})
    white_to_move = grid(ROWS, {".": 0.2, "X": 0.5, "O": -0.7})  # with White to play, the stone might live
    judgement = judge(game, [Reading(black_to_move), Reading(white_to_move)])
    assert judgement.dead == []
    assert judgement.uncertain == [[2, 2]]


def test_an_unsure_reading_is_not_a_decision() -> None:
    game = board(ROWS)
    owned = grid(ROWS, {".": 0.9, "X": 1.0, "O": 0.95})
    unsure = grid(ROWS, {".": 0.1, "X": 0.1, "O": 0.6})
    judgement = judge(game, [Reading(owned, unsure), Reading(owned, unsure)])
    assert judgement.dead == [] and judgement.uncertain == [[2, 2]]


SEKI = [
    ".XO..",
    "XXO..",
    "OOO..",
    ".....",
    ".....",
]


def test_stones_nobody_owns_stay_alive_as_in_seki() -> None:
    game = board(SEKI)
    # KataGo gives the stones of a seki to nobody: neither side's chains are proposed dead, nor uncertain
    owned = grid(SEKI, {"X": 0.05, "O": -0.1, ".": -0.9})
    judgement = judge(game, [Reading(owned), Reading(owned)])
    assert judgement.dead == [] and judgement.uncertain == []


def test_a_chain_one_side_to_move_saves_and_the_other_leaves_to_nobody_is_uncertain() -> None:
    # Not a seki (nobody's whoever moves): Black to play keeps it, White to play makes it nobody's (seen on the
    # adjudicated set: KataGo's search with White to play kills it). Uncertain, not silently alive.
    game = board(ROWS)
    black_to_move = grid(ROWS, {".": -0.9, "X": 1.0, "O": -0.99})
    white_to_move = grid(ROWS, {".": -0.2, "X": 0.01, "O": -0.5})
    judgement = judge(game, [Reading(black_to_move), Reading(white_to_move)])
    assert judgement.dead == [] and judgement.uncertain == [[1, 1], [1, 2], [1, 3], [2, 1], [2, 3], [3, 1], [3, 3]]
    # Its colour's either way, a little less with the other to move: alive.
    steady = grid(ROWS, {".": -0.2, "X": 0.5, "O": -0.5})
    assert judge(game, [Reading(black_to_move), Reading(steady)]).uncertain == []


def test_chains_are_judged_whole() -> None:
    rows = [
        ".....",
        ".OO..",
        ".....",
        "XXXXX",
        ".....",
    ]
    game = board(rows)
    owned = grid(rows, {".": 0.8, "X": 1.0, "O": 0.8})
    owned[1][1] = -0.2  # one stone of the pair looks better than the other: the chain's mean decides
    judgement = judge(game, [Reading(owned), Reading(owned)])
    assert judgement.dead == []  # mean -0.3 from White's side: not dead enough...
    assert judgement.uncertain == [[1, 1], [2, 1]]  # ...and not alive: uncertain, both stones


def test_visits_follow_the_measured_speed() -> None:
    assert visits_for(0.6, 5.0) == 1  # 19x19 on this CPU
    assert visits_for(2.0, 5.0) == 2  # 9x9 on this CPU
    assert visits_for(1000.0, 5.0) == 64  # a GPU: capped


# A disputed chain: White's c3 stone is Black's with Black to play, its own with White to play.
DISPUTED_B = grid(ROWS, {".": 0.9, "X": 1.0, "O": 0.95})
DISPUTED_W = grid(ROWS, {".": -0.2, "X": 0.7, "O": -0.9})


def test_the_side_to_move_decides_a_disputed_chain_with_the_playouts_agreeing() -> None:
    game = board(ROWS)
    readings = [Reading(DISPUTED_B), Reading(DISPUTED_W)]
    # Black to move: Black's reading kills it, and the rules engine's playouts agree.
    assert judge(game, readings, to_move="B", playouts={(2, 2)}).dead == [[2, 2]]
    # The playouts keep it (or were not asked): not killed on KataGo's word alone, uncertain.
    nothing: list[set[tuple[int, int]] | None] = [set(), None]
    for playouts in nothing:
        judgement = judge(game, readings, to_move="B", playouts=playouts)
        assert judgement.dead == [] and judgement.uncertain == [[2, 2]]
    # White to move: White's reading keeps it, firmly: alive, no mark.
    judgement = judge(game, readings, to_move="W", playouts={(2, 2)})
    assert judgement.dead == [] and judgement.uncertain == []


def test_a_deeper_reading_of_the_side_to_move_replaces_its_first() -> None:
    game = board(ROWS)
    readings = [Reading(DISPUTED_B), Reading(DISPUTED_W)]
    unsure = grid(ROWS, {".": 0.2, "X": 0.2, "O": 0.6})
    deeper = Reading(grid(ROWS, {".": 0.5, "X": 0.9, "O": 0.1}), unsure)  # Black to move, deeper: not sure any more
    judgement = judge(game, readings, to_move="B", deeper=deeper, playouts={(2, 2)})
    assert judgement.dead == [] and judgement.uncertain == [[2, 2]]


def test_a_chain_every_reading_leans_to_give_away_dies_with_the_playouts() -> None:
    game = board(ROWS)
    leaning = [Reading(grid(ROWS, {".": 0.2, "X": 0.5, "O": 0.3})), Reading(DISPUTED_B)]  # -0.3 / -0.95
    assert judge(game, leaning, to_move="B", playouts={(2, 2)}).dead == [[2, 2]]
    assert judge(game, leaning, to_move="B", playouts=set()).dead == []
    # Hardly leaning with the side to move (-0.05): uncertain, whatever the playouts say.
    barely = [Reading(grid(ROWS, {".": 0.0, "X": 0.5, "O": 0.05})), Reading(DISPUTED_B)]
    judgement = judge(game, barely, to_move="B", playouts={(2, 2)})
    assert judgement.dead == [] and judgement.uncertain == [[2, 2]]


SEKI_9 = [
    "X.X.O.OX.",
    "XXXXOOOX.",
    "OOOOXXXX.",
    ".O.OX....",
    "OOOOX....",
    "...OX....",
    "...OX....",
    "...OX....",
    "...OX....",
]


def test_a_seki_the_rules_engine_finds_stays_alive_unless_both_readings_kill_it_firmly() -> None:
    game = board(SEKI_9)
    inner_black = [[0, 0], [0, 1], [1, 1], [2, 0], [2, 1], [3, 1]]
    # One reading gives the inner black chain to White: without the seki it would be disputed, with it alive.
    black_to_move = grid(SEKI_9, {".": 0.0, "X": 0.1, "O": -0.1})
    white_to_move = grid(SEKI_9, {".": 0.0, "X": 0.1, "O": -0.1})
    for x, y in inner_black:
        white_to_move[y][x] = -0.8
    judgement = judge(game, [Reading(black_to_move), Reading(white_to_move)], to_move="W", playouts={(0, 0)})
    assert judgement.dead == [] and judgement.uncertain == []
    # Both readings firmly White's (a static seki test does not read sacrifices; KataGo does): dead.
    for x, y in inner_black:
        black_to_move[y][x] = -0.9
    judgement = judge(game, [Reading(black_to_move), Reading(white_to_move)], to_move="W")
    assert judgement.dead == sorted(inner_black)


def test_a_chain_the_deeper_reading_is_unsure_of_is_settled_by_katagos_own_line() -> None:
    game = board(ROWS)
    readings = [Reading(DISPUTED_B), Reading(DISPUTED_W)]
    unsure = grid(ROWS, {".": 0.6, "X": 0.6, "O": 0.6})
    deeper = Reading(grid(ROWS, {".": 0.5, "X": 0.9, "O": 0.5}), unsure)  # Black to move: leans dead, unsure
    # The playouts keep it; KataGo's line (its principal variation played out) captures it: dead.
    assert judge(game, readings, to_move="B", deeper=deeper, playouts=set(), followed={(2, 2)}).dead == [[2, 2]]
    # The line leaves it standing: uncertain.
    judgement = judge(game, readings, to_move="B", deeper=deeper, playouts=set(), followed=set())
    assert judgement.dead == [] and judgement.uncertain == [[2, 2]]
