"""Chains in seki as the rules engine finds them (``Game.seki_stones``): composed positions and one of GNU Go's
self-play endings. A seki is found only where neither side can approach; a capturing race with a liberty outside,
an eye against none, a chain that can connect out, and a lone stone in territory are not sekis."""

from __future__ import annotations

from app.rules.coords import to_gtp
from app.rules.game import Game
from tests.rules.dead_positions import load
from tests.rules.positions import SEKI_ROWS


def game(rows: list[str], to_move: str = "B") -> Game:
    g = Game(len(rows))
    black = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "X"]
    white = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "O"]
    g.add_setup(black, white, to_move)
    return g


def stones(rows: list[str], chars: str) -> set[tuple[int, int]]:
    return {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c in chars}


def test_two_shared_liberties_and_no_eyes_is_a_seki() -> None:
    # Black's corner chain and White's chain share the liberties a1-b... neither can fill either point.
    assert game(SEKI_ROWS).seki_stones() == {(1, 0), (0, 1), (1, 1), (2, 1), (3, 0), (3, 1), (4, 1), (5, 0), (5, 1)}


# Black's a9 c9 a8-d8 (eye b9) and White's e9 g9 e8-g8 (eye f9) share d9, inside each other's walls: a seki with
# an eye each.
EYE_EACH = [
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


def test_one_eye_each_and_a_shared_liberty_is_a_seki() -> None:
    assert game(EYE_EACH).seki_stones() == {
        (0, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 0),
        (6, 0),
        (4, 1),
        (5, 1),
        (6, 1),
    }


# Black's a9 c9 a8-c8 have an eye (b9) and share d9 with White's d8-f8 f9, which have none: Black fills d9 safely
# (it keeps two liberties), White is then in atari with no way out. Not a seki.
EYE_AGAINST_NONE = [
    "X.X..OX..",
    "XXXOOOX..",
    "OOOXXXX..",
    ".O.X.....",
    "OOOX.....",
    "..OX.....",
    "..OX.....",
    "..OX.....",
    "..OX.....",
]


def test_an_eye_against_no_eye_is_not_a_seki() -> None:
    assert game(EYE_AGAINST_NONE).seki_stones() == set()


# A lone white stone in Black's territory, and Black's walls: no seki, whichever side is to move.
LONE = [
    "....X....",
    "..O.X....",
    "....X....",
    "XXXXX....",
    ".....OOOO",
    ".....O...",
    ".....O.X.",
    ".....O...",
    ".....O...",
]


def test_a_lone_stone_in_territory_is_not_in_seki() -> None:
    assert game(LONE, "W").seki_stones() == set() == game(LONE, "B").seki_stones()


def test_a_chain_that_connects_out_is_not_in_seki() -> None:
    # GNU Go's self-play (level 8 game 55): Black's a6 cannot be approached where it stands, but filling a5
    # connects it to a living group, and then it fills a7 and captures White's chain: dead, not seki.
    (position,) = [p for p in load(9) if p.note.startswith("level 8 seed 9 game 55 ")]
    assert game(position.rows, position.to_move).seki_stones() == set()


def test_gnugo_seki_in_a_self_play_ending_is_found() -> None:
    (position,) = [p for p in load(9) if p.note.startswith("level 8 seed 9 game 59 ")]
    found = game(position.rows, position.to_move).seki_stones()
    assert {to_gtp(p, 9) for p in found} == {to_gtp(p, 9) for p in position.seki}
    # and it is the only one GNU Go's positions of every size hold
    for size in (9, 13, 19):
        for other in load(size):
            if other is not position and other.note != position.note:
                assert game(other.rows, other.to_move).seki_stones() == set(), other.note
