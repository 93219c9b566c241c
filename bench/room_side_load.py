"""Work that runs beside ``room_bench.py``'s round trips, so the server's event loop meets its heavy moments:

- **scoring**: 19x19 games between two more bots, played quickly with random legal moves, then two passes
  (the server proposes dead stones off its event loop) and both players accepting the score (the result is
  counted and the game ends), one game after another;
- **logins**: one account logging in again and again (each a password check, off the event loop).

``SideLoad.start()`` begins both; ``stop()`` ends them and returns what was done. The bench reads the
server's event-loop heartbeat (``tengen_event_loop_lag_seconds``) over the same time.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from ws_clients import Probe


class SideLoad:
    def __init__(
        self,
        base: str,
        rng: random.Random,
        new_bot: Callable[[], Awaitable[Any]],
        start_game: Callable[[Any, Any], Awaitable[str]],
        choose_move: Callable[[Any, random.Random], Any],
        new_board: Callable[[], Any],
        moves_per_game: int = 120,
        move_interval: float = 0.05,
        login_interval: float = 0.5,
    ) -> None:
        self.base = base
        self.rng = rng
        self.new_bot, self.start_game, self.choose_move, self.new_board = new_bot, start_game, choose_move, new_board
        self.moves_per_game = moves_per_game
        self.move_interval = move_interval
        self.login_interval = login_interval
        self.done = {"logins": 0, "logins_refused": 0, "scored_games": 0, "scoring_failures": 0}
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._logins()), loop.create_task(self._scoring())]

    async def stop(self) -> dict[str, int]:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        return dict(self.done)

    async def _logins(self) -> None:
        bot = await self.new_bot()
        name, password = f"bench{uuid.uuid4().hex[:10]}", uuid.uuid4().hex
        try:
            (await bot.http.post("/api/auth/register", json={"username": name, "password": password})).raise_for_status()
            while True:
                await asyncio.sleep(self.login_interval)
                answer = await bot.http.post("/api/auth/login", json={"username": name, "password": password})
                self.done["logins" if answer.status_code == 200 else "logins_refused"] += 1
        finally:
            await bot.http.aclose()

    async def _scoring(self) -> None:
        black, white = await self.new_bot(), await self.new_bot()
        try:
            while True:
                try:
                    await self._one_game(black, white)
                    self.done["scored_games"] += 1
                except (RuntimeError, ConnectionError, TimeoutError):
                    self.done["scoring_failures"] += 1
        finally:
            await black.http.aclose()
            await white.http.aclose()

    async def _one_game(self, black: Any, white: Any) -> None:
        game_id = await self.start_game(black, white)
        ws = self.base.replace("http://", "ws://") + f"/ws/games/{game_id}"
        sockets = {"B": await Probe.open(ws, black.cookie), "W": await Probe.open(ws, white.cookie)}
        board = self.new_board()
        try:
            for _ in range(self.moves_per_game):
                point = self.choose_move(board, self.rng)
                if point is None:
                    break
                colour = board.to_move
                answer, _, _ = await sockets[colour].request({"t": "play", "p": list(point)})
                if answer.get("t") != "ack":
                    raise RuntimeError(f"move refused: {answer}")
                board.play(colour, point)
                await asyncio.sleep(self.move_interval)
            for _ in range(2):  # two passes in a row: the game enters scoring
                colour = board.to_move
                answer, _, _ = await sockets[colour].request({"t": "pass"})
                if answer.get("t") != "ack":
                    raise RuntimeError(f"pass refused: {answer}")
                board.pass_turn(colour)
            await asyncio.sleep(1.0)  # the dead-stone proposal arrives
            for colour in ("B", "W"):
                answer, _, _ = await sockets[colour].request({"t": "accept_score"})
                if answer.get("t") != "ack":
                    raise RuntimeError(f"accept_score refused: {answer}")
        finally:
            for probe in sockets.values():
                await probe.close()
