"""``tengen bot`` with real GNU Go against real ``tengen serve`` processes, through the public API only:
rated games played to a scored end, a clean stop on SIGTERM, and games that survive a killed bridge and a
killed server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from app.store.db import create_engine, create_sessionmaker
from app.store.models import Game, RatingUpdate
from tests.bots.accounts import make_bot, register
from tests.support.bot_opponent import Opponent, challenge_bot
from tests.support.bot_processes import BridgeProcess, ServeProcess
from tests.support.services import need_gnugo

BLITZ = {"kind": "byoyomi", "main": 120, "periods": 3, "period_time": 10}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    need_gnugo()
    process = ServeProcess(tmp_path).start()
    yield process
    process.stop()


def _cookie(http: httpx.AsyncClient) -> str:
    return "; ".join(f"{name}={value}" for name, value in http.cookies.items())


async def _stored_game(data_dir: Path, game_id: str) -> tuple[Game, bool]:
    engine = create_engine(f"sqlite+aiosqlite:///{data_dir / 'tengen.sqlite3'}")
    try:
        async with create_sessionmaker(engine)() as session:
            game = (await session.execute(select(Game).where(Game.id == game_id))).scalar_one()
            rated = (await session.execute(select(RatingUpdate).where(RatingUpdate.game_id == game_id))).first()
            return game, rated is not None
    finally:
        await engine.dispose()


async def test_a_token_bot_plays_rated_games_to_a_scored_end_and_stops_cleanly(server: ServeProcess, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.url) as owner, httpx.AsyncClient(base_url=server.url) as player:
        await register(owner)
        bot, token = await make_bot(owner, board_sizes=[9], max_games=4)
        await register(player)
        bridge = BridgeProcess(server.url, token, tmp_path / "bridge.log").start()
        try:
            games = [
                await challenge_bot(player, bot["name"], board_size=9, rated=True, time_control=BLITZ, color=color)
                for color in ("black", "white")
            ]
            outcomes = await asyncio.gather(
                *(Opponent(server.ws_url, _cookie(player), game_id, moves=8, seed=n).play(300) for n, game_id in enumerate(games))
            )
        finally:
            code = bridge.terminate()
        log = bridge.log_text()
        assert code == 0, log[-3000:]
        assert "stopping: closing engines and sockets" in log
    for outcome in outcomes:
        assert outcome.result is not None and outcome.result["reason"] == "score", (outcome.result, log[-3000:])
        assert outcome.bot_moves >= 5
        assert f"game {outcome.game_id}: game over: {outcome.result['text']}" in log  # each game is logged
    assert {o.bot_color for o in outcomes} == {"B", "W"}
    for game_id in games:  # rated like anyone: the ratings record the game
        deadline = time.monotonic() + 40
        while True:
            game, rated = await _stored_game(server.data_dir, game_id)
            if rated or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
        assert game.rated and game.status == "finished" and rated


async def test_a_killed_bridge_and_a_killed_server_resume_their_games(server: ServeProcess, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.url) as owner, httpx.AsyncClient(base_url=server.url) as player:
        await register(owner)
        bot, token = await make_bot(owner, board_sizes=[9])
        await player.post("/api/guest")
        bridge = BridgeProcess(server.url, token, tmp_path / "bridge.log", extra=["--log-level", "debug"]).start()
        try:
            game_id = await challenge_bot(player, bot["name"], board_size=9, time_control=BLITZ, color="black")
            opponent = Opponent(server.ws_url, _cookie(player), game_id, moves=18, seed=7, think=0.2)
            playing = asyncio.create_task(opponent.play(400))

            async def bot_moves_reach(count: int) -> None:
                while opponent.outcome.bot_moves < count:
                    assert not playing.done(), playing
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(bot_moves_reach(3), 120)
            bridge.kill()  # kill -9 mid-game: the game goes on on the server
            before = opponent.outcome.bot_moves
            await asyncio.sleep(1.0)
            bridge.start()  # a new bridge picks the game up from /api/me/games/active and the snapshot
            await asyncio.wait_for(bot_moves_reach(before + 3), 120)

            server.kill()  # kill -9 the server mid-game
            before = opponent.outcome.bot_moves
            await asyncio.sleep(1.0)
            await asyncio.to_thread(server.start)  # same port, same database
            await asyncio.wait_for(bot_moves_reach(before + 3), 120)

            outcome = await playing
        finally:
            bridge.terminate()
    log = bridge.log_text()
    assert outcome.result is not None and outcome.result["reason"] == "score", (outcome.result, log[-4000:])
    assert f"resuming game {game_id}" in log and "reconnecting" in log
    versions = [event["v"] for event in outcome.events]
    assert versions == sorted(set(versions))  # the opponent saw every event once, in order


async def test_the_bridge_declines_draw_and_adjournment_offers(server: ServeProcess, tmp_path: Path) -> None:
    import json

    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(base_url=server.url) as owner, httpx.AsyncClient(base_url=server.url) as player:
        await register(owner)
        bot, token = await make_bot(owner, board_sizes=[9])
        await player.post("/api/guest")
        bridge = BridgeProcess(server.url, token, tmp_path / "bridge.log").start()
        try:
            game_id = await challenge_bot(player, bot["name"], board_size=9, time_control=BLITZ, color="black")
            async with connect(f"{server.ws_url}/ws/games/{game_id}", additional_headers={"Cookie": _cookie(player)}) as ws:
                declined: list[str] = []
                for n, kind in enumerate(("draw", "adjourn")):
                    await ws.send(json.dumps({"t": f"{kind}_offer", "id": f"o{n}"}))
                    while True:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                        if message["t"] == "ping":
                            await ws.send(json.dumps({"t": "pong", "id": message["id"]}))
                        if message["t"] == "offer_declined":
                            assert message["by"] == "W"
                            declined.append(message["kind"])
                            break
                assert declined == ["draw", "adjourn"]
                await ws.send(json.dumps({"t": "resign", "id": "r"}))
                while (message := json.loads(await asyncio.wait_for(ws.recv(), 30)))["t"] != "game_over":
                    pass
                assert message["result"]["text"] == "W+R"
        finally:
            assert bridge.terminate() == 0
    log = bridge.log_text()
    assert "declining the draw offer" in log and "declining the adjourn offer" in log
