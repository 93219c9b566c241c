"""KataGo's review of a finished game through a real server, its API and its game socket, with the real KataGo on
9x9 (two visits a position): the review completes, its figures are KataGo's answers to the same questions, the
socket carries them as they arrive, the SGF export carries them, a rated game is reviewed when it ends, and a game
in progress is refused."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sgfmill import sgf

from app.ai_review.raw import raw_figure, replayed, reviewed
from app.engines.lane import Priority
from app.store.repositories import games
from tests.conftest import LiveServer
from tests.support.room_fixtures import MakePlayer
from tests.ratings.rated_play import rated_game, registered
from tests.support.room_fixtures import make_player, server, servers  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, Player, start_game

pytestmark = [pytest.mark.katago, pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)]

MOVES = [(2, 2), (6, 6), (6, 2), (2, 6), (4, 4), (4, 6)]
WAIT = 300.0  # a shared 2-core machine: KataGo may be slow to start


async def played(make_player: MakePlayer) -> tuple[str, Player, GameSocket, GameSocket]:
    black, white = await make_player(), await make_player()
    game_id = await start_game(black, white)
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    await w.of_type("snapshot")
    for n, point in enumerate(MOVES):
        assert (await (b if n % 2 == 0 else w).act({"t": "play", "p": list(point)}))["t"] == "ack"
        await asyncio.sleep(0.1)  # within each socket's message rate
    return game_id, black, b, w


async def news_until_done(sock: GameSocket) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    while True:
        message = await sock.until(lambda m: m.get("t") == "ai_review", timeout=WAIT)
        seen.append(message)
        if message["state"] in ("done", "failed"):
            return seen


async def test_a_rated_game_is_reviewed_when_it_ends_without_anyone_asking(server: LiveServer) -> None:
    black, white = await registered(server.url), await registered(server.url)
    try:
        game_id = await rated_game(black, white, winner="W")
        for _ in range(int(WAIT * 4)):
            review = (await black.http.get(f"/api/games/{game_id}/review")).json()
            if review["state"] in ("done", "failed"):
                break
            await asyncio.sleep(0.25)
        assert review["state"] == "done" and review["depth"] == "quick", review
        assert all(figure is not None for figure in review["positions"])
    finally:
        await black.close()
        await white.close()


async def test_a_game_in_progress_is_refused(make_player: MakePlayer) -> None:
    game_id, black, _, _ = await played(make_player)
    for response in (
        await black.http.get(f"/api/games/{game_id}/review"),
        await black.http.post(f"/api/games/{game_id}/review", json={}),
    ):
        assert response.status_code == 409, response.text
        assert response.json()["error"]["code"] == "review_game_live"
    missing = await black.http.get("/api/games/nosuchgame/review")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "game_not_found"


async def test_a_quick_review_completes_with_katagos_answers_and_the_socket_carries_them(
    make_player: MakePlayer, server: LiveServer
) -> None:
    game_id, black, b, w = await played(make_player)
    assert (await b.act({"t": "resign"}))["t"] == "ack"
    before = (await black.http.get(f"/api/games/{game_id}/review")).json()
    assert before["state"] == "none" and before["positions"] == [None] * (len(MOVES) + 1)

    asked = await black.http.post(f"/api/games/{game_id}/review", json={"depth": "quick"})
    assert asked.status_code == 200, asked.text
    assert asked.json()["state"] in ("queued", "running", "done")
    news = await news_until_done(w)
    assert news[-1]["state"] == "done", news[-1]
    assert news[-1]["progress"] == {"done": len(MOVES) + 1, "total": len(MOVES) + 1}
    arrived = {int(i): figure for message in news for i, figure in message["positions"].items()}
    assert sorted(arrived) == list(range(len(MOVES) + 1))

    review = (await black.http.get(f"/api/games/{game_id}/review")).json()
    assert review["state"] == "done" and review["depth"] == "quick"
    assert review["progress"] == {"done": len(MOVES) + 1, "total": len(MOVES) + 1}
    assert review["positions"] == [arrived[i] for i in range(len(MOVES) + 1)]
    for figure in review["positions"]:
        assert figure["depth"] == "quick" and figure["visits"] >= 1
        assert len(figure["ownership"]) == 9 and all(len(row) == 9 for row in figure["ownership"])
        assert 1 <= len(figure["best"]) <= 3 and figure["best"][0]["ownership"] is not None

    # the same questions to the server's KataGo: the same answers (its network's, from its cache)
    async with server.app.state.sessionmaker() as session:
        game = await games.get(session, game_id)
        assert game is not None
        target = reviewed(replayed(game.config, [(m.color, m.x, m.y) for m in await games.moves(session, game_id)]))
    loop = server.app.state.ai_reviews.queue._worker._task.get_loop()  # the server's loop (it runs in a thread)
    for i, figure in enumerate(review["positions"]):
        question = target.question(i, figure["visits"])
        answer = asyncio.run_coroutine_threadsafe(server.app.state.engines.analyze(question, Priority.ESTIMATE), loop)
        expected = raw_figure(i, "quick", await asyncio.wrap_future(answer))
        assert figure["winrate"] == pytest.approx(expected["winrate"], abs=1e-6)
        assert figure["score_lead"] == pytest.approx(expected["score_lead"], abs=1e-6)
        assert figure["best"][0]["point"] == expected["best"][0]["point"]

    # asked again: nothing more to do, nothing computed again
    again = await black.http.post(f"/api/games/{game_id}/review", json={"depth": "quick"})
    assert again.json()["state"] == "done"
    async with server.app.state.sessionmaker() as session:
        from app.store.repositories import ai_reviews

        row = await ai_reviews.get(session, game_id)
        assert row is not None and row.evaluations == len(MOVES) + 1

    # the SGF export carries them: a comment on each move and Black's win rate as SBKV (percent)
    record = sgf.Sgf_game.from_bytes((await black.http.get(f"/api/games/{game_id}/sgf")).content)
    nodes = record.get_main_sequence()[1:]
    assert len(nodes) == len(MOVES)
    for n, node in enumerate(nodes, start=1):
        figure = review["positions"][n]
        assert float(node.get_raw("SBKV").decode()) == pytest.approx(figure["winrate"] * 100, abs=0.006)
        assert f"Black's win rate {figure['winrate'] * 100:.1f}%" in node.get("C")
