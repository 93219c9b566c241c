"""Uploaded records reviewed (``/api/ai-reviews/records``), through a real server on each stack: with the real
KataGo on 9x9 (two visits a position), an SGF uploaded is reviewed quick then deep, its figures KataGo's answers
to the record's positions, read by its uploader alone; and each refusal with its own code, the moves, the bytes
and the records a user keeps capped."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from app.ai_review.raw import raw_figure, replayed, reviewed
from app.ai_review.records import read_record
from app.engines.lane import Priority
from tests.ai_review.conftest import KATAGO_REVIEW
from tests.conftest import LiveServer, MakeLiveServer
from tests.support.players import Player

# 9x9, two handicap stones, a pass, and White playing twice in a row (a record may): 9 moves, 10 positions
RECORD = (
    "(;GM[1]FF[4]SZ[9]KM[0.5]RU[Japanese]HA[2]PB[Kuro]PW[Shiro]DT[2026-12-03]AB[cc][gg]"
    ";W[ge];B[ec];W[ce];B[ee];W[eg];B[];W[dg];W[fc];B[fd])"
)
TOTAL = 10
WAIT = 300.0


async def until(player: Player, path: str, states: tuple[str, ...], depth: str) -> dict[str, Any]:
    for _ in range(int(WAIT * 4)):
        review = (await player.http.get(path)).json()
        if review["state"] in states and review["depth"] == depth:
            return review
        await asyncio.sleep(0.25)
    raise AssertionError(f"not {states}: {review['state']} {review['progress']}")


@pytest.mark.katago
@pytest.mark.parametrize("database_url", ["sqlite", "postgres"], indirect=True)
async def test_an_uploaded_record_is_reviewed_for_its_uploader_alone(make_live_server: MakeLiveServer, katago_dir: Path) -> None:
    server: LiveServer = make_live_server(**KATAGO_REVIEW, engines_dir=katago_dir, ai_review_deep_seconds=0.0)
    owner, stranger = await Player(server.url).visit(), await Player(server.url).visit()
    try:
        uploaded = await owner.http.post("/api/ai-reviews/records", content=RECORD.encode())
        assert uploaded.status_code == 200, uploaded.text
        first = uploaded.json()
        record_id = first["record_id"]
        assert ":" not in record_id and first["state"] in ("queued", "running", "done") and first["depth"] == "quick"
        assert first["title"] == "Kuro – Shiro, 2026-12-03" and first["size"] == 9 and first["move_count"] == TOTAL - 1
        assert first["handicap_points"] == [[2, 2], [6, 6]] and first["komi"] == 0.5 and first["rules"] == "japanese"
        assert first["moves"][5] == ["B", None, None] and first["moves"][6][0] == first["moves"][7][0] == "W"
        path = f"/api/ai-reviews/records/{record_id}"
        # another upload deleted while its job waits: the job finds nothing to do, the worker goes on
        dropped = (await owner.http.post("/api/ai-reviews/records", content=RECORD.encode())).json()["record_id"]
        assert (await owner.http.delete(f"/api/ai-reviews/records/{dropped}")).status_code == 204

        review = await until(owner, path, ("done", "failed"), "quick")
        assert review["state"] == "done", review
        assert review["progress"] == {"done": TOTAL, "total": TOTAL}
        assert all(figure is not None and figure["depth"] == "quick" for figure in review["positions"])
        assert set(review["summary"]) == {"B", "W"} and "mistakes" in review

        # the record's positions asked of the server's KataGo: the same answers (from its cache)
        read = read_record(RECORD, 100)
        target = reviewed(replayed(read["config"], [tuple(move) for move in read["moves"]]))
        assert target.start.stones == (("B", (2, 2)), ("B", (6, 6))) and target.start.to_move == "W"
        loop = server.app.state.ai_reviews.queue._worker._task.get_loop()  # the server's loop (it runs in a thread)
        for i, figure in enumerate(review["positions"]):
            answer = asyncio.run_coroutine_threadsafe(
                server.app.state.engines.analyze(target.question(i, figure["visits"]), Priority.ESTIMATE), loop
            )
            expected = raw_figure(i, "quick", await asyncio.wrap_future(answer))
            assert figure["winrate"] == pytest.approx(expected["winrate"], abs=1e-6)
            assert figure["score_lead"] == pytest.approx(expected["score_lead"], abs=1e-6)

        # nobody else reads it, asks for it or deletes it: there is no such record for them
        for response in (
            await stranger.http.get(path),
            await stranger.http.post(f"{path}/review", json={"depth": "deep"}),
            await stranger.http.delete(path),
        ):
            assert response.status_code == 404 and response.json()["error"]["code"] == "record_not_found", response.text
        assert (await stranger.http.get("/api/ai-reviews/records")).json()["records"] == []

        deep = await owner.http.post(f"{path}/review", json={"depth": "deep"})
        assert deep.status_code == 200 and deep.json()["depth"] == "deep", deep.text
        review = await until(owner, path, ("done", "failed"), "deep")
        assert review["state"] == "done" and all(figure["depth"] == "deep" for figure in review["positions"])

        listed = (await owner.http.get("/api/ai-reviews/records")).json()
        assert [(r["record_id"], r["state"], r["depth"]) for r in listed["records"]] == [(record_id, "done", "deep")]
        assert (await owner.http.delete(path)).status_code == 204
        assert (await owner.http.get(path)).json()["error"]["code"] == "record_not_found"
        assert (await owner.http.get("/api/ai-reviews/records")).json()["records"] == []
    finally:
        await owner.close()
        await stranger.close()


@pytest.mark.parametrize("database_url", ["sqlite", "postgres"], indirect=True)
async def test_a_record_is_refused_with_its_own_code(make_live_server: MakeLiveServer, database_url: str) -> None:
    """Without KataGo: on SQLite nothing can review (refused once the record is read: nothing stored), on
    PostgreSQL the record waits for an analyst; the cap on records kept is reached there."""
    server = make_live_server(ai_review_record_bytes=400, ai_review_record_moves=9, ai_review_records=2)
    owner = await Player(server.url).visit()
    try:

        async def upload(text: str) -> Any:
            return await owner.http.post("/api/ai-reviews/records", content=text.encode())

        too_large = await upload("(;SZ[9]" + ";B[aa];W[bb]" * 40 + ")")
        assert too_large.status_code == 413 and too_large.json()["error"]["code"] == "record_too_large"
        for text, code in (("", "bad_sgf"), ("not a record", "bad_sgf"), ("(;SZ[9]RU[Chess];B[aa])", "bad_sgf")):
            refused = await upload(text)
            assert refused.status_code == 422 and refused.json()["error"]["code"] == code, refused.text
        too_long = await upload("(;SZ[9]" + "".join(f";B[{c}a];W[{c}b]" for c in "abcde") + ")")
        assert too_long.status_code == 422 and too_long.json()["error"]["code"] == "record_too_long"
        illegal = await upload("(;SZ[9];B[cc];W[dd];B[ee];W[cc])")
        assert illegal.status_code == 422, illegal.text
        error = illegal.json()["error"]
        assert (error["code"], error["move"], error["reason"]) == ("illegal_move", 4, "occupied")

        good = "(;SZ[9];B[cc];W[gg])"
        unknown = await owner.http.post("/api/ai-reviews/records?review=nosuchreview", content=good.encode())
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "review_not_found"
        if database_url.startswith("sqlite"):  # no KataGo, so no analyst: nothing is kept
            refused = await upload(good)
            assert refused.status_code == 503 and refused.json()["error"]["code"] == "engine_unavailable"
            assert (await owner.http.get("/api/ai-reviews/records")).json() == {"records": [], "limit": 2}
            return
        kept = [(await upload(good)).json()["record_id"] for _ in range(2)]
        full = await upload(good)
        assert full.status_code == 409 and full.json()["error"]["code"] == "too_many_records", full.text
        listed = (await owner.http.get("/api/ai-reviews/records")).json()
        assert sorted(r["record_id"] for r in listed["records"]) == sorted(kept) and listed["limit"] == 2
        assert all(r["state"] == "queued" for r in listed["records"])
        assert (await owner.http.delete(f"/api/ai-reviews/records/{kept[0]}")).status_code == 204
        # the record of a shared review: the review's page finds it in the list by its review_id
        shared = await owner.http.post("/api/reviews", json={"sgf": good, "title": "mine"})
        assert shared.status_code == 201, shared.text
        linked = await owner.http.post(f"/api/ai-reviews/records?review={shared.json()['id']}", content=good.encode())
        assert linked.status_code == 200 and linked.json()["review_id"] == shared.json()["id"], linked.text
        listed = (await owner.http.get("/api/ai-reviews/records")).json()["records"]
        assert sorted((r["record_id"], r["review_id"]) for r in listed) == sorted(
            [(kept[1], None), (linked.json()["record_id"], shared.json()["id"])]
        )
    finally:
        await owner.close()
