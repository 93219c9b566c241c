"""Ratings through the real interface: a uvicorn server, real sockets, SQLite and PostgreSQL (in-process hub)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson
import pytest
import websockets
from sqlalchemy import select

from app.ratings import ranks
from app.ratings.glicko2 import Outcome, Rating, update
from app.ratings.handicap import black_advantage_points
from app.store.db import create_engine, create_sessionmaker
from app.store.models import RatingUpdate
from tests.ratings.rated_play import profile, rated_game, registered, wait_games
from tests.support.players import Player, start_game

pytestmark = pytest.mark.timeout(120)


def _start(strength: str) -> Rating:
    s = ranks.starting_rating(strength)
    return Rating(s.rating, s.deviation, s.volatility)


async def test_a_rated_game_updates_both_players_once_with_the_formulas_figures(live_server: str) -> None:
    black, white = await registered(live_server, "club"), await registered(live_server, "3k")
    bn, wn = black.user["name"], white.user["name"]
    try:
        assert black.user["rank"] == "5k?"  # the starting rank, provisional
        game_id = await rated_game(black, white, winner="B")
        got_b = await wait_games(black, bn, 1)
        got_w = await wait_games(black, wn, 1)

        rb, rw = _start("club"), _start("3k")
        extra = black_advantage_points(rb.rating, 0, 7.5, 9)
        want_b = update(rb, [Outcome(rw, 1.0, extra)], 0.5)
        want_w = update(rw, [Outcome(rb, 0.0, -extra)], 0.5)
        for got, want in ((got_b, want_b), (got_w, want_w)):
            for category in ("overall", "9"):
                figures = got["ratings"][category]
                assert figures["rating"] == pytest.approx(want.rating, abs=0.01)
                assert figures["deviation"] == pytest.approx(want.deviation, abs=0.01)
                assert figures["volatility"] == pytest.approx(want.volatility, abs=1e-6)
                assert figures["rank"] == ranks.rank_label(want.rating)
                assert figures["provisional"] is True and figures["games"] == 1
            assert got["ratings"]["19"]["games"] == 0
        assert got_b["record"]["total"] == {"wins": 1, "losses": 0, "draws": 0}
        assert got_b["record"]["by_size"]["9"]["wins"] == 1
        assert got_b["record"]["by_speed"]["untimed"]["wins"] == 1
        assert got_b["recent"][0]["id"] == game_id
        assert got_b["recent"][0]["rating_change"]["after"] == pytest.approx(want_b.rating, abs=0.01)
        # Head-to-head from the viewer's side: white looks at black's page.
        seen_by_white = await profile(white, bn)
        assert seen_by_white["head_to_head"]["losses"] == 1 and seen_by_white["head_to_head"]["wins"] == 0

        history = (await black.http.get(f"/api/players/{bn}/history")).json()
        assert history["start"]["rating"] == pytest.approx(rb.rating, abs=0.01)
        assert [p["game_id"] for p in history["points"]] == [game_id]
        assert history["points"][0]["change"] > 0
        board = (await black.http.get("/api/leaderboard", params={"category": "9"})).json()
        assert [p["name"] for p in board["players"]] == [bn, wn] or [p["name"] for p in board["players"]] == [wn, bn]
        assert board["total"] == 2
        assert [p["bot"] for p in board["players"]] == [False, False] and got_b["player"]["bot"] is False

        # A second game: the update starts from the figures the first one left.
        await rated_game(white, black, winner="W")
        again = await wait_games(black, wn, 2)
        history = (await black.http.get(f"/api/players/{wn}/history")).json()["points"]
        assert len(history) == 2
        assert again["ratings"]["overall"]["rating"] == pytest.approx(history[1]["rating"], abs=0.01)
    finally:
        await black.close()
        await white.close()


async def _play_out(black: Player, white: Player, game_id: str, moves: list[tuple[str, list[int] | None]], loser: str) -> None:
    """Play ``moves`` (colour and point, None for a pass) on the two sockets, then ``loser`` resigns."""
    sockets = {"B": await black.socket(game_id), "W": await white.socket(game_id)}
    for sock in sockets.values():
        await sock.of_type("snapshot")
    for color, point in moves:
        action = {"t": "pass"} if point is None else {"t": "play", "p": point}
        assert (await sockets[color].act(action))["t"] == "ack", (color, point)
    assert (await sockets[loser].act({"t": "resign"}))["t"] == "ack"
    for sock in sockets.values():
        await sock.close()


async def _recorded(database_url: str, game_id: str, timeout: float = 20.0) -> tuple[str, str | None]:
    """The status and reason of the game's rating update once the server has made it."""
    engine = create_engine(database_url)
    try:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            async with create_sessionmaker(engine)() as session:
                found = (
                    await session.execute(select(RatingUpdate.status, RatingUpdate.reason).where(RatingUpdate.game_id == game_id))
                ).first()
            if found is not None:
                return found[0], found[1]
            assert asyncio.get_running_loop().time() < deadline, f"game {game_id} has no rating update"
            await asyncio.sleep(0.1)
    finally:
        await engine.dispose()


async def test_a_game_with_fewer_than_two_stones_by_either_side_is_not_rated(live_server: str, database_url: str) -> None:
    """Resigning at once (or after a stone each) cannot move a rating: the game ends unrated, and every view of
    it says so and why. Passes are not stones, and handicap stones are placed, not played."""
    black, white = await registered(live_server, "club"), await registered(live_server, "3k")
    names = {"B": black.user["name"], "W": white.user["name"]}
    Moves = list[tuple[str, list[int] | None]]
    handicap = {"handicap": 2}  # Black's stones on (2, 6) and (6, 2); White moves first
    short: list[tuple[dict[str, int], Moves, str]] = [
        ({}, [], "B"),  # resigned at move 0
        ({}, [("B", [2, 2]), ("W", [6, 6])], "W"),
        ({}, [("B", [2, 2]), ("W", None), ("B", [2, 6]), ("W", [6, 6])], "W"),  # White: a pass and one stone
        (handicap, [("W", [6, 6]), ("B", [2, 2]), ("W", [6, 4])], "B"),  # Black: two handicap stones, one played
    ]
    counted: list[tuple[dict[str, int], Moves, str]] = [
        ({}, [("B", [2, 2]), ("W", [6, 6]), ("B", [2, 6]), ("W", [6, 2])], "W"),
        (handicap, [("W", [6, 6]), ("B", [2, 2]), ("W", [6, 4]), ("B", [4, 4])], "W"),
    ]
    try:
        unrated: list[str] = []
        rated: list[str] = []
        for into, cases in ((unrated, short), (rated, counted)):
            for settings, moves, loser in cases:
                game_id = await start_game(black, white, rated=True, **settings)
                await _play_out(black, white, game_id, moves, loser)
                into.append(game_id)
        for game_id in unrated:
            assert await _recorded(database_url, game_id) == ("unrated", "too_short")
            detail = (await black.http.get(f"/api/games/{game_id}")).json()
            assert (detail["rated"], detail["unrated_reason"], detail["rating_changes"]) == (False, "too_short", None)
        for game_id in rated:
            assert await _recorded(database_url, game_id) == ("rated", None)
            detail = (await black.http.get(f"/api/games/{game_id}")).json()
            assert (detail["rated"], detail["unrated_reason"]) == (True, None) and detail["rating_changes"] is not None
        for color, name in names.items():
            page = await wait_games(black, name, 2)
            assert page["ratings"]["overall"]["games"] == 2, color  # only the two long games counted
            points = (await black.http.get(f"/api/players/{name}/history")).json()["points"]
            assert sorted(p["game_id"] for p in points) == sorted(rated)
            shown = {g["id"]: (g["rated"], g["unrated_reason"]) for g in page["recent"]}
            assert shown == {**{g: (False, "too_short") for g in unrated}, **{g: (True, None) for g in rated}}
        history = (await white.http.get("/api/me/games/history")).json()["games"]
        assert {g["id"]: g["unrated_reason"] for g in history} == {
            **{g: "too_short" for g in unrated},
            **{g: None for g in rated},
        }
    finally:
        await black.close()
        await white.close()


async def test_a_player_page_of_nobody_answers_404(live_server: str) -> None:
    async with httpx.AsyncClient(base_url=live_server) as anyone:
        for path in ("/api/players/nobody-here", "/players/nobody-here"):
            answer = await anyone.get(path)
            assert answer.status_code == 404, path
            assert answer.json()["error"]["code"] == "player_not_found", path
        someone = await registered(live_server)
        try:
            page = await anyone.get(f"/players/{someone.user['name']}")
            assert page.status_code == 302 and page.headers["location"] == f"/#/players/{someone.user['name']}"
        finally:
            await someone.close()


async def test_ranks_beside_names_and_the_archive(live_server: str) -> None:
    a, b = await registered(live_server, "15k"), await registered(live_server, "2d")
    an, bnm = a.user["name"], b.user["name"]
    try:
        await rated_game(a, b, winner="W")
        await wait_games(a, an, 1)
        await rated_game(b, a, winner="W", board_size=13)
        await wait_games(a, an, 2)
        live = await a.http.get("/api/me/games/history")
        players = live.json()["games"][0]["players"]
        assert {players["B"]["rank"], players["W"]["rank"]} == {
            (await profile(a, an))["player"]["rank"],
            (await profile(a, bnm))["player"]["rank"],
        }
        assert all(p["rank"].rstrip("?")[-1] in "kd" for p in players.values())

        async def search(**params: Any) -> Any:
            response = await a.http.get("/api/archive", params=params)
            assert response.status_code == 200, response.text
            return response.json()

        assert (await search(player=an))["total"] == 2
        assert (await search(player=an, size=13))["total"] == 1
        assert (await search(player=an, result="win"))["total"] == 1
        assert (await search(player=an, result="loss"))["total"] == 1
        assert (await search(player=bnm, result="win"))["total"] == 1
        assert (await search(player=an, since="2000-01-01", until="2000-01-02"))["total"] == 0
        page = await search(player=an, per_page=1, page=2)
        assert page["total"] == 2 and len(page["games"]) == 1
        bad = await a.http.get("/api/archive", params={"result": "win"})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "player_required"
        assert (await a.http.get("/api/players/nobody-here")).status_code == 404
    finally:
        await a.close()
        await b.close()


async def test_rank_range_and_automatic_handicap(live_server: str) -> None:
    weak, strong, mid = (
        await registered(live_server, "12k"),
        await registered(live_server, "4k"),
        await registered(live_server, "8k"),
    )
    try:
        body = {
            "board_size": 19,
            "rules": "chinese",
            "color": "white",
            "time_control": {"kind": "none"},
            "rated": True,
            "min_rank": "10k",
            "max_rank": "1d",
            "auto_handicap": True,
        }
        made = await strong.http.post("/api/challenges", json=body)
        assert made.status_code == 201, made.text
        assert made.json()["min_rank"] == "10k" and made.json()["creator"]["rank"] == "4k?"
        refused = await weak.http.post(f"/api/challenges/{made.json()['id']}/accept")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "rank_out_of_range"
        suggestion = (await mid.http.get(f"/api/players/{strong.user['name']}/handicap", params={"size": 19})).json()
        assert suggestion == {"handicap": 4, "komi": 0.5, "you_play_black": True}
        accepted = await mid.http.post(f"/api/challenges/{made.json()['id']}/accept")
        assert accepted.status_code == 201, accepted.text
        game = accepted.json()["game"]
        assert game["handicap"] == 4 and game["komi"] == 0.5
        assert game["players"]["B"]["name"] == mid.user["name"]  # the weaker player takes Black
        # The rank beside the names: in the live list, the lobby socket's snapshot and the board's player cards.
        live = (await weak.http.get("/api/games/live")).json()["games"]
        assert {g["id"]: g["players"]["W"]["rank"] for g in live}[game["id"]] == "4k?"
        lobby = await websockets.connect(live_server.replace("http://", "ws://") + "/ws/lobby")
        try:
            snapshot = orjson.loads(await lobby.recv())
            assert {g["id"]: g["players"]["B"]["rank"] for g in snapshot["games"]}[game["id"]] == "8k?"
        finally:
            await lobby.close()
        board = await mid.socket(game["id"])
        try:
            players = (await board.of_type("snapshot"))["game"]["players"]
            assert (players["B"]["rank"], players["W"]["rank"]) == ("8k?", "4k?")
            assert (await board.act({"t": "chat", "channel": "players", "text": "onegaishimasu"}))["t"] == "ack"
            line = await board.of_type("chat")
            assert line["from"]["rank"] == "8k?" and line["from"]["name"] == mid.user["name"]
        finally:
            await board.close()
        bad = await strong.http.post("/api/challenges", json={**body, "min_rank": "1d", "max_rank": "10k"})
        assert bad.status_code == 422
        assert await registered_with(live_server, "7p") == 400  # invalid_strength
    finally:
        for p in (weak, strong, mid):
            await p.close()


async def test_every_view_of_a_challenge_carries_the_ranks_of_the_people_it_names(live_server: str) -> None:
    """The lists, one challenge, its creation, cancel and decline answers, and the lobby socket's snapshot and
    ``challenge_created``: wherever a challenge is shown, its creator and opponent have their ranks."""
    creator, reader = await registered(live_server, "club"), await registered(live_server, "12k")
    lobby = await reader.lobby()
    try:
        await lobby.of_type("snapshot")
        body = {"board_size": 9, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}
        public = (await creator.http.post("/api/challenges", json=body)).json()
        addressed = (await creator.http.post("/api/challenges", json={**body, "opponent": reader.user["name"]})).json()
        for made in (public, addressed):
            assert made["creator"]["rank"] == "5k?", made
        assert addressed["opponent"]["rank"] == "12k?"

        def ranks_of(view: dict[str, Any]) -> tuple[str | None, str | None]:
            return view["creator"]["rank"], None if view["opponent"] is None else view["opponent"]["rank"]

        created = [(await lobby.of_type("challenge_created"))["challenge"] for _ in range(2)]
        assert {c["id"]: ranks_of(c) for c in created} == {public["id"]: ("5k?", None), addressed["id"]: ("5k?", "12k?")}
        listed = (await reader.http.get("/api/challenges")).json()["challenges"]
        assert [ranks_of(c) for c in listed if c["id"] == public["id"]] == [("5k?", None)]
        incoming = (await reader.http.get("/api/challenges/incoming")).json()["challenges"]
        assert [ranks_of(c) for c in incoming] == [("5k?", "12k?")]
        one = (await reader.http.get(f"/api/challenges/{public['id']}")).json()
        assert ranks_of(one) == ("5k?", None)
        snapshot = await (await reader.lobby()).of_type("snapshot")
        assert [ranks_of(c) for c in snapshot["challenges"] if c["id"] == public["id"]] == [("5k?", None)]
        assert [ranks_of(c) for c in snapshot["incoming"]] == [("5k?", "12k?")]
        declined = (await reader.http.post(f"/api/challenges/{addressed['id']}/decline", json={"reason": "busy"})).json()
        assert ranks_of(declined) == ("5k?", "12k?")
        cancelled = (await creator.http.delete(f"/api/challenges/{public['id']}")).json()
        assert ranks_of(cancelled) == ("5k?", None)
    finally:
        await lobby.close()
        for p in (creator, reader):
            await p.close()


async def registered_with(base_url: str, strength: str) -> int:
    from tests.support.players import Player

    player = await Player(base_url).visit()
    try:
        response = await player.http.post(
            "/api/auth/register", json={"username": "someone-new", "password": "s3cret-Tengen-pw", "strength": strength}
        )
        return response.status_code
    finally:
        await player.close()
