"""``tengen bot``: connects a GTP engine to a Tengen server as a bot account, through the public API only.

It reads the bot's declaration from ``GET /api/me``, listens on ``/ws/lobby`` for challenges addressed to it,
accepts those that fit (and declines the others with the reason), and plays each game with a ``GamePlayer``
of its own (one engine process per game, at most ``max_games`` at once). On start, and after every
reconnect, it picks up the games it is already in (``GET /api/me/games/active``) and the challenges waiting
for it (the lobby snapshot's ``incoming``): a bridge that was killed, or a server that restarted, loses no
game. SIGTERM or SIGINT stops it cleanly: engines are told to quit and sockets are closed; its games go on
on the server and the next start resumes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import signal
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.bots.declaration import BotAccepts, refusal
from app.bots.backoff import Backoff
from app.bots.kata_engine import KataEngine
from app.bots.player import GamePlayer, PlayerOptions
from app.bots.position import Position
from app.bots.rank_pick import step_named

log = logging.getLogger("tengen.bot")

PARENT_PID_VARIABLE = "TENGEN_BOT_PARENT_PID"  # set by `tengen serve` for its house bots


REFUSED = 2  # the exit code when the server refuses the token (a house bot's is replaced at each server start)


class BridgeError(Exception):
    pass


def stop_on_signals(stop: Callable[[], None]) -> asyncio.Task[None] | None:
    """Call ``stop`` on SIGTERM or SIGINT, and when the server that started this process (a house bot's, named
    by ``PARENT_PID_VARIABLE``) is gone, however it went; the watcher's task, to cancel at the end."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop)
    parent = os.environ.get(PARENT_PID_VARIABLE)
    return asyncio.create_task(_watch_parent(int(parent), stop)) if parent else None


async def _watch_parent(pid: int, stop: Callable[[], None]) -> None:
    while os.getppid() == pid:
        await asyncio.sleep(1.0)
    log.info("the server that started this process is gone")
    stop()


class Bridge:
    def __init__(
        self,
        server: str,
        token: str,
        engine: str,
        *,
        max_games: int | None = None,
        margin: float = 1.0,
        random_share: float = 0.0,
        scoring: str = "engine",
        untimed_limit: float = 30.0,
        max_think: float | None = None,
        fallback: str | None = None,
        katago_step: str | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.ws_url = "ws" + self.server[4:] if self.server.startswith("http") else self.server
        self.token = token
        self.engine = engine
        self.max_games_option = max_games
        self.margin = margin
        self.random_share = random_share
        # A KataGo step has no final_status_list: it accepts the server's proposal (KataGo's own where it runs).
        self.scoring = "accept" if katago_step is not None else scoring
        self.untimed_limit = untimed_limit
        self.max_think = max_think
        self.fallback = fallback
        self.step = None if katago_step is None else step_named(katago_step)
        self.http = httpx.AsyncClient(base_url=self.server, headers={"Authorization": f"Bearer {token}"}, timeout=15)
        self.me: dict[str, Any] = {}
        self.accepts = BotAccepts()
        self.games: dict[str, asyncio.Task[None]] = {}
        self.players: dict[str, GamePlayer] = {}
        self.stopping = asyncio.Event()
        self._options: PlayerOptions | None = None

    # ------------------------------------------------------------------ running

    async def run(self) -> int:
        """The bridge as a process of its own (``tengen bot``): stopped by SIGTERM, SIGINT or its parent's end."""
        watcher = stop_on_signals(self.stop)
        try:
            return await self.serve()
        finally:
            if watcher is not None:
                watcher.cancel()

    async def serve(self) -> int:
        """Play until stopped: 0, or 2 when the server refuses the token (``tengen house-bots`` runs several
        bridges this way in one process)."""
        try:
            await self._connect_loop()
        except BridgeError as exc:
            log.error("%s", exc)
            return REFUSED
        finally:
            await self._shutdown()
        return 0

    def stop(self) -> None:
        self.stopping.set()

    @property
    def max_games(self) -> int:
        limit = self.accepts.max_games
        return min(limit, self.max_games_option) if self.max_games_option else limit

    @property
    def active(self) -> int:
        """Games being played (a finished game waiting a moment for a rematch offer does not count)."""
        return sum(1 for player in self.players.values() if player.position.phase != "finished")

    async def _load_me(self) -> None:
        response = await self.http.get("/api/me")
        if response.status_code in (401, 403):
            raise BridgeError(f"the server refused the token: {response.text}")
        response.raise_for_status()
        self.me = response.json()
        if not self.me.get("bot"):
            raise BridgeError(f"{self.me.get('name')} is not a bot account: register one with POST /api/bots")
        self.accepts = BotAccepts.model_validate(self.me.get("accepts") or {})
        self._options = PlayerOptions(
            engine=self.engine,
            ws_url=self.ws_url,
            token=self.token,
            user_id=int(self.me["id"]),
            margin=self.margin,
            untimed_limit=self.untimed_limit,
            max_think=self.max_think,
            fallback=self.fallback,
            random_share=self.random_share,
            scoring=self.scoring,
            rematch=self._may_rematch,
            engine_factory=None if self.step is None else self._kata_engine,
        )

    async def _connect_loop(self) -> None:
        backoff = Backoff()
        while not self.stopping.is_set():
            try:
                await self._load_me()
                log.info("connected to %s as %s (up to %d games)", self.server, self.me["name"], self.max_games)
                await self._resume_games()
                backoff.reset()
                await self._lobby()
            except (httpx.HTTPError, OSError, ConnectionClosed, InvalidStatus, TimeoutError) as exc:
                delay = backoff.next()
                log.info("server unreachable (%s); retrying in %.1f s", type(exc).__name__, delay)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), delay)

    async def _lobby(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        async with connect(self.ws_url + "/ws/lobby", additional_headers=headers, open_timeout=10) as ws:
            stop = asyncio.create_task(self.stopping.wait())
            try:
                while not self.stopping.is_set():
                    recv = asyncio.create_task(ws.recv())
                    done, _ = await asyncio.wait({recv, stop}, return_when=asyncio.FIRST_COMPLETED)
                    if recv not in done:
                        recv.cancel()
                        return
                    message = json.loads(recv.result())
                    kind = message.get("t")
                    if kind == "snapshot":
                        for challenge in message.get("incoming") or []:
                            await self._consider(challenge)
                    elif kind == "challenge_created":
                        await self._consider(message["challenge"])
                    elif kind == "resync":
                        return  # reconnect: the snapshot lists what is waiting
                    elif kind == "error" and message.get("code") == "invalid_token":
                        raise BridgeError("the server refused the token")
            finally:
                stop.cancel()

    # ------------------------------------------------------------------ challenges and games

    async def _consider(self, challenge: dict[str, Any]) -> None:
        if (challenge.get("opponent") or {}).get("id") != self.me.get("id") or challenge.get("status") != "open":
            return
        reason = refusal(
            self.accepts,
            board_size=challenge["board_size"],
            time_control=challenge["time_control"],
            rules=challenge["rules"],
            rated=challenge["rated"],
            handicap=challenge["handicap"],
            active_games=self.active,
        )
        if reason is None and self.active >= self.max_games:
            reason = f"is already playing {self.active} games, its limit"
        if reason is not None:
            log.info("declining challenge %s: %s", challenge["id"], reason)
            await self.http.post(f"/api/challenges/{challenge['id']}/decline", json={"reason": reason})
            return
        response = await self.http.post(f"/api/challenges/{challenge['id']}/accept")
        if response.status_code != 201:
            log.info("could not accept challenge %s: %s", challenge["id"], response.text)
            return
        game_id = response.json()["game_id"]
        log.info("accepted challenge %s from %s: game %s", challenge["id"], challenge["creator"]["name"], game_id)
        self._start(game_id)

    async def _resume_games(self) -> None:
        response = await self.http.get("/api/me/games/active", params={})
        response.raise_for_status()
        for game in response.json()["games"]:
            if game["id"] not in self.games:
                log.info("resuming game %s", game["id"])
                self._start(game["id"])

    def _start(self, game_id: str) -> None:
        if game_id in self.games or self.stopping.is_set():
            return
        assert self._options is not None
        player = GamePlayer(game_id, replace(self._options), self._new_game)
        task = asyncio.create_task(player.run(), name=f"game-{game_id}")
        self.games[game_id] = task
        self.players[game_id] = player
        task.add_done_callback(functools.partial(self._ended, game_id))

    def _ended(self, game_id: str, _task: object = None) -> None:
        self.games.pop(game_id, None)
        self.players.pop(game_id, None)

    async def _new_game(self, game_id: str) -> None:
        log.info("rematch: game %s", game_id)
        self._start(game_id)

    def _kata_engine(self, game: Position) -> KataEngine:
        assert self.step is not None
        return KataEngine(self.http, self.step, game)

    def _may_rematch(self, _game_id: str) -> bool:
        return not self.stopping.is_set() and self.active < self.max_games

    async def _shutdown(self) -> None:
        # Said here, in the bridge's own task (whose log is the bot's own in `tengen house-bots`), not in stop().
        if self.stopping.is_set():
            log.info("stopping: closing engines and sockets (games go on on the server)")
        await asyncio.gather(*(player.stop() for player in list(self.players.values())), return_exceptions=True)
        tasks = list(self.games.values())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 5.0)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.http.aclose()


def run_bridge(server: str, token: str, engine: str, **options: Any) -> int:
    return asyncio.run(Bridge(server, token, engine, **options).run())
