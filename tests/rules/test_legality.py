"""Game.illegal_points, the list the server sends: exactly the empty points where playing fails."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import Game, IllegalMove, rules_for
from tests.rules.positions import play_all
from tests.rules.test_presets import SEND_TWO_RETURN_ONE, _triple_ko_moves

# every ko rule with and without multi-stone suicide
RULES = [
    rules_for("chinese"),  # positional
    rules_for("ing"),  # positional, multi-stone suicide
    rules_for("aga"),  # situational
    rules_for("new_zealand"),  # situational, multi-stone suicide
    rules_for("japanese"),  # simple ko, triple ko voids the game
    rules_for("japanese", multi_stone_suicide=True, triple_ko_no_result=False),  # simple ko only
]


def by_trial(g):
    """The empty points where play fails, each tried on a copy of the game."""
    out = []
    for y in range(g.size):
        for x in range(g.size):
            if g.stone_at((x, y)) is not None:
                continue
            try:
                g.copy().play(g.to_move, (x, y))
            except IllegalMove:
                out.append((x, y))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([2, 3, 4, 5]), st.sampled_from(RULES))
def test_the_illegal_points_are_those_where_a_trial_move_fails(data, size, rules):
    """Random games on small boards (captures, ko fights and repetitions are common there), passes included."""
    g = Game(size, rules)
    for _ in range(50):
        if g.over:
            assert g.illegal_points() == []
            return
        illegal = g.illegal_points()
        assert illegal == by_trial(g)
        assert illegal == g.illegal_points()  # asked again: the same answer
        legal = sorted(g.legal_points(), key=lambda p: (p[1], p[0]))
        choice = data.draw(st.integers(0, len(legal)), label="move")
        if choice == len(legal):
            g.pass_turn(g.to_move)
        else:
            g.play(g.to_move, legal[choice])


def trial_reasons(g):
    """Each empty point -> why a trial move there on a copy of the game fails (None: it succeeds)."""
    out: dict[tuple[int, int], str | None] = {}
    for y in range(g.size):
        for x in range(g.size):
            if g.stone_at((x, y)) is None:
                try:
                    g.copy().play(g.to_move, (x, y))
                    out[(x, y)] = None
                except IllegalMove as exc:
                    out[(x, y)] = exc.reason
    return out


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([2, 3, 4, 5, 7]), st.sampled_from(RULES), st.booleans())
def test_the_list_asked_now_and_then_follows_every_change_of_the_game(data, size, rules, setup):
    """The list is kept up to date move by move while it is asked after every move; here it is asked only now
    and then, between moves, passes, undos, rollbacks, turns given away and copies, from set-up stones or an
    empty board, and every point's ``illegal_reason`` (told by the list when it is known) is checked too."""
    g = Game(size, rules)
    if setup:
        g.add_setup([(0, 0)], [(size - 1, size - 1)], to_move=data.draw(st.sampled_from([None, "B", "W"]), label="first"))
    for _ in range(60):
        if g.over:
            assert g.illegal_points() == []
            return
        step = data.draw(st.sampled_from(["ask", "play", "play", "play", "pass", "undo", "rollback", "turn", "copy"]))
        if step == "ask":
            reasons = trial_reasons(g)
            assert g.illegal_points() == sorted((p for p, r in reasons.items() if r), key=lambda p: (p[1], p[0]))
            for p, reason in reasons.items():
                assert g.illegal_reason(g.to_move, p) == reason
        elif step == "play" or step == "rollback":
            mark = g.checkpoint()
            legal = sorted(g.legal_points(), key=lambda p: (p[1], p[0]))
            if not legal:
                g.pass_turn(g.to_move)
            else:
                g.play(g.to_move, legal[data.draw(st.integers(0, len(legal) - 1), label="move")])
            if step == "rollback":
                g.illegal_points()
                g.rollback(mark)
        elif step == "pass":
            g.pass_turn(g.to_move)
        elif step == "undo" and g.moves:
            g.undo()
        elif step == "turn":
            g.set_to_move("W" if g.to_move == "B" else "B")
        elif step == "copy":
            g = g.copy()


def test_a_long_game_on_the_full_board_under_every_ko_rule():
    """Captures, big chains and long histories: random 19x19 games, the list checked every few moves."""
    rng = random.Random(7)
    points = [(x, y) for y in range(19) for x in range(19)]
    for rules in RULES:
        g = Game(19, rules, handicap=rng.choice([0, 4]))
        for n in range(240):
            if n % 24 == 23:
                assert g.illegal_points() == by_trial(g)
            elif n % 3:
                g.illegal_points()
            rng.shuffle(points)
            for p in points:
                if g.stone_at(p) is None and g.is_legal(g.to_move, p):
                    g.play(g.to_move, p)
                    break
            else:
                g.pass_turn(g.to_move)
            if g.over:
                break


def test_simple_ko_and_single_stone_suicide():
    g = Game(5, rules_for("japanese"))
    # a ko at the top left: W captures at (1,0); Black may not retake at (0,0) at once
    play_all(g, [("B", (1, 0)), ("W", (2, 0)), ("B", (0, 1)), ("W", (1, 1)), ("B", (4, 4)), ("W", (0, 0))])
    assert g.illegal_points() == [(1, 0)]  # retaking the ko (its one neighbour is W's stone in atari)
    g.play("B", (4, 3))  # a threat elsewhere
    assert g.illegal_points() == []  # for White, (1, 0) is an ordinary move
    g.play("W", (4, 2))
    assert g.illegal_points() == []  # the ko may be retaken now
    g.play("B", (1, 0))
    assert g.illegal_points() == [(0, 0)]


def test_suicide_corner_points_are_listed_for_the_side_to_move_only():
    g = Game(5, rules_for("chinese"))
    play_all(g, [("B", (1, 0)), ("W", (4, 4)), ("B", (0, 1)), ("W", (3, 4))])
    assert g.illegal_points() == []  # (0, 0) is Black's own eye
    g.pass_turn("B")
    assert g.illegal_points() == [(0, 0)]  # White would have no liberty there


def test_positional_superko_lists_the_retake_that_situational_superko_allows():
    positional = Game(5, rules_for("chinese"))
    situational = Game(5, rules_for("aga"))
    for g in (positional, situational):
        play_all(g, SEND_TWO_RETURN_ONE)
    assert (0, 1) in positional.illegal_points()
    assert (0, 1) not in situational.illegal_points()


def test_superko_from_a_move_that_captures_nothing_and_has_an_empty_neighbour():
    """The one set lookup: B's stone at (0, 0) would bring back the board of the second move."""
    g = Game(2, rules_for("chinese"))
    play_all(g, [("B", (0, 0)), ("W", (1, 0)), ("B", (0, 1)), ("W", None), ("B", (1, 1)), ("W", (1, 0))])
    assert g.board_rows() == [".O", ".."]
    assert g.illegal_reason("B", (0, 0)) == "superko"
    assert g.illegal_points() == [(0, 0)]
    simple = Game(2, rules_for("japanese"))
    play_all(simple, [("B", (0, 0)), ("W", (1, 0)), ("B", (0, 1)), ("W", None), ("B", (1, 1)), ("W", (1, 0))])
    assert simple.illegal_points() == []


def test_triple_ko_under_superko_lists_the_repeating_capture():
    setup, cycle = _triple_ko_moves()
    g = Game(13, rules_for("chinese"))
    play_all(g, setup)
    play_all(g, cycle[:5])
    color, point = cycle[5]
    assert g.to_move == color and point in g.illegal_points()
    assert g.illegal_points() == by_trial(g)


@pytest.mark.parametrize("name", ["new_zealand", "ing"])
def test_multi_stone_suicide_is_not_listed_where_the_rules_allow_it(name):
    g = Game(3, rules_for(name))
    play_all(g, [("B", (0, 0)), ("W", (1, 0)), ("B", (0, 1)), ("W", (1, 1)), ("B", None), ("W", (1, 2))])
    assert g.to_move == "B" and (0, 2) not in g.illegal_points()
    strict = Game(3, rules_for("chinese"))
    play_all(strict, [("B", (0, 0)), ("W", (1, 0)), ("B", (0, 1)), ("W", (1, 1)), ("B", None), ("W", (1, 2))])
    assert (0, 2) in strict.illegal_points()


def test_the_answer_follows_undo_and_rollback():
    g = Game(5, rules_for("japanese"))
    play_all(g, [("B", (1, 0)), ("W", (2, 0)), ("B", (0, 1)), ("W", (1, 1)), ("B", (4, 4)), ("W", (0, 0))])
    assert g.illegal_points() == [(1, 0)]
    mark = g.checkpoint()
    g.play("B", (4, 3))
    assert g.illegal_points() == []
    g.rollback(mark)
    assert g.illegal_points() == [(1, 0)]
    g.undo()
    assert g.illegal_points() == []
