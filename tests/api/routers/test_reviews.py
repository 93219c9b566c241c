"""``/api/reviews``: made from a finished game or an uploaded record, listed on the game, downloaded as SGF;
bad sources and the daily cap answered with the project's errors."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.study.sgf_tree import import_tree
from tests.conftest import MakeClient

RECORD = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PB[Honinbo]PW[Jowa];B[cc]C[first](;W[gg];B[cg])(;W[gc]))"


async def _finished_game(make_client: MakeClient) -> tuple[httpx.AsyncClient, httpx.AsyncClient, str]:
    alice, bob = make_client(), make_client()
    challenge = (await alice.post("/api/challenges", json={"board_size": 9, "color": "black"})).json()
    game = (await bob.post(f"/api/challenges/{challenge['id']}/accept")).json()["game"]
    return alice, bob, game["id"]


async def test_a_review_of_an_uploaded_record_keeps_its_variations(make_client: MakeClient) -> None:
    owner = make_client()
    made = await owner.post("/api/reviews", json={"sgf": RECORD})
    assert made.status_code == 201, made.text
    review = made.json()
    assert review["title"] == "Honinbo – Jowa" and review["board_size"] == 9 and review["game_id"] is None
    assert review["url"] == f"#/reviews/{review['id']}"
    assert (await owner.get(f"/api/reviews/{review['id']}")).json() == review
    sgf = await owner.get(f"/api/reviews/{review['id']}/sgf")
    assert sgf.status_code == 200 and sgf.headers["content-type"].startswith("application/x-go-sgf")
    tree = import_tree(sgf.content)
    assert [len(n.children) for n in tree.walk()] == [1, 2, 1, 0, 0]
    assert tree.root.children[0].comment == "first"
    mine = (await owner.get("/api/me/reviews")).json()["reviews"]
    assert [r["id"] for r in mine] == [review["id"]]


async def test_bad_sources_are_refused(make_client: MakeClient) -> None:
    owner = make_client()
    for body, status, code in (
        ({"sgf": "not a record"}, 422, "bad_sgf"),
        ({"sgf": "(;SZ[9];B[aa];W[aa])"}, 422, "occupied"),
        ({"game_id": "nosuchgame"}, 404, "game_not_found"),
        ({}, 422, None),
        ({"sgf": RECORD, "game_id": "x"}, 422, None),
    ):
        response = await owner.post("/api/reviews", json=body)
        assert response.status_code == status, (body, response.text)
        if code is not None:
            assert response.json()["error"]["code"] == code
    assert (await owner.get("/api/reviews/nosuch")).json()["error"]["code"] == "review_not_found"


async def test_a_game_in_play_cannot_be_reviewed_yet(make_client: MakeClient) -> None:
    alice, bob, game_id = await _finished_game(make_client)
    early = await alice.post("/api/reviews", json={"game_id": game_id})
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_finished"
    assert (await bob.get(f"/api/games/{game_id}/reviews")).json() == {"reviews": []}


async def test_the_daily_cap_on_making_reviews(make_client: MakeClient, app: FastAPI) -> None:
    from dataclasses import replace

    app.state.review_limits = replace(app.state.review_limits, per_day=2)
    owner = make_client()
    for _ in range(2):
        assert (await owner.post("/api/reviews", json={"sgf": RECORD})).status_code == 201
    refused = await owner.post("/api/reviews", json={"sgf": RECORD})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_reviews"
