"""Oracle tests: random legal games replayed in GNU Go must give the same board and legality,
and GNU Go's self-play endings must get the same area score from our counting."""

import random

import pytest

from app.rules import Game, fixed_handicap_points, rules_for, to_gtp
from tests.rules.gtp import Gtp, vertices
from tests.support.services import need_gnugo

pytestmark = pytest.mark.gnugo

GAMES = {9: 110, 13: 60, 19: 35}


@pytest.fixture(scope="module")
def engines():
    need_gnugo()
    procs = {}

    def get(flags: str) -> Gtp:
        if flags not in procs:
            procs[flags] = Gtp(*flags.split())
        return procs[flags]

    yield get
    for p in procs.values():
        p.close()


def pick_move(g: Game, rng: random.Random) -> tuple[int, int] | None:
    size = g.size
    empties = [(x, y) for y in range(size) for x in range(size) if g.stone_at((x, y)) is None]
    rng.shuffle(empties)
    for p in empties:
        if g.is_legal(g.to_move, p):
            return p
    return None


def sample_points(g: Game, rng: random.Random, k: int = 3) -> list[tuple[int, int]]:
    size = g.size
    empties = [(x, y) for y in range(size) for x in range(size) if g.stone_at((x, y)) is None]
    picked = rng.sample(empties, min(k, len(empties)))
    # points with no empty neighbour: where suicide, capture and ko live
    tight = [
        (x, y)
        for (x, y) in empties
        if all(
            g.stone_at(q) is not None
            for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            if 0 <= q[0] < size and 0 <= q[1] < size
        )
    ]
    picked += rng.sample(tight, min(3, len(tight)))
    if g.ko_point:
        picked.append(g.ko_point)
    return picked


@pytest.mark.parametrize("size", sorted(GAMES))
def test_random_games_match_gnugo(engines, size):
    gtp = engines("--chinese-rules --positional-superko")
    rng = random.Random(size)
    checked_legality = 0
    for game_no in range(GAMES[size]):
        g = Game(size, rules_for("chinese"))
        commands = [f"boardsize {size}", "clear_board"]
        expect: list[tuple[str, int, object]] = []  # (kind, command index, expected)
        for _ in range(rng.randint(40, 120)):
            p = pick_move(g, rng)
            if p is None:
                break
            colour = g.to_move
            g.play(colour, p)
            commands.append(f"play {colour} {to_gtp(p, size)}")
            expect.append(("play", len(commands) - 1, None))
            rows = g.board_rows()
            black = {(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "X"}
            white = {(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "O"}
            commands += ["list_stones black", "list_stones white"]
            expect += [("stones", len(commands) - 2, black), ("stones", len(commands) - 1, white)]
            for q in sample_points(g, rng):
                commands.append(f"is_legal {g.to_move} {to_gtp(q, size)}")
                expect.append(("legal", len(commands) - 1, g.is_legal(g.to_move, q)))
        answers = gtp.batch(commands)
        assert all(ok for ok, _ in answers[:2])
        for kind, i, value in expect:
            ok, text = answers[i]
            assert ok, f"game {game_no}: GNU Go refused {commands[i]!r}: {text}"
            if kind == "stones":
                assert vertices(text, size) == value, f"game {game_no}: boards differ after {commands[i - 1]}"
            elif kind == "legal":
                checked_legality += 1
                assert (text == "1") == value, f"game {game_no}: legality differs on {commands[i]!r}"
    assert checked_legality > GAMES[size] * 40


def test_fixed_handicap_matches_gnugo(engines):
    gtp = engines("--chinese-rules --positional-superko")
    for size in (9, 13, 19):
        for n in range(2, 10):
            gtp.one(f"boardsize {size}")
            gtp.one("clear_board")
            assert vertices(gtp.one(f"fixed_handicap {n}"), size) == set(fixed_handicap_points(size, n))


def self_play(gtp: Gtp, rng: random.Random, size: int = 9, komi: float = 7.5, max_moves: int = 160) -> Game | None:
    """GNU Go plays itself after four random moves; None if it resigns or the game is not over by ``max_moves``."""
    g = Game(size, rules_for("chinese", komi=komi))
    gtp.batch([f"boardsize {size}", "clear_board", f"komi {komi}"])
    for _ in range(4):  # a random opening so the games differ
        p = pick_move(g, rng)
        assert p is not None  # an opening board has room
        colour = g.to_move
        g.play(colour, p)
        gtp.one(f"play {colour} {to_gtp(p, size)}")
    passes = 0
    while passes < 2 and len(g.moves) < max_moves:
        colour = g.to_move
        answer = gtp.one(f"genmove {colour}").upper()
        if answer == "PASS":
            g.pass_turn(colour)
            passes += 1
        elif answer == "RESIGN":
            return None
        else:
            (p,) = vertices(answer, size)
            g.play(colour, p)
            passes = 0
    return g if passes == 2 else None


def test_self_play_area_score_matches_gnugo(engines):
    gtp = engines("--chinese-rules --positional-superko --level 1")
    rng = random.Random(7)
    scored = 0
    for _ in range(4):
        g = self_play(gtp, rng)
        if g is None:
            continue
        rows = g.board_rows()
        dead = vertices(gtp.one("final_status_list dead"), g.size)
        ours = g.score(dead)
        assert ours.result_text() == gtp.one("final_score"), "\n".join(rows)
        scored += 1
    assert scored >= 3
