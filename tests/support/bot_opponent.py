"""A person playing a bot through the public API: challenges it, waits for its acceptance, and plays.

The opponent keeps its own copy of the game with ``app.rules`` (from the snapshot and the events) to pick
legal moves: random ones for ``moves`` turns (avoiding its own eyes), then passes; in the scoring phase it
accepts. It answers pings, reconnects with ``?v=`` when its socket drops, and records every bot move's
response time (from the event that gave the bot the turn to the bot's move).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.rules import Game, rules_for


@dataclass
class Outcome:
    game_id: str = ""
    result: dict[str, Any] | None = None
    bot_color: str = ""
    bot_moves: int = 0
    response_times: list[float] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)


async def challenge_bot(http: httpx.AsyncClient, bot_name: str, *, timeout: float = 60.0, **settings: Any) -> str:
    """Challenge the bot and return the game id once it accepted."""
    response = await http.post("/api/challenges", json={"opponent": bot_name, **settings})
    assert response.status_code == 201, response.text
    challenge_id = response.json()["id"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = (await http.get(f"/api/challenges/{challenge_id}")).json()
        if seen["status"] == "accepted":
            return str(seen["game_id"])
        assert seen["status"] == "open", seen
        await asyncio.sleep(0.1)
    raise AssertionError(f"the bot did not accept challenge {challenge_id} within {timeout} s")


class Opponent:
    def __init__(
        self, ws_url: str, cookie: str, game_id: str, *, moves: int = 20, think: float = 0.0, seed: int | None = None
    ) -> None:
        self.url = f"{ws_url}/ws/games/{game_id}"
        self.headers = {"Cookie": cookie}
        self.outcome = Outcome(game_id=game_id)
        self.moves_left = moves
        self.think = think
        self.random = random.Random(seed)
        self.game: Game | None = None
        self.me = ""
        self.v = 0
        self.phase = "playing"
        self.to_move = "B"
        self.turn_started = 0.0
        self.accepted = False
        self._ids = 0

    async def play(self, timeout: float = 600.0) -> Outcome:
        await asyncio.wait_for(self._play(), timeout)
        return self.outcome

    async def _play(self) -> None:
        while self.outcome.result is None:
            url = self.url if self.game is None else f"{self.url}?v={self.v}"
            try:
                async with connect(url, additional_headers=self.headers, max_size=2**22) as ws:
                    await self._session(ws)
            except (ConnectionClosed, OSError):
                await asyncio.sleep(0.3)

    async def _session(self, ws: Any) -> None:
        if self.game is not None:
            # Back after a drop: a move sent just before it may have been lost with the server, so the turn is
            # what the game held so far says, and the opponent moves at once if it is its own.
            self.to_move = self.game.to_move
            await self._act(ws)
        while self.outcome.result is None:
            message = json.loads(await ws.recv())
            kind = message.get("t")
            if kind == "ping":
                await ws.send(json.dumps({"t": "pong", "id": message["id"]}))
                continue
            if kind in ("ack", "error"):
                continue
            if kind == "snapshot":
                self._load(message)
            elif "v" in message:
                if message["v"] <= self.v:
                    continue
                if message["v"] != self.v + 1:
                    return  # a gap: reconnect with ?v=
                self.v = message["v"]
                self.outcome.events.append(message)
                self._apply(message)
            else:
                continue
            await self._act(ws)

    def _load(self, message: dict[str, Any]) -> None:
        game = message["game"]
        self.v = message["v"]
        self.me = "B" if message["you"]["role"] == "black" else "W"
        self.outcome.bot_color = "W" if self.me == "B" else "B"
        rules = rules_for(str((game.get("rules") or {}).get("name", "chinese")))
        self.game = Game(game["size"], rules, handicap_points=[tuple(p) for p in game.get("handicap_points") or []] or None)
        for move in game["moves"]:
            if move["p"] is None:
                self.game.pass_turn(move["color"])
            else:
                self.game.play(move["color"], tuple(move["p"]))
        self.phase = game["phase"]
        self.to_move = game["to_move"]
        self.outcome.result = game.get("result")
        self.turn_started = time.monotonic()
        self.accepted = bool((game.get("scoring") or {}).get("accepted", {}).get(self.me))

    def _apply(self, event: dict[str, Any]) -> None:
        assert self.game is not None
        kind = event["t"]
        if kind in ("move", "pass"):
            if event["color"] != self.me:
                self.outcome.bot_moves += 1
                self.outcome.response_times.append(time.monotonic() - self.turn_started)
            if kind == "move":
                self.game.play(event["color"], tuple(event["p"]))
            else:
                self.game.pass_turn(event["color"])
            self.to_move = event["to_move"]
            self.turn_started = time.monotonic()
        elif kind == "phase":
            self.phase = event["phase"]
            self.accepted = False
            if event.get("to_move"):
                self.to_move = event["to_move"]
        elif kind == "dead_stones":
            self.accepted = False
        elif kind == "game_over":
            self.outcome.result = event["result"]

    async def _act(self, ws: Any) -> None:
        if self.outcome.result is not None:
            return
        self._ids += 1
        action_id = f"o{self._ids}"
        if self.phase == "scoring" and not self.accepted:
            self.accepted = True
            await ws.send(json.dumps({"t": "accept_score", "id": action_id}))
        elif self.phase == "playing" and self.to_move == self.me:
            if self.think:
                await asyncio.sleep(self.think)
            point = self._pick() if self.moves_left > 0 else None
            self.moves_left -= 1
            if point is None:
                await ws.send(json.dumps({"t": "pass", "id": action_id}))
            else:
                await ws.send(json.dumps({"t": "play", "id": action_id, "p": list(point)}))
            self.to_move = ""  # until the server's event says whose turn it is

    def _pick(self) -> tuple[int, int] | None:
        assert self.game is not None
        size = self.game.size
        options = []
        for point in self.game.legal_points():
            x, y = point
            around = [
                (x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= x + dx < size and 0 <= y + dy < size
            ]
            if around and all(self.game.stone_at(n) == self.me for n in around):
                continue
            options.append(point)
        return self.random.choice(options) if options else None
