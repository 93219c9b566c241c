"""Invariants over random games, driven by hypothesis."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import Game, IllegalMove, rules_for
from app.rules.board import BLACK, WHITE

from tests.rules.positions import stones_hash

RULES = ["chinese", "japanese", "aga", "new_zealand", "ing"]


def random_game(data, size, name, length):
    g = Game(size, rules_for(name))
    played = 0
    for _ in range(length):
        if g.over:  # a Japanese-rules game can end with no result on a third repetition
            return
        legal = sorted(g.legal_points())
        choice = data.draw(st.integers(0, len(legal)), label="move")
        if choice == len(legal):
            g.pass_turn(g.to_move)
        else:
            g.play(g.to_move, legal[choice])
            played += 1
        yield g, played


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([3, 5, 7, 9]), st.sampled_from(RULES))
def test_invariants_every_move(data, size, name):
    for g, played in random_game(data, size, name, 60):
        b = g._board
        # no chain without liberties, and the incremental data match a recomputation
        for p in b.points:
            if b.color[p] in (BLACK, WHITE):
                libs = b.liberties(p)
                assert libs, "a chain on the board has no liberty"
                h = b.head[p]
                stones = b.chain(h)
                assert p in stones
                pseudo = [q for s in stones for q in b.nbrs[s] if b.color[q] == 0]
                assert b.libs[h] == len(pseudo)
                assert b.lsum[h] == sum(pseudo)
                assert b.lsq[h] == sum(q * q for q in pseudo)
                assert b.count[h] == len(stones)
                assert all(b.head[s] == h and b.color[s] == b.color[p] for s in stones)
        on_board = sum(row.count("X") + row.count("O") for row in g.board_rows())
        assert on_board + g.prisoners["B"] + g.prisoners["W"] == played
        assert b.hash == stones_hash(b)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([3, 4, 5, 7]), st.sampled_from(RULES))
def test_undo_restores_exact_state(data, size, name):
    states = []
    for g, _ in random_game(data, size, name, 40):
        states.append(g.state())
    g_final = g if states else None
    if g_final is None:
        return
    while len(states) > 1:
        states.pop()
        g_final.undo()
        assert g_final.state() == states[-1]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([3, 4, 5]), st.sampled_from(RULES))
def test_play_agrees_with_the_full_check_everywhere(data, size, name):
    """Game.play (one-pass board update) refuses exactly what the separate check refuses, with the same
    reason, and a refused move changes nothing."""
    for g, _ in random_game(data, size, name, 30):
        if g.over:
            return
        before = g.state()
        color = g.to_move
        for x in range(size):
            for y in range(size):
                reason = g.illegal_reason(color, (x, y))
                trial = g.copy()
                try:
                    trial.play(color, (x, y))
                except IllegalMove as exc:
                    assert exc.reason == reason
                    assert trial.state() == before
                else:
                    assert reason is None
                    assert trial._board.hash == stones_hash(trial._board)
        assert g.state() == before
