"""``/api/study`` on a real server: positions with captures and refusals, a stored game as a tree (refused
to its own players while it is played), SGF import and export with every variation, hostile records,
score estimates and engine hints from the real GNU Go (refused to a player with a game in progress), and
the per-user limits, or per-address ones for a visitor without a session (for whom nothing is stored)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.accounts.cookies import COOKIE_NAME
from app.limits.counters import MemoryCounters
from app.study.schemas import TreeDoc, tree_from_doc, tree_to_doc
from app.study.sgf_tree import export_tree
from tests.conftest import LiveServer, MakeLiveServer
from tests.study.sample import sample_tree, shape
from tests.support.players import Player, guests, start_game
from tests.support.instances import redis_cluster_prefix  # noqa: F401 - a pytest fixture, taken by name as a test parameter
from tests.support.rows import count_users
from tests.support.services import REDIS_URL, need_gnugo

NINE = {"size": 9, "rules": "chinese", "komi": 7.5}
SLOW = 60.0  # seconds an engine or the playouts may take on a busy machine (the server's own limits are lower)


def line(*moves: tuple[str, list[int]]) -> list[dict[str, Any]]:
    return [{"color": c, "point": p} for c, p in moves]


@pytest.fixture
async def visitor(live_server: str) -> AsyncIterator[Player]:
    person = await Player(live_server).visit()
    yield person
    await person.close()


async def test_a_position_comes_with_its_captures_and_an_illegal_move_with_the_engines_reason(visitor: Player) -> None:
    capture = line(("B", [1, 0]), ("W", [0, 0]), ("B", [0, 1]))
    answer = await visitor.http.post("/api/study/position", json={"setup": NINE, "line": capture})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["captured"] == [[0, 0]] and body["prisoners"] == {"B": 1, "W": 0} and body["to_move"] == "W"
    assert body["rows"][0] == ".X......." and body["rows"][1] == "X........"
    occupied = await visitor.http.post("/api/study/position", json={"setup": NINE, "line": capture + line(("W", [1, 0]))})
    assert occupied.status_code == 422 and occupied.json()["error"]["code"] == "occupied"
    assert "move 4" in occupied.json()["error"]["message"]
    bad = await visitor.http.post("/api/study/position", json={"setup": {"size": 9, "rules": "klingon"}, "line": []})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_setup"
    far = await visitor.http.post("/api/study/position", json={"setup": NINE, "line": line(("B", [9, 9]))})
    assert far.status_code == 422 and far.json()["error"]["code"] == "off_board"


# Black takes a ko at [5, 4] with the game's last move (White's stone at [4, 4] captured): White may not take back
# at [4, 4] at once. The stones alone (a setup) do not say so; the game's moves do.
KO_GAME = [[4, 3], [5, 3], [3, 4], [6, 4], [4, 5], [5, 5], [0, 0], [4, 4], [5, 4]]


async def test_a_line_after_a_stored_game_is_judged_with_the_games_history(live_server: str) -> None:
    async with guests(live_server, 3) as (black, white, watcher):
        game_id = await start_game(black, white)
        sides = [await black.socket(game_id), await white.socket(game_id)]
        for n, point in enumerate(KO_GAME):
            assert (await sides[n % 2].act({"t": "play", "p": point}))["t"] == "ack"
        for sock in sides:
            await sock.close()
        retake = line(("W", [4, 4]))
        for person in (black, watcher):  # a player of the live game (planning conditional moves) and a spectator
            refused = await person.http.post("/api/study/position", json={"game_id": game_id, "line": retake})
            assert refused.status_code == 422 and refused.json()["error"]["code"] == "ko", refused.text
            assert "move 1" in refused.json()["error"]["message"]
        stones = {"size": 9, "rules": "chinese", "komi": 7.5, "to_move": "W"}
        stones["black"] = [[4, 3], [3, 4], [4, 5], [0, 0], [5, 4]]
        stones["white"] = [[5, 3], [6, 4], [5, 5]]
        alone = await watcher.http.post("/api/study/position", json={"setup": stones, "line": retake})
        assert alone.status_code == 200 and alone.json()["captured"] == [[5, 4]], alone.text
        # After two passes the ko may be retaken, but the board would then be the one White's eighth move made:
        # positional superko (Chinese rules) forbids it, which only the game's history shows.
        late = [{"color": "W", "point": None}, {"color": "B", "point": None}, *retake]
        repeated = await black.http.post("/api/study/position", json={"game_id": game_id, "line": late})
        assert repeated.status_code == 422 and repeated.json()["error"]["code"] == "superko", repeated.text
        assert "move 3" in repeated.json()["error"]["message"]
        alone = await watcher.http.post("/api/study/position", json={"setup": stones, "line": late})
        assert alone.status_code == 200 and alone.json()["captured"] == [[5, 4]], alone.text

        elsewhere = await black.http.post(
            "/api/study/position", json={"game_id": game_id, "line": line(("W", [8, 8]), ("B", [4, 4]))}
        )
        assert elsewhere.status_code == 200, elsewhere.text
        body = elsewhere.json()
        assert body["rows"][4] == "...XXXO.." and body["rows"][8] == "........O" and body["to_move"] == "W"
        assert body["prisoners"] == {"B": 1, "W": 0} and body["captured"] == []

        unknown = await watcher.http.post("/api/study/position", json={"game_id": "nosuchgame", "line": retake})
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "game_not_found"
        both = await watcher.http.post("/api/study/position", json={"game_id": game_id, "setup": NINE, "line": retake})
        assert both.status_code == 422 and both.json()["error"]["code"] == "invalid_request"
        long_id = await watcher.http.post("/api/study/position", json={"game_id": "x" * 17, "line": retake})
        assert long_id.status_code == 422 and long_id.json()["error"]["code"] == "invalid_request"
        too_long = [{"color": "W", "point": None}] * 1001
        long_line = await watcher.http.post("/api/study/position", json={"game_id": game_id, "line": too_long})
        assert long_line.status_code == 422 and long_line.json()["error"]["code"] == "tree_too_deep"


async def test_a_stored_game_is_a_tree_for_spectators_and_for_its_players_once_it_ended(live_server: str) -> None:
    async with guests(live_server, 3) as (black, white, watcher):
        game_id = await start_game(black, white)
        b = await black.socket(game_id)
        w = await white.socket(game_id)
        assert (await b.act({"t": "play", "p": [2, 2]}))["t"] == "ack"
        assert (await w.act({"t": "play", "p": [6, 6]}))["t"] == "ack"
        refused = await black.http.get(f"/api/study/games/{game_id}")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "own_live_game"
        seen = await watcher.http.get(f"/api/study/games/{game_id}")
        assert seen.status_code == 200
        doc = seen.json()
        assert [n["move"] for n in doc["nodes"][1:]] == [{"color": "B", "point": [2, 2]}, {"color": "W", "point": [6, 6]}]
        assert doc["setup"]["size"] == 9 and doc["info"]["game_id"] == game_id
        assert (await w.act({"t": "resign"}))["t"] == "ack"
        mine = await black.http.get(f"/api/study/games/{game_id}")
        assert mine.status_code == 200 and mine.json()["info"]["result"] == "B+R"
        assert (await watcher.http.get("/api/study/games/nosuchgame")).json()["error"]["code"] == "game_not_found"
        await b.close()
        await w.close()


async def test_sgf_export_then_import_gives_the_same_tree(visitor: Player) -> None:
    tree = sample_tree()
    doc = tree_to_doc(tree).model_dump(mode="json")
    exported = await visitor.http.post("/api/study/export", json=doc)
    assert exported.status_code == 200, exported.text
    assert exported.headers["content-type"].startswith("application/x-go-sgf")
    assert exported.text == export_tree(tree)
    imported = await visitor.http.post("/api/study/sgf", content=exported.content)
    assert imported.status_code == 200, imported.text
    assert shape(tree_from_doc(TreeDoc.model_validate(imported.json()))) == shape(tree)


@pytest.mark.parametrize(
    "data, code",
    [
        (b"(;SZ[9];B[aa];W[aa])", "occupied"),
        (b"garbage", "bad_sgf"),
        (b"   ", "bad_sgf"),
        (b"(;SZ[19]" + b"(;B[]" * 1500 + b")" * 1501, "tree_too_deep"),
    ],
)
async def test_hostile_records_get_a_clear_error(visitor: Player, data: bytes, code: str) -> None:
    answer = await visitor.http.post("/api/study/sgf", content=data)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == code


async def test_records_and_trees_over_their_byte_caps_are_refused(visitor: Player, live_server_handle: LiveServer) -> None:
    settings = live_server_handle.app.state.settings
    big = b"(;SZ[19]C[" + b"x" * settings.study_max_sgf_bytes + b"])"
    answer = await visitor.http.post("/api/study/sgf", content=big)
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "sgf_too_large"
    huge = b"x" * (settings.study_max_body_bytes + 1)
    answer = await visitor.http.post("/api/study/export", content=huge, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "too_large"


async def test_a_tree_with_an_illegal_move_is_not_exported(visitor: Player) -> None:
    doc = tree_to_doc(sample_tree()).model_dump(mode="json")
    doc["nodes"][2]["move"] = {"color": "B", "point": [9, 9]}
    answer = await visitor.http.post("/api/study/export", json=doc)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "occupied"


async def test_score_estimate_marks_dead_stones_and_gives_ownership(visitor: Player) -> None:
    # Black walls off the left, White the right; a black stone in White's area and a white one in Black's
    moves = []
    for y in range(9):
        moves += [("B", [3, y]), ("W", [5, y])]
    moves += [("B", [8, 8]), ("W", [1, 1])]
    answer = await visitor.http.post("/api/study/estimate", json={"setup": NINE, "line": line(*moves)}, timeout=SLOW)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert [1, 1] in body["dead"] and [8, 8] in body["dead"]
    assert len(body["dead"]) == 2
    own = body["ownership"]
    assert len(own) == 9 and all(len(row) == 9 for row in own)
    assert all(own[y][x] > 0.3 for y in range(9) for x in range(4))
    assert all(own[y][x] < -0.3 for y in range(9) for x in range(5, 9))
    assert body["score"]["B"]["territory"] == body["score"]["W"]["territory"] == 27 and body["score"]["result"] == "W+7.5"
    assert body["judge"] == "rules"  # KataGo does not run under TENGEN_ENV=test unless asked to


@pytest.mark.gnugo
async def test_engine_hints_come_from_gnugo_and_never_for_a_player_with_a_game_in_progress(live_server: str) -> None:
    need_gnugo()
    async with guests(live_server, 3) as (student, black, white):
        # White to move, its three stones surrounded but for two liberties: GNU Go's first answer extends them
        position = line(
            ("B", [4, 3]),
            ("W", [4, 4]),
            ("B", [3, 4]),
            ("W", [5, 4]),
            ("B", [5, 3]),
            ("W", [4, 5]),
            ("B", [3, 5]),
            ("W", [8, 8]),
            ("B", [5, 5]),
        )
        answer = await student.http.post("/api/study/hints", json={"setup": NINE, "line": position}, timeout=SLOW)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["to_move"] == "W" and 1 <= len(body["moves"]) <= 5
        assert body["moves"][0]["point"] in ([6, 4], [4, 6]) and isinstance(body["moves"][0]["value"], float)
        illegal = await student.http.post(
            "/api/study/hints", json={"setup": NINE, "line": position + line(("W", [4, 4]))}, timeout=SLOW
        )
        assert illegal.status_code == 422 and illegal.json()["error"]["code"] == "occupied"
        await start_game(black, white)
        refused = await black.http.post("/api/study/hints", json={"setup": NINE, "line": position}, timeout=SLOW)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "hints_during_game"


@pytest.mark.redis
async def test_hints_and_estimates_are_limited_per_user_across_instances(
    make_live_server: MakeLiveServer, redis_cluster_prefix: str
) -> None:
    limits = {
        "hints_per_window": 1,
        "study_estimates": 2,
        "hint_engine": "/bin/false",
        "redis_url": REDIS_URL,
        "redis_prefix": redis_cluster_prefix,
    }
    server, other = make_live_server(**limits), make_live_server(**limits)
    person = await Player(server.url).visit()
    try:
        first = await person.http.post("/api/study/hints", json={"setup": NINE, "line": []}, timeout=SLOW)
        assert first.status_code == 503 and first.json()["error"]["code"] == "hints_unavailable"
        second = await person.http.post("/api/study/hints", json={"setup": NINE, "line": []}, timeout=SLOW)
        assert second.status_code == 429 and second.json()["error"]["code"] == "rate_limited"
        for _ in range(2):
            done = await person.http.post("/api/study/estimate", json={"setup": NINE, "line": []}, timeout=SLOW)
            assert done.status_code == 200
        # the count is shared by every instance (in Redis)
        third = await person.http.post(f"{other.url}/api/study/estimate", json={"setup": NINE, "line": []}, timeout=SLOW)
        assert third.status_code == 429 and third.json()["error"]["code"] == "rate_limited"
    finally:
        await person.close()


async def test_a_visitor_without_a_session_gets_estimates_and_hints_limited_per_address_and_stores_nothing(
    make_live_server: MakeLiveServer, database_url: str
) -> None:
    """Someone analysing a finished game needs no session: estimates and hints answer without storing a guest
    or setting a cookie, and count against the client address (every client of the test is 127.0.0.1)."""
    server = make_live_server(study_estimates=2, hints_per_window=1, hint_engine="/bin/false")
    counters = server.app.state.limiter.counters
    assert isinstance(counters, MemoryCounters)
    counters.clock = lambda: 1000.0  # the estimates' one-minute window never turns while a slow machine answers
    before = await count_users(database_url)
    for _ in range(2):
        async with httpx.AsyncClient(base_url=server.url, timeout=SLOW) as stranger:
            done = await stranger.post("/api/study/estimate", json={"setup": NINE, "line": []})
            assert done.status_code == 200, done.text
            assert len(done.json()["ownership"]) == 9
            assert COOKIE_NAME not in stranger.cookies
    async with httpx.AsyncClient(base_url=server.url, timeout=SLOW) as stranger:
        over = await stranger.post("/api/study/estimate", json={"setup": NINE, "line": []})
        assert over.status_code == 429 and over.json()["error"]["code"] == "rate_limited"
        hint = await stranger.post("/api/study/hints", json={"setup": NINE, "line": []})
        assert hint.status_code == 503 and hint.json()["error"]["code"] == "hints_unavailable"
        again = await stranger.post("/api/study/hints", json={"setup": NINE, "line": []})
        assert again.status_code == 429 and again.json()["error"]["code"] == "rate_limited"
        assert COOKIE_NAME not in stranger.cookies
    assert await count_users(database_url) == before
    person = await Player(server.url).visit()  # a user is counted apart from the address
    try:
        mine = await person.http.post("/api/study/estimate", json={"setup": NINE, "line": []}, timeout=SLOW)
        assert mine.status_code == 200, mine.text
    finally:
        await person.close()
