"""Game details and the SGF download."""

from __future__ import annotations

import importlib.util

import httpx

from tests.conftest import MakeClient


async def _game(make_client: MakeClient) -> tuple[httpx.AsyncClient, dict]:
    alice, bob = make_client(), make_client()
    challenge = (await alice.post("/api/challenges", json={"board_size": 9, "color": "black"})).json()
    return alice, (await bob.post(f"/api/challenges/{challenge['id']}/accept")).json()["game"]


async def test_sgf_download(make_client: MakeClient) -> None:
    alice, game = await _game(make_client)
    response = await alice.get(f"/api/games/{game['id']}/sgf")
    if importlib.util.find_spec("app.records") is None or importlib.util.find_spec("app.records.sgf") is None:
        assert response.status_code == 501
        assert response.json()["error"]["code"] == "sgf_unavailable"
        return
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-go-sgf")
    assert response.text.lstrip().startswith("(;") and "SZ[9]" in response.text


async def test_game_detail(make_client: MakeClient) -> None:
    alice, game = await _game(make_client)
    detail = (await alice.get(f"/api/games/{game['id']}")).json()
    assert detail["id"] == game["id"] and detail["players"] == game["players"]
    assert detail["rules_params"] == {"preset": "chinese"} and detail["moves"] == []
