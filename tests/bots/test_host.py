"""``tengen house-bots``: the house bots' bridges in one process, as ``tengen serve`` starts them (real GNU Go, a
real ``tengen serve``): two bots play their games at once from one process, each bot's lines in its own log, a
clean stop; a token the server refuses leaves that bot stopped and, when every bot is refused, the process ends
with the bridge's refusal code."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.bots.bridge import REFUSED
from app.bots.host import Seat, read_seats
from app.bots.house import GNUGO_BOTS, KATAGO_BOTS, HouseBot, HouseBots, prepare, seat_for
from app.settings import Settings
from tests.bots.accounts import register
from tests.support.bot_opponent import Opponent, challenge_bot
from tests.support.bot_processes import ServeProcess
from tests.support.server_process import REPO_ROOT
from tests.support.services import GNUGO, need_gnugo

BLITZ = {"kind": "byoyomi", "main": 60, "periods": 3, "period_time": 10}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    need_gnugo()
    (tmp_path / "server").mkdir()
    process = ServeProcess(tmp_path / "server").start()
    yield process
    process.stop()


async def house_tokens(server: ServeProcess, bots: tuple[HouseBot, ...]) -> list[tuple[HouseBot, str]]:
    """The house bots' accounts and fresh tokens, as ``tengen serve`` makes them."""
    return await prepare(Settings(env="test", data_dir=server.data_dir), bots)


def _cookie(http: httpx.AsyncClient) -> str:
    return "; ".join(f"{name}={value}" for name, value in http.cookies.items())


def _children(pid: int) -> list[str]:
    """The names of the process's children (``gnugo``, ``python3``...)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(stat.split("(", 1)[1].rsplit(")", 1)[0])
    return found


def test_seats_say_each_bots_engine_and_keep_tokens_off_the_command_line() -> None:
    beginner, kata = GNUGO_BOTS[0], KATAGO_BOTS[0]
    seat = seat_for(beginner, "tgn_secret", "/usr/games/gnugo")
    assert seat.engine == "/usr/games/gnugo --mode gtp --level 1" and seat.options["random_share"] == 0.5
    assert seat.options["fallback"] == "/usr/games/gnugo --mode gtp --level 0"
    # A KataGo step without GNU Go: no fallback engine.
    kata_seat = seat_for(kata, "t", None)
    assert kata_seat.engine == "" and kata_seat.options == {
        "max_think": 3.0,
        "untimed_limit": 3.0,
        "katago_step": "Kata-25k",
        "scoring": "accept",
    }
    assert read_seats(json.dumps([seat.to_json()])) == [seat]
    with pytest.raises(ValueError):
        read_seats("[]")
    house = HouseBots("/usr/games/gnugo", "http://127.0.0.1:1", [(beginner, "tgn_secret")], Path("/nonexistent"))
    assert house.seats == [seat]


async def test_one_process_plays_every_house_bots_games_and_stops_cleanly(server: ServeProcess, tmp_path: Path) -> None:
    bots = (GNUGO_BOTS[0], GNUGO_BOTS[2])  # the beginner (random moves) and level 5
    house = HouseBots(GNUGO, server.url, await house_tokens(server, bots), tmp_path / "house-bots")
    house.start()
    try:
        assert house.process is not None
        async with httpx.AsyncClient(base_url=server.url) as player:
            await register(player)
            games = [await challenge_bot(player, bot.name, board_size=9, rated=False, time_control=BLITZ) for bot in bots]
            # Both bots think at once: each game's GNU Go is a child of the one process.
            outcomes = await asyncio.gather(
                *(Opponent(server.ws_url, _cookie(player), game_id, moves=6, seed=n).play(300) for n, game_id in enumerate(games))
            )
        assert not [name for name in _children(house.process.pid) if name.startswith("python")]  # no bridge process per bot
    finally:
        house.stop()
    assert house.process.returncode == 0
    for bot, outcome in zip(bots, outcomes, strict=True):
        log = (tmp_path / "house-bots" / f"{bot.name}.log").read_text()
        assert outcome.result is not None and outcome.result["reason"] == "score", (outcome.result, log[-2000:])
        assert f"connected to {server.url} as {bot.name}" in log
        assert f"game {outcome.game_id}: game over" in log  # the game's lines in its bot's log, not the other's
        other = next(b for b in bots if b is not bot)
        assert outcome.game_id not in (tmp_path / "house-bots" / f"{other.name}.log").read_text()
    assert "stopping the house bots" in (tmp_path / "house-bots" / "house-bots.log").read_text()


async def test_refused_tokens_stop_their_bots_and_all_refused_end_the_process(server: ServeProcess, tmp_path: Path) -> None:
    ((bot, token),) = await house_tokens(server, (GNUGO_BOTS[1],))
    good = seat_for(bot, token, GNUGO)
    refused = Seat("Nobody", "tgn_not-a-token", good.engine, good.options)

    def host(seats: list[Seat]) -> subprocess.Popen[str]:
        command = [sys.executable, "-m", "app.cli", "house-bots", "--server", server.url, "--log-dir", str(tmp_path / "logs")]
        process = subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert process.stdin is not None
        process.stdin.write(json.dumps([seat.to_json() for seat in seats]))
        process.stdin.close()
        return process

    alone = host([refused])
    assert alone.wait(60) == REFUSED
    both = host([refused, good])
    try:
        async with httpx.AsyncClient(base_url=server.url) as player:
            await register(player)
            game_id = await challenge_bot(player, bot.name, board_size=9, rated=False, time_control=BLITZ)
            outcome = await Opponent(server.ws_url, _cookie(player), game_id, moves=4, seed=7).play(300)
        assert both.poll() is None  # the refused bot did not take the other down
    finally:
        both.terminate()
        code = both.wait(30)
    assert code == 0
    assert outcome.result is not None and outcome.result["reason"] == "score"
    assert "the server refused its token" in (tmp_path / "logs" / "Nobody.log").read_text()


UNKNOWN_STEP = json.dumps([{"name": "X", "token": "t", "options": {"katago_step": "Kata-99k"}}])


@pytest.mark.parametrize("given", ["not json", "[]", UNKNOWN_STEP])
def test_bots_it_cannot_run_end_it_with_the_code_that_is_not_restarted(given: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "house-bots", "--server", "http://127.0.0.1:9"],
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        input=given,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == REFUSED, done.stderr
    assert "house-bots: the bots on standard input" in done.stderr or "no step 'Kata-99k'" in done.stderr
