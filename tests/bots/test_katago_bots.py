"""The KataGo house bots against the real KataGo, in real ``tengen serve`` and ``tengen bot`` processes: every
step plays a legal 9x9 game to its scored end within a quick clock, and a few moves on 13x13 and 19x19 (a whole
19x19 game is minutes of this machine's CPU per step). The server's KataGo answers the house bots only."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.bots.kata_engine import ASK_SHARE
from app.bots.house import KATAGO_BOTS, HouseBot, HouseBots, katago_installed, prepare
from app.bots.rank_pick import SPARRING, STEPS
from app.settings import Settings
from tests.bots.accounts import bearer, make_bot, register
from tests.support.bot_opponent import Opponent, challenge_bot
from tests.support.bot_processes import BridgeProcess, ServeProcess
from tests.support.katago import katago_dir

__all__ = ["katago_dir"]

pytestmark = [pytest.mark.katago]

QUICK_PERIOD = 5  # seconds a move once the 20 s of main time are gone
QUICK: dict[str, Any] = {"kind": "byoyomi", "main": 20, "periods": 3, "period_time": QUICK_PERIOD}
# The evaluations' worth of time a move's budget holds on a big board at least (one for a policy step's move; the
# rest for the queue, a search and the machine getting busier after the speed was measured).
EVALUATIONS_A_MOVE = 4


@pytest.fixture(scope="module")
def server(katago_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    process = ServeProcess(
        tmp_path_factory.mktemp("katago-bots"),
        TENGEN_KATAGO="true",
        TENGEN_ENGINES_DIR=str(katago_dir),
        TENGEN_KATAGO_BUFFERS="[9, 19]",  # 13x13 goes to the 19x19 process
        TENGEN_KATAGO_PARALLEL="1",
        TENGEN_KATAGO_MEASURE_VISITS="2",
    ).start()
    yield process
    process.stop()


async def house_token(server: ServeProcess, bot: HouseBot) -> str:
    """The house bot's account and a fresh token, as ``tengen serve`` makes them for its bridges."""
    settings = Settings(env="test", data_dir=server.data_dir)  # the server's SQLite
    ((_, token),) = await prepare(settings, (bot,))
    return token


def _cookie(http: httpx.AsyncClient) -> str:
    return "; ".join(f"{name}={value}" for name, value in http.cookies.items())


class Resigner(Opponent):
    """Plays its random moves, then resigns instead of passing: a few moves of a big board."""

    async def _act(self, ws: Any) -> None:
        if self.moves_left <= 0 and self.phase == "playing" and self.to_move == self.me and self.outcome.result is None:
            self._ids += 1
            await ws.send(json.dumps({"t": "resign", "id": f"o{self._ids}"}))
            self.to_move = ""
            return
        await super()._act(ws)


@pytest.mark.parametrize("bot", KATAGO_BOTS, ids=[bot.name for bot in KATAGO_BOTS])
async def test_each_step_plays_a_legal_9x9_game_to_the_end_within_its_clock(
    server: ServeProcess, bot: HouseBot, tmp_path: Path
) -> None:
    token = await house_token(server, bot)
    async with httpx.AsyncClient(base_url=server.url) as player:
        await register(player)
        bridge = BridgeProcess(server.url, token, tmp_path / "bridge.log", katago_step=bot.step, extra=["--scoring", "accept"])
        bridge.start()
        try:
            game_id = await challenge_bot(player, bot.name, board_size=9, rated=False, time_control=QUICK, color="black")
            outcome = await Opponent(server.ws_url, _cookie(player), game_id, moves=12, seed=3).play(400)
        finally:
            code = bridge.terminate()
        log = bridge.log_text()
    assert code == 0, log[-3000:]
    # Every move the server took was legal by its rules; the game was counted, not lost on time.
    assert outcome.result is not None and outcome.result["reason"] == "score", (outcome.result, log[-3000:])
    assert outcome.bot_moves >= 10 and "no move within the budget" not in log, log[-3000:]
    if bot.step == "Kata-Sparring":  # a new player, 6k by default, and no games against it yet: aimed at 6k
        assert "aiming at 6.0 kyu" in log, log[-3000:]


async def measured_speed(server: ServeProcess, buffer: int) -> float:
    """The evaluations a second the server's KataGo measured for this buffer at its start (/healthz)."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        for _ in range(600):
            lanes = (await http.get("/healthz")).json()["engines"]["katago"].get("buffers") or {}
            speed = (lanes.get(f"{buffer}x{buffer}") or {}).get("evals_per_second")
            if speed:
                return float(speed)
            await asyncio.sleep(0.2)
    raise AssertionError(f"the server's KataGo measured no speed for {buffer}x{buffer}")


def clock_for(speed: float) -> dict[str, Any]:
    """A quick byo-yomi clock whose period leaves a move's budget (half a period, of which the bot gives KataGo
    ``ASK_SHARE``) room for ``EVALUATIONS_A_MOVE`` evaluations at the measured speed: the bot's budget scales with
    this machine's speed (a busy machine's, or a 19x19 board's, is slower), so that no move falls to the
    fallback for want of time. Never quicker than ``QUICK``."""
    need = EVALUATIONS_A_MOVE / speed / ASK_SHARE
    return {**QUICK, "period_time": max(QUICK_PERIOD, math.ceil(2 * need))}


@pytest.mark.parametrize("size", [13, 19])
async def test_a_policy_step_and_the_search_play_on_13x13_and_19x19(server: ServeProcess, size: int, tmp_path: Path) -> None:
    clock = clock_for(await measured_speed(server, 19))  # 13x13 goes to the 19x19 process
    async with httpx.AsyncClient(base_url=server.url) as player:
        await register(player)
        for bot in (KATAGO_BOTS[2], KATAGO_BOTS[-1]):
            bridge = BridgeProcess(
                server.url, await house_token(server, bot), tmp_path / f"{bot.name}.log", katago_step=bot.step
            ).start()
            try:
                game_id = await challenge_bot(player, bot.name, board_size=size, rated=False, time_control=clock)
                outcome = await Resigner(server.ws_url, _cookie(player), game_id, moves=4, seed=size).play(300)
            finally:
                code = bridge.terminate()
            log = bridge.log_text()
            assert code == 0
            assert outcome.result is not None and outcome.result["reason"] == "resignation", (outcome.result, log[-2000:])
            assert outcome.bot_moves >= 4 and "no move within the budget" not in log, log[-3000:]


async def test_only_house_bots_ask_the_servers_katago(server: ServeProcess) -> None:
    question = {"setup": {"size": 9}, "line": [{"color": "B", "point": [4, 4]}], "visits": 1, "seconds": 10}
    async with httpx.AsyncClient(base_url=server.url) as owner:
        await register(owner)
        _, token = await make_bot(owner)
        refused = await owner.post("/api/bots/katago", json=question, headers=bearer(token))
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "house_bots_only"
        assert (await owner.post("/api/bots/katago", json=question)).json()["error"]["code"] == "house_bots_only"
    house = bearer(await house_token(server, KATAGO_BOTS[0]))
    async with httpx.AsyncClient(base_url=server.url, headers=house) as bot:
        answer = (await bot.post("/api/bots/katago", json=question)).json()
        assert answer["to_move"] == "W" and len(answer["policy"]) == 82 and answer["policy"][4 * 9 + 4] == -1
        too_many = await bot.post("/api/bots/katago", json={**question, "visits": 401})
        assert too_many.status_code == 422 and too_many.json()["error"]["code"] == "too_many_visits"
        too_long = await bot.post("/api/bots/katago", json={**question, "seconds": 31})
        assert too_long.status_code == 422 and too_long.json()["error"]["code"] == "budget_too_long"
        illegal = {**question, "line": [{"color": "B", "point": [4, 4]}, {"color": "W", "point": [4, 4]}]}
        refused = await bot.post("/api/bots/katago", json=illegal)
        assert refused.status_code == 422, refused.text
    # Every step and the sparring partner is a house bot.
    assert {bot.step for bot in KATAGO_BOTS} == {step.name for step in (*STEPS, SPARRING)}


async def test_the_server_starts_katago_steps_as_house_bots(server: ServeProcess, katago_dir: Path, tmp_path: Path) -> None:
    assert katago_installed(Settings(env="test", katago=True, engines_dir=katago_dir))
    assert not katago_installed(Settings(env="test", katago=False, engines_dir=katago_dir))
    assert not katago_installed(Settings(env="test", katago=True, engines_dir=tmp_path))
    bot = KATAGO_BOTS[0]
    # As `tengen serve` starts them (without GNU Go: no fallback engine), for one step.
    house = HouseBots(None, server.url, [(bot, await house_token(server, bot))], tmp_path / "house-bots")
    house.start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as player:
            await register(player)
            game_id = await challenge_bot(player, bot.name, board_size=9, rated=False, time_control=QUICK)
            outcome = await Resigner(server.ws_url, _cookie(player), game_id, moves=3, seed=1).play(120)
    finally:
        house.stop()
    log = (tmp_path / "house-bots" / f"{bot.name}.log").read_text()
    assert outcome.result is not None and outcome.result["reason"] == "resignation", log[-2000:]
    assert outcome.bot_moves >= 3 and "no move within the budget" not in log, log[-2000:]


async def test_a_games_own_rules_reach_katago(server: ServeProcess) -> None:
    """A rules parameter beyond the preset's (here multi-stone suicide) is what KataGo is told: the point where
    Black's two stones would take their own last liberty is illegal for KataGo under Chinese rules, and legal
    once the game's rules allow such a suicide."""
    line = [((0, 0), "B"), ((0, 1), "W"), ((8, 8), "B"), ((1, 1), "W"), ((8, 7), "B"), ((2, 0), "W")]
    setup: dict[str, Any] = {"size": 9, "rules": "chinese", "komi": 7}
    question = {"setup": setup, "line": [{"color": c, "point": list(p)} for p, c in line], "visits": 1, "seconds": 20}
    suicide = 0 * 9 + 1  # B9: Black's A9 and B9 with no liberty left, capturing nothing
    house = bearer(await house_token(server, KATAGO_BOTS[0]))
    async with httpx.AsyncClient(base_url=server.url, headers=house, timeout=30) as bot:
        preset = (await bot.post("/api/bots/katago", json=question)).json()
        own = {**question, "setup": {**setup, "rules_params": {"multi_stone_suicide": True}}}
        custom = (await bot.post("/api/bots/katago", json=own)).json()
    assert preset["to_move"] == custom["to_move"] == "B"
    assert preset["policy"][suicide] == -1 and custom["policy"][suicide] >= 0, (preset["policy"][:9], custom["policy"][:9])
