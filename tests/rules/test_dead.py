"""The dead-stone proposal: sekis stay alive, stones in settled territory die, and it agrees with GNU Go
on the stored self-play positions (``tests/rules/data``, made by ``tests.rules.gnugo_dead_agreement``)."""

import pytest

from app.rules.board import BLACK, WHITE
from app.rules.dead import propose_dead_on_board
from tests.rules.dead_positions import Position, load, parse
from tests.rules.positions import SEKI_ROWS, game_from_rows


def points(rows: list[str], chars: str) -> set[tuple[int, int]]:
    return {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch in chars}


def propose(pos: Position) -> set[tuple[int, int]]:
    return propose_dead_on_board(pos.board(), BLACK if pos.to_move == "B" else WHITE)


def test_seki_stays_alive():
    g = game_from_rows(SEKI_ROWS)
    assert g.score([]).seki == [(2, 0)]
    assert g.propose_dead() == set()


def test_seki_in_a_self_play_ending_stays_alive():
    # GNU Go: the White chain at the lower right lives in seki with Black's chains around it
    (pos,) = parse("""# level 8 seed 9 game 59
to_move W
dead
seki E1 F1 F2 F3 G1 G3 H1 H2 H3 H4 J2 J4 J5
....XXXO.
.....XO.O
....XOOO.
XXX..XOOO
OOXXXXXOX
O.OOOOOXX
....OXXX.
...OOX.OX
...OXXXO.
""")
    assert propose(pos) == set()


def test_lone_stones_in_settled_territory_are_dead():
    rows = [
        "....XO...",
        "....XO...",
        "....XO...",
        "..O.XO...",
        "....XO...",
        "....XO...",
        "....XO.X.",
        "....XO...",
        "....XO...",
    ]
    g = game_from_rows(rows)
    assert g.propose_dead() == {(2, 3), (7, 6)}
    assert g.score(g.propose_dead()).result_text() == "B+1.5"


def test_stones_left_in_the_opponents_framework_are_dead():
    # White's four loose stones at the lower right cannot live against Black's wall and Black's
    # stones on the second line (GNU Go: dead, B+33.5). Plain random playouts let them live.
    (pos,) = parse("""# level 1 seed 9 game 84 moves 38 score B+33.5
to_move B
dead A1 B8 F4 G5 H3 H5
seki
...OXX...
OXOOOX...
.OOOXX...
..OOOXXX.
OOXXX.OO.
XXX..O...
.......O.
.X.X.X...
O........
""")
    assert propose(pos) == pos.dead


def test_weak_stones_in_contested_ground_are_dead():
    # Black's five stones on the right hold their points in about half the playouts; GNU Go calls
    # them dead (W+26.5), and White's stones around them, just as unsure, stay alive.
    (pos,) = parse("""# level 1 seed 13 game 15 moves 88 score W+26.5
to_move B
dead K6 K7 L8 M5 M7
seki
..XOO........
.X.XO.O......
..XXOO.O.....
..XOOOOXOO.O.
..XOXXXXXO...
.XOOOOX.XOX..
..XOXXXXOX.X.
.X.X..XOOXO..
..X..XXOO..X.
.....XOOO..O.
..X..XXOO..O.
.....XOO.....
.....XXO.....
""")
    assert propose(pos) == pos.dead


def test_same_position_same_proposal():
    pos = load(9)[0]
    assert propose(pos) == propose(pos)


def test_the_seed_only_moves_unsure_chains():
    # another seed gives the same proposal on a clear position
    pos = load(19)[0]
    board = pos.board()
    to_move = BLACK if pos.to_move == "B" else WHITE
    assert propose_dead_on_board(board, to_move, seed=1) == propose_dead_on_board(board, to_move, seed=2) == pos.dead


@pytest.mark.parametrize(("size", "at_least"), [(9, 60), (13, 60), (19, 60)])
def test_agrees_with_gnugo_on_stored_self_play_endings(size, at_least):
    positions = load(size)
    assert len(positions) >= at_least
    same = sum(propose(pos) == pos.dead for pos in positions)
    assert same >= 0.98 * len(positions), f"{same} of {len(positions)} identical"
