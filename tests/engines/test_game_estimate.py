"""``POST /api/games/{id}/estimate`` with the real KataGo (9x9, few visits): a spectator of a game in progress
gets KataGo's ownership and score lead under the game's own rules and komi (no win rate), its players are
refused, and once it has ended anyone gets it, its players too."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.conftest import MakeLiveServer
from tests.engines.questions import until
from tests.engines.test_study import walls
from tests.support.players import guests, start_game

pytestmark = [pytest.mark.katago, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

SLOW = 120.0


async def test_katagos_estimate_of_a_game_for_its_spectators_then_for_everyone(
    make_live_server: MakeLiveServer, katago_dir: Path
) -> None:
    server = make_live_server(katago=True, engines_dir=katago_dir, katago_buffers=[9], katago_measure_visits=1)
    await until(lambda: server.app.state.engines.state == "ready", timeout=300)
    async with guests(server.url, 3) as (black, white, watcher):
        game_id = await start_game(black, white, rules="japanese", komi=0.5)
        sockets = [await black.socket(game_id), await white.socket(game_id)]
        for n, (colour, point) in enumerate(walls()):
            assert colour == "BW"[n % 2]
            assert (await sockets[n % 2].act({"t": "play", "p": point}))["t"] == "ack"
        url = f"/api/games/{game_id}/estimate"
        answer = await watcher.http.post(url, json={}, timeout=SLOW)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["judge"] == "katago" and body["dead"] == [[1, 1], [7, 7]]
        assert isinstance(body["score_lead"], float) and "winrate" not in body
        own = body["ownership"]
        assert all(own[y][0] > 0.5 for y in range(9)) and all(own[y][8] < -0.5 for y in range(9))
        assert body["score"]["rules"] == "japanese" and body["score"]["W"]["komi"] == 0.5
        refused = await black.http.post(url, json={}, timeout=SLOW)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "estimate_own_game"
        assert (await sockets[1].act({"t": "resign"}))["t"] == "ack"
        for sock in sockets:
            await sock.close()
        mine = await black.http.post(url, json={"move": 2}, timeout=SLOW)
        assert mine.status_code == 200 and mine.json()["judge"] == "katago", mine.text
        async with httpx.AsyncClient(base_url=server.url, timeout=SLOW) as stranger:
            seen = await stranger.post(url, json={})
            assert seen.status_code == 200 and seen.json()["dead"] == [[1, 1], [7, 7]], seen.text
