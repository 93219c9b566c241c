import pytest

from app.rules import PRESETS, Game, IllegalMove, RuleSet, rules_for
from tests.rules.positions import SEKI_ROWS, game_from_rows, play_all


def test_presets_table():
    c = PRESETS["chinese"]
    assert (c.scoring, c.ko, c.multi_stone_suicide, c.komi, c.handicap_compensation) == ("area", "positional", False, 7.5, "n")
    j = PRESETS["japanese"]
    assert (j.scoring, j.ko, j.komi, j.triple_ko_no_result, j.handicap_compensation) == ("territory", "simple", 6.5, True, "none")
    assert PRESETS["korean"].scoring == "territory"
    assert (PRESETS["aga"].ko, PRESETS["aga"].handicap_compensation) == ("situational", "n_minus_1")
    nz = PRESETS["new_zealand"]
    assert (nz.ko, nz.multi_stone_suicide, nz.komi) == ("situational", True, 7.0)
    ing = PRESETS["ing"]
    assert (ing.komi, ing.black_wins_ties, ing.multi_stone_suicide) == (8.0, True, True)


def test_rules_for_and_round_trip():
    r = rules_for("japanese", komi=0.5)
    assert r.komi == 0.5 and r.scoring == "territory"
    assert RuleSet.from_dict(r.to_dict()) == r
    with pytest.raises(ValueError, match="unknown rules preset"):
        rules_for("martian")
    with pytest.raises(ValueError, match="unknown rules parameter"):
        rules_for("chinese", komy=3)
    with pytest.raises(ValueError, match="ko must be"):
        rules_for("chinese", ko="sometimes")
    with pytest.raises(ValueError, match="unknown rules parameter"):
        RuleSet.from_dict({"name": "x", "colour": 1})
    custom = rules_for("chinese", scoring="territory", multi_stone_suicide=True)
    assert custom.scoring == "territory" and custom.multi_stone_suicide and custom.ko == "positional"
    assert rules_for(name="aga") == PRESETS["aga"]


# B plays a 2-stone self-atari, W captures both, B retakes one: the board of 3 moves ago returns
# with the other side to move. Positional superko forbids it; situational superko allows it.
SEND_TWO_RETURN_ONE = [
    ("B", (0, 1)),
    ("W", (1, 1)),
    ("B", (1, 0)),
    ("W", (1, 2)),
    ("B", (4, 4)),
    ("W", (0, 3)),
    ("B", (0, 2)),
    ("W", (0, 0)),
]


@pytest.mark.parametrize("name,legal", [("chinese", False), ("ing", False), ("aga", True), ("new_zealand", True)])
def test_positional_and_situational_superko_disagree(name, legal):
    g = Game(5, rules_for(name))
    play_all(g, SEND_TWO_RETURN_ONE)
    assert g.prisoners["W"] == 2
    if legal:
        assert g.play("B", (0, 1)) == [(0, 0)]
    else:
        with pytest.raises(IllegalMove) as info:
            g.play("B", (0, 1))
        assert info.value.reason == "superko"
        assert (0, 1) not in g.legal_points()


SUICIDE_SETUP = [
    ("B", (0, 0)),
    ("W", (1, 0)),
    ("B", (0, 1)),
    ("W", (1, 1)),
    ("B", (4, 4)),
    ("W", (1, 2)),
    ("B", (4, 3)),
    ("W", (0, 3)),
]


@pytest.mark.parametrize("name", ["new_zealand", "ing"])
def test_multi_stone_suicide_allowed(name):
    g = Game(5, rules_for(name))
    play_all(g, SUICIDE_SETUP)
    removed = g.play("B", (0, 2))
    assert sorted(removed) == [(0, 0), (0, 1), (0, 2)]
    assert g.prisoners == {"B": 0, "W": 3}
    assert [row[0] for row in g.board_rows()[:3]] == [".", ".", "."]
    g.undo()
    assert g.stone_at((0, 0)) == "B" and g.prisoners["W"] == 0


@pytest.mark.parametrize("name", ["chinese", "japanese", "aga"])
def test_multi_stone_suicide_forbidden(name):
    g = Game(5, rules_for(name))
    play_all(g, SUICIDE_SETUP)
    before = g.state()
    with pytest.raises(IllegalMove) as info:
        g.play("B", (0, 2))
    assert info.value.reason == "suicide"
    assert g.state() == before


def test_seki_area_counts_eyes():
    s = game_from_rows(SEKI_ROWS, rules_for("chinese", komi=0)).score([])
    assert s.seki == [(2, 0)]
    assert (s.black.stones, s.black.territory, s.white.stones, s.white.territory) == (16, 37, 14, 13)
    assert s.result_text() == "B+26"
    assert s.marks[0] == "bX.OwOXbb"


def test_seki_territory_scores_no_eyes():
    s = game_from_rows(SEKI_ROWS, rules_for("japanese", komi=0)).score([])
    assert (s.black.territory, s.white.territory) == (36, 12)
    assert s.marks[0] == "sX.OsOXbb"
    assert s.ownership[0] == ".X.O.OXXX"
    assert s.result_text() == "B+24"


def test_handicap_compensation():
    expected = {"chinese": 3.0, "aga": 2.0, "japanese": 0.0, "new_zealand": 0.0, "ing": 3.0}
    for name, comp in expected.items():
        g = Game(9, rules_for(name, komi=0.5), handicap=3)
        s = g.score([])
        assert s.white.compensation == comp, name
        assert s.black.stones == 3
        if s.scoring == "area":
            assert s.white.total == 0.5 + comp
            # the Chinese count: Black needs half the board plus half of komi and compensation
            assert s.chinese_count is not None
            assert s.chinese_count["target"] == 40.5 + (0.5 + comp) / 2
            assert s.chinese_count["black_count"] == 81
    assert Game(9, rules_for("chinese"), handicap=3).to_move == "W"


def test_black_wins_ties_under_ing():
    g = Game(3, rules_for("ing", komi=1.0))
    g.play("B", (1, 1))
    g.play("W", (0, 0))  # dead in Black's area once marked
    s = g.score([(0, 0)])
    assert s.black.total == 9 and s.white.total == 1
    g2 = Game(2, rules_for("ing", komi=0.0))
    assert g2.score([]).winner == "B" and g2.score([]).result_text() == "B+0"
    assert Game(2, rules_for("chinese", komi=0.0)).score([]).result_text() == "Draw"


def _triple_ko_moves():
    black, white = [], []
    for cx, kind in ((1, "W"), (5, "B"), (9, "W")):
        black += [(cx - 1, 1), (cx, 0), (cx, 2)]
        white += [(cx + 2, 1), (cx + 1, 0), (cx + 1, 2)]
        if kind == "W":
            white.append((cx, 1))
        else:
            black.append((cx + 1, 1))
    moves = []
    while black or white:
        moves.append(("B", black.pop(0) if black else None))
        if white:
            moves.append(("W", white.pop(0)))
    cycle = [("B", (2, 1)), ("W", (5, 1)), ("B", (10, 1)), ("W", (1, 1)), ("B", (6, 1)), ("W", (9, 1))]
    return moves, cycle


def test_japanese_triple_ko_is_no_result():
    setup, cycle = _triple_ko_moves()
    g = Game(13, rules_for("japanese"))
    play_all(g, setup)
    play_all(g, cycle)
    assert not g.no_result
    play_all(g, cycle)
    assert g.no_result and g.over
    with pytest.raises(IllegalMove) as info:
        g.play("B", (6, 6))
    assert info.value.reason == "game_over"


def test_triple_ko_under_superko_is_refused():
    setup, cycle = _triple_ko_moves()
    g = Game(13, rules_for("chinese"))
    play_all(g, setup)
    play_all(g, cycle[:5])
    with pytest.raises(IllegalMove) as info:
        g.play(*cycle[5])
    assert info.value.reason == "superko"
