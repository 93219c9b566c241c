"""The players of ``scale_bench.py``: client processes, each playing its share of the games over WebSockets.

Every game has two players, each on a WebSocket, alternating precomputed moves on a 19x19 board; each player
moves once the opponent's move has reached its own socket, and waits for the acknowledgement (a new game
starts when one fills up), so one move per game is in flight. Each socket stays just under the server's rate
limit (10 messages a second); ``paced`` counts the sends that waited for it. With ``placement="game"`` both
players of game ``i`` use ``urls[i % len(urls)]`` (one instance per game, as a proxy hashing the game id
does); with ``"spread"`` black uses ``urls[i]`` and white the next one, so every event crosses the hub.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from multiprocessing.queues import Queue

import httpx
import orjson
import websockets
from websockets.asyncio.client import ClientConnection

import proc_cpu

SIZE = 19
BLACK_POINTS = [[x, y] for y in range(0, 9) for x in range(SIZE)]
WHITE_POINTS = [[x, y] for y in range(10, SIZE) for x in range(SIZE)]
MOVES_PER_GAME = 2 * min(len(BLACK_POINTS), len(WHITE_POINTS))


# The server refuses more than 10 messages a second per socket (burst 30): each seat stays just under it, so
# that a refusal never breaks a game's alternation. ``paced`` counts the sends that had to wait for it.
SEND_INTERVAL = 1 / 9.5
ACK_TIMEOUT = 30.0
# Setting up many games at once (users, challenges, handshakes) on a busy machine: generous, never the limit.
SETUP_TIMEOUT = 120.0


class Seat:
    """A lean game socket: a reader task drains every message, resolves the awaited acks and notes the newest
    event version the socket has received (a player moves once the opponent's move has reached its screen)."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.next_send = 0.0
        self.paced = 0
        self.waiting: dict[str, asyncio.Future] = {}
        self.ids = itertools.count()
        self.snapshot = asyncio.get_running_loop().create_future()
        self.seen_v = 0
        self.seen = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def sees(self, v: int) -> bool:
        """Wait until this socket has received event ``v``; False if it never comes (the socket closed)."""
        while self.seen_v < v:
            if self.reader.done():
                return False
            self.seen.clear()
            try:
                await asyncio.wait_for(self.seen.wait(), ACK_TIMEOUT)
            except asyncio.TimeoutError:
                return False
        return True

    async def _read(self) -> None:
        try:
            async for raw in self.connection:
                message = orjson.loads(raw)
                kind = message.get("t")
                if kind == "snapshot" and not self.snapshot.done():
                    self.snapshot.set_result(message)
                    self.seen_v = message.get("v", 0)
                elif kind not in ("ack", "error") and isinstance(message.get("v"), int):
                    self.seen_v = max(self.seen_v, message["v"])
                    self.seen.set()
                elif kind == "error" and message.get("id") is None:
                    # Refused before parsing (the per-socket rate limit: 10 messages/s): fail what waits.
                    for future in self.waiting.values():
                        if not future.done():
                            future.set_result(message)
                    self.waiting.clear()
                elif kind in ("ack", "error"):
                    answered = self.waiting.pop(message.get("id"), None)
                    if answered is not None and not answered.done():
                        answered.set_result(message)
        except websockets.ConnectionClosed:
            pass

    async def act(self, message: dict) -> dict:
        client_id = f"b{next(self.ids)}"
        wait = self.next_send - time.monotonic()
        if wait > 0:
            self.paced += 1
            await asyncio.sleep(wait)
        self.next_send = time.monotonic() + SEND_INTERVAL
        future = asyncio.get_running_loop().create_future()
        self.waiting[client_id] = future
        await self.connection.send(orjson.dumps({**message, "id": client_id}).decode())
        try:
            return await asyncio.wait_for(future, ACK_TIMEOUT)
        except asyncio.TimeoutError:
            self.waiting.pop(client_id, None)
            return {"t": "timeout"}

    async def close(self) -> None:
        await self.connection.close()
        self.reader.cancel()


async def _user(url: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=url, timeout=SETUP_TIMEOUT)
    (await client.post("/api/guest")).raise_for_status()
    return client


async def _seat(client: httpx.AsyncClient, url: str, game_id: str) -> Seat:
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    ws_url = url.replace("http://", "ws://") + f"/ws/games/{game_id}"
    seat = Seat(
        await websockets.connect(ws_url, additional_headers={"Cookie": cookie}, max_size=2**22, open_timeout=SETUP_TIMEOUT)
    )
    await asyncio.wait_for(seat.snapshot, SETUP_TIMEOUT)
    return seat


async def run_clients(
    urls: list[str], games: list[int], placement: str, ready: Queue[float], go: Queue[tuple[float, float]]
) -> dict:
    """One client process: its share of the games.

    Every game is set up and has a first move acknowledged before anything is measured: this process then
    puts its setup time on ``ready`` and waits for the window (from, end) on ``go``, the same for all.
    """
    begun = time.time()
    window = {"from": float("inf"), "end": float("inf")}
    out: dict = {"rtts": [], "acked_at": [], "errors": 0, "timeouts": 0, "paced": 0, "cpu": 0.0, "codes": {}, "setup_s": 0.0}
    set_up = 0
    all_set_up = asyncio.Event()

    async def table(index: int) -> None:
        nonlocal set_up
        black_url = urls[index % len(urls)]
        white_url = urls[(index + 1) % len(urls)] if placement == "spread" else black_url
        black, white = await _user(black_url), await _user(white_url)
        first = True
        try:
            while time.time() < window["end"]:
                body = {"board_size": SIZE, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}
                offered = (await black.post("/api/challenges", json=body)).json()
                challenge_id = offered.get("id") or offered["challenge"]["id"]
                accepted = (await white.post(f"/api/challenges/{challenge_id}/accept")).json()
                game_id = accepted.get("game_id") or accepted["game"]["id"]
                seats = [await _seat(black, black_url, game_id), await _seat(white, white_url, game_id)]
                for move in range(1, MOVES_PER_GAME + 1):
                    if time.time() >= window["end"]:
                        break
                    points = BLACK_POINTS if move % 2 else WHITE_POINTS
                    seat = seats[(move + 1) % 2]
                    if not await seat.sees(move - 1):
                        out["timeouts"] += 1
                        break  # the opponent's move never reached this player: start another game
                    sent = time.time()
                    reply = await seat.act({"t": "play", "p": points[(move - 1) // 2]})
                    done = time.time()
                    if first:
                        first, set_up = False, set_up + 1
                        if set_up == len(games):
                            all_set_up.set()
                    if reply.get("t") == "timeout":
                        out["timeouts"] += 1
                        break  # this game's alternation is lost: start another
                    if reply.get("t") != "ack":
                        out["errors"] += 1
                        code = str(reply.get("code"))
                        out["codes"][code] = out["codes"].get(code, 0) + 1
                        break  # refused: this game's alternation is lost, start another
                    if sent >= window["from"] and done <= window["end"]:
                        out["rtts"].append(done - sent)
                        out["acked_at"].append(done)
                for seat in seats:
                    out["paced"] += seat.paced
                    await seat.close()
        finally:
            await black.aclose()
            await white.aclose()

    async def conductor() -> None:
        await all_set_up.wait()
        out["setup_s"] = time.time() - begun
        ready.put(out["setup_s"])
        window["from"], window["end"] = await asyncio.to_thread(go.get)
        out["cpu"] = await proc_cpu.own_cpu(window["from"], window["end"])

    await asyncio.gather(conductor(), *(table(i) for i in games))
    return out


def client_process(
    args: tuple[list[str], list[int], str], ready: Queue[float], go: Queue[tuple[float, float]], results: Queue[dict]
) -> None:
    results.put(asyncio.run(run_clients(*args, ready, go)))
