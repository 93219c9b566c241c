"""Sockets under attack, through a real uvicorn: caps per user and per address, the lobby's rate, chat limited
per user whatever the socket, and snapshots that carry a bounded amount of chat."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from tests.conftest import LiveServer, MakeLiveServer
from tests.support.players import GameSocket, Player, start_game
from tests.support.reviews import finished_game, make_review


async def _closed_code(ws: ClientConnection) -> int:
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


class Closing(Player):
    """A player whose sockets are closed with it."""

    def __init__(self, base_url: str) -> None:
        super().__init__(base_url)
        self.sockets: list[GameSocket] = []

    async def socket(self, game_id: str, v: int | None = None, base_url: str | None = None) -> GameSocket:
        sock = await super().socket(game_id, v, base_url)
        self.sockets.append(sock)
        return sock

    async def close(self) -> None:
        for sock in self.sockets:
            await sock.close()
        await super().close()


async def _game(url: str) -> tuple[Player, Player, str]:
    black, white = await Closing(url).visit(), await Closing(url).visit()
    return black, white, await start_game(black, white)


async def test_sockets_are_capped_per_user(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(sockets_per_user=3)
    black, white, game_id = await _game(server.url)
    held = [await black.socket(game_id) for _ in range(3)]
    for sock in held:
        await sock.of_type("snapshot")
    refused = await black.socket(game_id)
    assert (await refused.next())["code"] == "too_many_sockets"
    assert await _closed_code(refused.connection) == 4429
    assert (await (await white.socket(game_id)).of_type("snapshot"))["v"] == 0  # others are not affected
    await held[0].close()
    await asyncio.sleep(0.2)
    assert (await (await black.socket(game_id)).of_type("snapshot"))["v"] == 0  # a freed place is usable again
    for player in (black, white):
        await player.close()


async def test_sockets_are_capped_per_address(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(sockets_per_address=5)
    lobby = server.ws_url + "/ws/lobby"
    held = [await websockets.connect(lobby) for _ in range(5)]
    for ws in held:
        await ws.recv()
    async with websockets.connect(lobby) as refused:
        assert json.loads(await refused.recv())["code"] == "too_many_sockets"
        assert await _closed_code(refused) == 4429
    for ws in held:
        await ws.close()


async def test_the_lobby_socket_answers_pings_at_a_limited_rate(live_server: str) -> None:
    async with websockets.connect(live_server.replace("http://", "ws://") + "/ws/lobby") as ws:
        await ws.recv()
        for i in range(60):
            await ws.send(json.dumps({"t": "ping", "id": f"p{i}"}))
        answers = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    pongs = [m for m in answers if m["t"] == "pong"]
    assert 10 <= len(pongs) < 15  # the burst, and what the rate refilled meanwhile
    assert any(m.get("code") == "rate_limited" for m in answers)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4029  # it kept flooding


async def test_chat_is_limited_per_user_across_sockets(live_server: str) -> None:
    black, white, game_id = await _game(live_server)
    watcher = await Closing(live_server).visit()
    sockets = [await watcher.socket(game_id) for _ in range(4)]
    answers = []
    for i in range(8):
        answers.append(await sockets[i % 4].act({"t": "chat", "channel": "spectators", "text": f"line {i}"}))
    # A guest chats as a new account does: TENGEN_NEW_ACCOUNT_CHAT_LINES (2) per window, not 4.
    assert [a["t"] for a in answers] == ["ack"] * 2 + ["error"] * 6
    assert {a["code"] for a in answers[2:]} == {"chat_rate_limited"}
    other = await (await black.socket(game_id)).act({"t": "chat", "channel": "players", "text": "hello"})
    assert other["t"] == "ack"  # another user's limit is their own
    for player in (black, white, watcher):
        await player.close()


async def test_a_repeated_chat_line_is_dropped(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(new_account_chat_lines=4)  # these guests chat as established accounts do
    black, white, game_id = await _game(server.url)
    sock = await black.socket(game_id)
    assert (await sock.act({"t": "chat", "channel": "players", "text": "gl hf"}))["t"] == "ack"
    again = await sock.act({"t": "chat", "channel": "players", "text": "GL  hf"})
    assert again["t"] == "error" and again["code"] == "chat_repeated"
    assert (await sock.act({"t": "chat", "channel": "players", "text": "have fun"}))["t"] == "ack"
    for player in (black, white):
        await player.close()


async def test_snapshots_carry_the_newest_chat_and_older_lines_are_paged(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(chat_lines=1000, new_account_chat_lines=1000)
    black, white, game_id = await _game(server.url)
    sock = await black.socket(game_id)
    for i in range(70):
        assert (await sock.act({"t": "chat", "channel": "players", "text": f"line {i}"}))["t"] == "ack"
        await asyncio.sleep(0.1)  # within the socket's message rate
    snapshot = await (await white.socket(game_id)).of_type("snapshot")
    chat = snapshot["game"]["chat"]
    assert [line["text"] for line in chat] == [f"line {i}" for i in range(20, 70)]
    assert snapshot["game"]["chat_more"] is True
    async with httpx.AsyncClient(base_url=server.url) as anyone:
        page = (await anyone.get(f"/api/games/{game_id}/chat", params={"before": chat[0]["v"], "limit": 15})).json()
        assert [line["text"] for line in page["chat"]] == [f"line {i}" for i in range(5, 20)]
        assert page["more"] is True
        rest = (await anyone.get(f"/api/games/{game_id}/chat", params={"before": page["next_before"]})).json()
        assert [line["text"] for line in rest["chat"]] == [f"line {i}" for i in range(5)] and rest["more"] is False
    for player in (black, white):
        await player.close()


async def test_paged_chat_hides_the_spectators_lines_from_the_players(live_server: str) -> None:
    black, white, game_id = await _game(live_server)
    watcher = await Closing(live_server).visit()
    assert (await (await watcher.socket(game_id)).act({"t": "chat", "channel": "spectators", "text": "b is lost"}))["t"] == "ack"
    assert (await (await black.socket(game_id)).act({"t": "chat", "channel": "players", "text": "hi"}))["t"] == "ack"
    seen_by_black = (await black.http.get(f"/api/games/{game_id}/chat")).json()["chat"]
    seen_by_watcher = (await watcher.http.get(f"/api/games/{game_id}/chat")).json()["chat"]
    assert [line["text"] for line in seen_by_black] == ["hi"]
    assert [line["text"] for line in seen_by_watcher] == ["b is lost", "hi"]
    for player in (black, white, watcher):
        await player.close()


async def _slowed_reads(url: str) -> float:
    async with httpx.AsyncClient(base_url=url) as client:
        text = (await client.get("/metrics")).text
    found = re.search(r"^tengen_socket_reads_slowed_total ([0-9.e+]+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


async def test_a_socket_whose_messages_keep_being_refused_is_read_slowly(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator's moves are refused before they are parsed (a malformed one too), and past ``SLOW_AFTER`` such
    refusals its socket is read once every ``SLOW_INTERVAL`` (shortened here): every message is still answered,
    and the game still reaches it. A player's own refusals (the game's races: ``not_your_turn``) never slow it."""
    from app.transport import connection

    monkeypatch.setattr(connection, "SLOW_INTERVAL", 0.05)
    black, white, game_id = await _game(live_server)
    watcher = await Closing(live_server).visit()
    bs, ws, spectator = await black.socket(game_id), await white.socket(game_id), await watcher.socket(game_id)
    assert (await bs.act({"t": "play", "p": [2, 2]}))["v"] == 1
    for _ in range(connection.SLOW_AFTER + 2):
        assert (await bs.act({"t": "play", "p": [5, 5]}))["code"] == "not_your_turn"
    assert await _slowed_reads(live_server) == 0
    answers = [await spectator.act({"t": "play", "p": [4, i]}) for i in range(connection.SLOW_AFTER + 5)]
    answers.append(await spectator.act({"t": "play", "p": "not a point"}))  # refused before it is validated
    assert [a.get("code") for a in answers] == ["not_a_player"] * (connection.SLOW_AFTER + 6)
    assert await _slowed_reads(live_server) >= 6
    assert (await ws.act({"t": "play", "p": [6, 6]}))["v"] == 2
    assert (await spectator.event(2))["t"] == "move"
    for player in (black, white, watcher):
        await player.close()


async def test_chat_refused_over_the_limit_holds_the_sockets_chat_without_asking_the_limit_again(
    live_server_handle: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a line refused over the chat limit, that socket's next lines within ``CHAT_HOLD_SECONDS`` (here
    lengthened) are refused without counting: they are refused though the limit's window has turned meanwhile,
    while the same user's other socket, which asks the limit, may chat again."""
    from app.api.routers import game_ws
    from app.limits.counters import MemoryCounters

    monkeypatch.setattr(game_ws, "CHAT_HOLD_SECONDS", 3600.0)
    counters = live_server_handle.app.state.limiter.counters
    assert isinstance(counters, MemoryCounters)
    now = [1000.0]
    monkeypatch.setattr(counters, "clock", lambda: now[0])
    url = live_server_handle.url
    black, white, game_id = await _game(url)
    watcher = await Closing(url).visit()
    held, other = await watcher.socket(game_id), await watcher.socket(game_id)
    said = [await held.act({"t": "chat", "channel": "spectators", "text": f"line {i}"}) for i in range(3)]
    assert [a["t"] for a in said] == ["ack", "ack", "error"] and said[2]["code"] == "chat_rate_limited"
    now[0] += 60  # the limit's window has turned
    again = await held.act({"t": "chat", "channel": "spectators", "text": "held"})
    assert again["code"] == "chat_rate_limited"
    assert (await other.act({"t": "chat", "channel": "spectators", "text": "not held"}))["t"] == "ack"
    for player in (black, white, watcher):
        await player.close()


async def test_a_review_socket_whose_messages_keep_being_refused_is_read_slowly(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a game socket: malformed frames past ``SLOW_AFTER`` slow the review socket's reads, each still answered."""
    from app.transport import connection

    monkeypatch.setattr(connection, "SLOW_INTERVAL", 0.05)
    black, white = await Closing(live_server).visit(), await Closing(live_server).visit()
    review = await make_review(black, await finished_game(black, white))
    follow = await white.review(review["id"])
    await follow.of_type("snapshot")
    before = await _slowed_reads(live_server)
    for i in range(connection.SLOW_AFTER + 5):
        await follow.send({"t": "no_such_message", "id": f"u{i}"})
        assert (await follow.of_type("error"))["code"] == "unknown_type"
    assert await _slowed_reads(live_server) - before >= 5
    await follow.close()
    for player in (black, white):
        await player.close()
