"""Every game the lobby can create opens, plays and ends: a matrix through the real API and sockets.

Each case creates a challenge over HTTP, accepts it, opens both players' sockets, plays a move and ends the
game; a combination the game cannot play is refused at creation with 422 and a message saying why, and
nothing is created. One uvicorn (SQLite, in-process hub) serves the whole module; two players play every
game in turn.

The time controls are every kind the API takes, and every preset the lobby page offers, read from
``frontend/js/clock.js`` so that a preset added there is played here too.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from app.rules import PRESETS, max_fixed_handicap
from tests.conftest import LiveServer, _Templates
from tests.support.players import GameSocket, Player

pytestmark = pytest.mark.asyncio(loop_scope="module")

CLOCK_JS = Path(__file__).resolve().parents[2] / "frontend" / "js" / "clock.js"


def _ui_presets() -> dict[str, Any]:
    """``TIME_PRESETS`` of the lobby page, as JSON."""
    block = re.search(r"TIME_PRESETS\s*=\s*\{(.*?)\n\};", CLOCK_JS.read_text(), re.S)
    assert block, "TIME_PRESETS not found in frontend/js/clock.js"
    presets = {}
    for name, body in re.findall(r"^\s*(\w+):\s*(\{.*?\}),?\s*$", block.group(1), re.M):
        presets[name] = json.loads(re.sub(r"(\w+):", r'"\1":', body))
    assert len(presets) >= 6, presets
    return presets


UI_PRESETS = _ui_presets()
# What the API takes, beyond the page's presets (the page's "custom" form builds these kinds).
API_TIME_CONTROLS: dict[str, Any] = {
    "absolute": {"kind": "absolute", "main": 600},
    "fischer_no_cap": {"kind": "fischer", "main": 300, "increment": 5},
    "fischer_cap": {"kind": "fischer", "main": 300, "increment": 10, "cap": 600},
    "byoyomi": {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30},
    "byoyomi_no_main": {"kind": "byoyomi", "main": 0, "periods": 3, "period_time": 30},
    "canadian": {"kind": "canadian", "main": 600, "stones": 25, "period_time": 300},
    "chinese_countdown": {"kind": "chinese_countdown", "main": 1200, "periods": 3},
    "chinese_countdown_name": "chinese_countdown",
    "chinese_countdown_defaults": {"kind": "chinese_countdown"},
    "none": {"kind": "none"},
    "default": None,  # the field left out
}
TIME_CONTROLS = {**{f"ui-{k}": v for k, v in UI_PRESETS.items()}, **API_TIME_CONTROLS}
BAD_TIME_CONTROLS: dict[str, Any] = {
    "unknown_kind": {"kind": "hourglass", "main": 60},
    "unknown_name": "blitz",
    "byoyomi_missing": {"kind": "byoyomi", "main": 600},
    "countdown_period": {"kind": "chinese_countdown", "main": 600, "periods": 3, "period_time": 30},
    "fischer_cap_low": {"kind": "fischer", "main": 300, "increment": 5, "cap": 100},
    "absolute_zero": {"kind": "absolute", "main": 0},
    "preset_key": {"kind": "byoyomi", "main": 600, "periods": 3, "period_time": 60, "preset": "chinese_countdown"},
}
SIZES_AND_HANDICAPS = [(size, h) for size in range(2, 26) for h in range(0, max_fixed_handicap(size) + 2)]


def _playable(size: int, handicap: int) -> bool:
    return handicap == 0 or 2 <= handicap <= max_fixed_handicap(size)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, _db_templates: _Templates) -> Iterator[LiveServer]:
    import uuid

    from app.settings import Settings

    root = tmp_path_factory.mktemp("matrix")
    database = root / "tengen.sqlite3"
    shutil.copyfile(_db_templates.sqlite(), database)
    settings = Settings(
        env="test",
        data_dir=root / "data",
        database_url=f"sqlite+aiosqlite:///{database}",
        secret_key="test-secret-" + uuid.uuid4().hex,
        frontend_dir=root / "no-frontend",
    )
    with LiveServer(settings) as live:
        yield live


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def players(server: LiveServer) -> AsyncIterator[tuple[Player, Player]]:
    black, white = Player(server.url), Player(server.url)
    await black.visit()
    await white.visit()
    yield black, white
    await black.close()
    await white.close()


async def _refused(black: Player, body: dict[str, Any]) -> str:
    """Creation is refused with 422 and one clear message; no challenge is left behind."""
    response = await black.http.post("/api/challenges", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and error["message"]
    mine = [c for c in (await black.http.get("/api/challenges")).json()["challenges"] if c["creator"]["id"] == black.user["id"]]
    assert mine == []
    return str(error["message"])


async def _play_one(black: Player, white: Player, body: dict[str, Any], end: str = "resign") -> dict[str, Any]:
    """Create, accept, open both sockets, play one move, end the game; returns the stored game."""
    created = await black.http.post("/api/challenges", json={"color": "black", **body})
    assert created.status_code == 201, created.text
    accepted = await white.http.post(f"/api/challenges/{created.json()['id']}/accept")
    assert accepted.status_code == 201, accepted.text
    game_id = accepted.json()["game_id"]
    sockets = {"B": await black.socket(game_id), "W": await white.socket(game_id)}
    try:
        snapshots = {c: await s.of_type("snapshot") for c, s in sockets.items()}
        game = snapshots["B"]["game"]
        assert snapshots["B"]["you"]["color"] == "B" and snapshots["W"]["you"]["color"] == "W"
        assert game["phase"] == "playing" and game["size"] == created.json()["board_size"]
        assert game["time_control"] == created.json()["time_control"]
        assert len(game["handicap_points"]) == created.json()["handicap"]
        mover = game["to_move"]
        point = next([x, y] for y, row in enumerate(game["board"]) for x, c in enumerate(row) if c == ".")
        ack = await sockets[mover].act({"t": "play", "p": point})
        assert ack["t"] == "ack", ack
        moved = await sockets[mover].of_type("move")
        assert moved["p"] == point and moved["color"] == mover
        if end == "resign":
            ended = await sockets[mover].act({"t": "resign"})
            assert ended["t"] == "ack", ended
        else:  # two passes, then both accept the proposed marks
            other = "W" if mover == "B" else "B"
            for color in (other, mover):
                assert (await sockets[color].act({"t": "pass"}))["t"] == "ack"
            await sockets["B"].until(lambda m: m.get("t") == "phase" and m.get("phase") == "scoring")
            for color in ("B", "W"):
                assert (await sockets[color].act({"t": "accept_score"}))["t"] == "ack"
        over = await sockets["B"].of_type("game_over")
        assert over["result"]["text"]
    finally:
        for s in sockets.values():
            await s.close()
    stored = (await black.http.get(f"/api/games/{game_id}")).json()
    assert stored["status"] == "finished" and stored["result"] == over["result"]["text"]
    sgf = await black.http.get(f"/api/games/{game_id}/sgf")
    assert sgf.status_code == 200 and sgf.text.startswith("(;")
    assert game_id not in {g["id"] for g in (await black.http.get("/api/games/live")).json()["games"]}
    return stored


@pytest.mark.parametrize("name", list(TIME_CONTROLS))
async def test_every_time_control_plays(players: tuple[Player, Player], name: str) -> None:
    body: dict[str, Any] = {"board_size": 9}
    if TIME_CONTROLS[name] is not None:
        body["time_control"] = TIME_CONTROLS[name]
    stored = await _play_one(*players, body)
    kind = TIME_CONTROLS[name]["kind"] if isinstance(TIME_CONTROLS[name], dict) else TIME_CONTROLS[name] or "byoyomi"
    assert stored["time_control"]["kind"] == kind


@pytest.mark.parametrize("name", list(BAD_TIME_CONTROLS))
async def test_time_controls_the_game_cannot_keep_are_refused(players: tuple[Player, Player], name: str) -> None:
    await _refused(players[0], {"board_size": 9, "time_control": BAD_TIME_CONTROLS[name]})


@pytest.mark.parametrize(("size", "handicap"), SIZES_AND_HANDICAPS)
async def test_every_size_and_handicap(players: tuple[Player, Player], size: int, handicap: int) -> None:
    body = {"board_size": size, "handicap": handicap, "time_control": {"kind": "none"}}
    if not _playable(size, handicap):
        message = await _refused(players[0], body)
        assert "handicap" in message
        return
    stored = await _play_one(*players, body)
    assert (stored["board_size"], stored["handicap"]) == (size, handicap)


@pytest.mark.parametrize("rules", list(PRESETS))
@pytest.mark.parametrize("handicap", [0, 4])
async def test_every_rules_preset_plays_to_a_score(players: tuple[Player, Player], rules: str, handicap: int) -> None:
    stored = await _play_one(*players, {"board_size": 9, "rules": rules, "handicap": handicap}, end="score")
    assert stored["rules"] == rules and stored["ended_by"] == "score"
    assert stored["komi"] == (0.5 if handicap else PRESETS[rules].komi)


async def test_the_stored_status_follows_every_phase(players: tuple[Player, Player]) -> None:
    black, white = players
    created = await black.http.post("/api/challenges", json={"board_size": 9, "color": "black"})
    game_id = (await white.http.post(f"/api/challenges/{created.json()['id']}/accept")).json()["game_id"]
    b, w = await black.socket(game_id), await white.socket(game_id)

    async def status() -> str:
        return str((await black.http.get(f"/api/games/{game_id}")).json()["status"])

    steps: list[tuple[GameSocket, dict[str, Any], str]] = [
        (b, {"t": "pass"}, "playing"),
        (w, {"t": "pass"}, "scoring"),
        (b, {"t": "resume_play"}, "playing"),
        (b, {"t": "adjourn_offer"}, "playing"),
        (w, {"t": "adjourn_accept"}, "adjourned"),
        (b, {"t": "seal", "p": [4, 4]}, "adjourned"),
        (b, {"t": "resume_offer"}, "adjourned"),
        (w, {"t": "resume_accept"}, "playing"),
        (b, {"t": "resign"}, "finished"),
    ]
    try:
        for sock, action, expected in steps:
            answer = await sock.act(action)
            assert answer["t"] == "ack", (action, answer)
            assert await status() == expected, action
        live = {g["id"] for g in (await black.http.get("/api/games/live")).json()["games"]}
        assert game_id not in live
    finally:
        await b.close()
        await w.close()
