"""Real clients of a running server: HTTP sessions (each its own user) and game sockets."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import orjson
import websockets
from websockets.asyncio.client import ClientConnection

_ids = itertools.count(1)


class Player:
    """One browser's worth of identity: a cookie jar over HTTP, and game sockets carrying that cookie."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.http = httpx.AsyncClient(base_url=base_url)
        self.user: dict[str, Any] = {}

    async def visit(self) -> "Player":
        response = await self.http.post("/api/guest")
        response.raise_for_status()
        self.user = response.json().get("user", response.json())
        return self

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())

    def _cookie(self) -> dict[str, str]:
        return {"Cookie": self.cookie_header} if self.http.cookies else {}

    async def socket(self, game_id: str, v: int | None = None, base_url: str | None = None) -> "GameSocket":
        path = f"/ws/games/{game_id}" + (f"?v={v}" if v is not None else "")
        return await open_socket(base_url or self.base_url, path, self._cookie())

    async def review(self, review_id: str, v: int | None = None, base_url: str | None = None) -> "GameSocket":
        """A ``/ws/reviews/{id}`` socket carrying this player's cookie (the same reader as a game socket)."""
        path = f"/ws/reviews/{review_id}" + (f"?v={v}" if v is not None else "")
        return await open_socket(base_url or self.base_url, path, self._cookie())

    async def lobby(self, base_url: str | None = None) -> "GameSocket":
        """A ``/ws/lobby`` socket carrying this player's cookie (the same reader as a game socket)."""
        return await open_socket(base_url or self.base_url, "/ws/lobby", self._cookie())

    async def close(self) -> None:
        await self.http.aclose()


async def open_socket(base_url: str, path: str, headers: dict[str, str] | None = None) -> "GameSocket":
    """The socket at ``path`` (``/ws/lobby``, ``/ws/games/{id}``, ``/ws/reviews/{id}``) of the server at
    ``base_url``, its handshake carrying ``headers`` (a cookie, or an API token's ``Authorization``)."""
    url = base_url.replace("http://", "ws://") + path
    connection = await websockets.connect(url, additional_headers=headers or {}, max_size=2**22)
    return GameSocket(connection)


@asynccontextmanager
async def guests(base_url: str, count: int) -> AsyncIterator[list[Player]]:
    """``count`` new guests of the server at ``base_url``; their HTTP clients are closed afterwards."""
    people = [await Player(base_url).visit() for _ in range(count)]
    try:
        yield people
    finally:
        for person in people:
            await person.close()


class GameSocket:
    """A game socket that keeps every message, and waits for the ones a test expects."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.received: list[dict[str, Any]] = []
        self._cursor = 0

    async def send(self, message: dict[str, Any]) -> str:
        message = dict(message)
        message.setdefault("id", f"m{next(_ids)}")
        await self.connection.send(orjson.dumps(message).decode())
        return message["id"]

    async def send_raw(self, raw: str | bytes) -> None:
        await self.connection.send(raw)

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message not yet consumed (skipping clock ticks and server pings)."""
        while True:
            if self._cursor < len(self.received):
                message = self.received[self._cursor]
                self._cursor += 1
                if message.get("t") in ("clock", "ping"):
                    continue
                return message
            raw = await asyncio.wait_for(self.connection.recv(), timeout)
            self.received.append(orjson.loads(raw))

    async def until(self, predicate: Callable[[dict[str, Any]], object], timeout: float = 10.0) -> dict[str, Any]:
        """Consume messages until one satisfies ``predicate``; return it."""

        async def scan() -> dict[str, Any]:
            while True:
                message = await self.next(timeout)
                if predicate(message):
                    return message

        return await asyncio.wait_for(scan(), timeout)

    async def next_event(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next versioned event (skipping presence, acks and other unversioned messages)."""
        return await self.until(lambda m: "v" in m and m.get("t") not in ("ack", "snapshot"), timeout)

    async def event(self, v: int, timeout: float = 10.0) -> dict[str, Any]:
        """Wait for the versioned event numbered ``v``."""
        return await self.until(lambda m: m.get("v") == v and m.get("t") not in ("ack", "snapshot"), timeout)

    async def caught_up(self, v: int, timeout: float = 10.0) -> dict[str, Any]:
        """Wait until this socket holds version ``v``: its event, or a resync snapshot at ``v`` or later (the
        answer to a reconnect the recent-event log cannot cover, docs/protocol.md section 2)."""
        return await self.until(
            lambda m: (
                (m.get("t") == "snapshot" and m.get("resync") is True and m["v"] >= v)
                or (m.get("v") == v and m.get("t") not in ("ack", "snapshot"))
            ),
            timeout,
        )

    def resyncs(self) -> list[dict[str, Any]]:
        """The resync snapshots received so far."""
        return [m for m in self.received if m.get("t") == "snapshot" and m.get("resync") is True]

    async def of_type(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        return await self.until(lambda m: m.get("t") == kind, timeout)

    async def act(self, message: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send an action and return its ack or error, leaving other messages unconsumed."""
        client_id = await self.send(message)
        cursor = self._cursor
        try:
            return await self.until(lambda m: m.get("t") in ("ack", "error") and m.get("id") == client_id, timeout)
        finally:
            self._cursor = cursor

    async def ok(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send an action that must be accepted; its ack."""
        ack = await self.act(message)
        assert ack["t"] == "ack", ack
        return ack

    async def refused(self, message: dict[str, Any], code: str) -> dict[str, Any]:
        """Send an action that must be refused with ``code``; the error (it names the action and says why)."""
        reply = await self.act(message)
        assert reply["t"] == "error" and reply["code"] == code, reply
        assert reply["id"] and reply["message"]
        return reply

    def versioned(self) -> list[dict[str, Any]]:
        """Every versioned event received so far, in order."""
        return [m for m in self.received if "v" in m and m.get("t") not in ("snapshot", "ack")]

    async def drain(self, quiet: float = 0.3) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        try:
            while True:
                raw = await asyncio.wait_for(self.connection.recv(), quiet)
                self.received.append(orjson.loads(raw))
        except (asyncio.TimeoutError, websockets.ConnectionClosed):
            return

    async def close_code(self, timeout: float = 10.0) -> int | None:
        """Read (keeping what arrives) until the server closes the socket, within ``timeout`` seconds in all
        (a game socket's clock ticks keep coming while it stays open); its close code (None: it sent none)."""

        async def read() -> int | None:
            try:
                while True:
                    self.received.append(orjson.loads(await self.connection.recv()))
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None

        return await asyncio.wait_for(read(), timeout)

    async def close(self) -> None:
        await self.connection.close()


async def start_game(black: Player, white: Player, **settings: Any) -> str:
    """``black`` offers a challenge (playing black), ``white`` accepts it; returns the game id."""
    body = {"board_size": 9, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}
    body.update(settings)
    response = await black.http.post("/api/challenges", json=body)
    assert response.status_code == 201, response.text
    challenge = response.json()
    challenge_id = challenge.get("id") or challenge["challenge"]["id"]
    accepted = await white.http.post(f"/api/challenges/{challenge_id}/accept")
    assert accepted.status_code == 201, accepted.text
    data = accepted.json()
    return data.get("game_id") or data["game"]["id"]
