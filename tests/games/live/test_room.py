"""The live game room through its real interface: a uvicorn server, real WebSocket clients, a real store.

Every test runs on SQLite with the in-process hub and on PostgreSQL with Redis.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
import websockets
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.transport.room_deps import RoomDeps
from app.games.live.room import GameHooks, Room
from app.metrics import Metrics
from app.protocol import GAME_FRAME_BYTES
from app.transport.memory_hub import MemoryHub
from tests.support.room_fixtures import STACKS, MakePlayer, Servers, make_player, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, Player, start_game
from tests.support.room_seats import seats

pytestmark = STACKS


async def _seated(make_player: MakePlayer) -> tuple[Player, Player, str]:
    black, white = await make_player(), await make_player()
    game_id = await start_game(black, white)
    return black, white, game_id


async def _black_connected(make_player: MakePlayer) -> tuple[Player, Player, str, GameSocket]:
    """A new game with black connected and past the snapshot: (black, white, game id, black's socket)."""
    black, white, game_id = await _seated(make_player)
    b = await black.socket(game_id)
    await b.of_type("snapshot")
    return black, white, game_id, b


async def _watched(
    make_player: MakePlayer,
) -> tuple[tuple[Player, Player], str, tuple[GameSocket, GameSocket, GameSocket], list[dict[str, Any]]]:
    """A new game with black, white and a spectator connected: (players, game id, sockets, snapshots)."""
    black, white, game_id = await _seated(make_player)
    watcher = await make_player()
    sockets = (await black.socket(game_id), await white.socket(game_id), await watcher.socket(game_id))
    snapshots = [await sock.of_type("snapshot") for sock in sockets]
    return (black, white), game_id, sockets, snapshots


async def test_two_players_and_a_spectator_see_the_same_sequence(make_player: MakePlayer) -> None:
    _, game_id, (b, w, s), snapshots = await _watched(make_player)
    assert [snap["you"]["role"] for snap in snapshots] == ["black", "white", "spectator"]
    assert all(snap["v"] == 0 and snap["game"]["to_move"] == "B" for snap in snapshots)

    moves = [(b, [2, 2]), (w, [6, 6]), (b, [2, 6]), (w, [6, 2])]
    for sock, point in moves:
        ack = await sock.act({"t": "play", "p": point})
        assert ack["t"] == "ack", ack
    for sock in (b, w, s):
        await sock.until(lambda m: m.get("t") == "move" and m.get("v") == 4)
    sequences = [[(e["v"], e["t"], e.get("p")) for e in sock.versioned()] for sock in (b, w, s)]
    assert sequences[0] == sequences[1] == sequences[2]
    assert sequences[0] == [(1, "move", [2, 2]), (2, "move", [6, 6]), (3, "move", [2, 6]), (4, "move", [6, 2])]
    fresh = await (await make_player()).socket(game_id)
    snap = await fresh.of_type("snapshot")
    assert snap["v"] == 4
    assert snap["game"]["board"][2][2] == "X" and snap["game"]["board"][6][6] == "O"
    for sock in (b, w, s, fresh):
        await sock.close()


async def test_reconnect_with_v_receives_exactly_the_missed_events(make_player: MakePlayer) -> None:
    black, white, game_id = await _seated(make_player)
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    assert (await b.act({"t": "play", "p": [4, 4]}))["v"] == 1
    await w.of_type("snapshot")
    await w.event(1)
    await w.close()

    await b.act({"t": "chat", "channel": "players", "text": "are you there?"})
    assert (await b.act({"t": "undo_request"}))["t"] == "ack"
    w2 = await white.socket(game_id, v=1)
    missed = [await w2.next_event(), await w2.next_event()]
    assert [(m["v"], m["t"]) for m in missed] == [(2, "chat"), (3, "offer")]
    assert missed[0]["text"] == "are you there?"
    assert (await w2.act({"t": "undo_decline"}))["v"] == 4
    await w2.event(4)  # the ack may come before the event: wait for it, then for anything more
    await w2.drain()
    assert not any(m.get("t") == "snapshot" for m in w2.received)
    assert [m["v"] for m in w2.versioned()] == [2, 3, 4]
    await b.close()
    await w2.close()


async def test_reconnect_from_an_impossible_version_gets_a_resync_snapshot(make_player: MakePlayer) -> None:
    black, white, game_id, b = await _black_connected(make_player)
    await b.act({"t": "play", "p": [4, 4]})
    ahead = await white.socket(game_id, v=99)
    snap = await ahead.of_type("snapshot")
    assert snap["resync"] is True and snap["v"] == 1
    await b.close()
    await ahead.close()


async def test_a_resent_move_id_is_applied_once(make_player: MakePlayer) -> None:
    black, white, game_id, b = await _black_connected(make_player)
    first = await b.act({"t": "play", "p": [4, 4], "id": "move-1"})
    await b.close()
    b2 = await black.socket(game_id, v=0)
    again = await b2.act({"t": "play", "p": [4, 4], "id": "move-1"})
    assert first["t"] == again["t"] == "ack" and first["v"] == again["v"] == 1
    await b2.event(1)
    await b2.drain()
    assert [m["v"] for m in b2.versioned()] == [1]
    detail = (await black.http.get(f"/api/games/{game_id}")).json()
    assert len(detail.get("moves", [])) == 1
    await b2.close()


async def test_the_game_survives_a_server_restart(servers: Servers, make_player: MakePlayer) -> None:
    black, white, game_id = await _seated(make_player)
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    await w.of_type("snapshot")
    acked = []
    for sock, point in ((b, [2, 2]), (w, [6, 6]), (b, [4, 4])):
        acked.append((await sock.act({"t": "play", "p": point}))["v"])
    await b.close()
    await w.close()

    servers.stop_all()
    second = servers.start()
    b2 = await black.socket(game_id, base_url=second.url)
    snap = await b2.of_type("snapshot")
    assert acked == [1, 2, 3] and snap["v"] == 3
    assert [m["p"] for m in snap["game"]["moves"]] == [[2, 2], [6, 6], [4, 4]]
    w2 = await white.socket(game_id, base_url=second.url)
    await w2.of_type("snapshot")
    assert (await w2.act({"t": "play", "p": [5, 5]}))["v"] == 4
    await b2.until(lambda m: m.get("t") == "move" and m.get("v") == 4)
    await b2.close()
    await w2.close()


async def test_spectator_chat_never_reaches_a_player_during_play(make_player: MakePlayer) -> None:
    (black, _), game_id, (b, w, s), _ = await _watched(make_player)
    ack = await s.act({"t": "chat", "channel": "spectators", "text": "black should play tengen"})
    assert ack["t"] == "ack" and ack["v"] == 1
    await b.act({"t": "chat", "channel": "players", "text": "hello"})
    seen = await s.event(2)
    assert seen["text"] == "hello"
    for player in (b, w):
        await player.event(2)
        await player.drain()
        texts = [m.get("text") for m in player.received]
        assert "black should play tengen" not in texts
        assert {"t": "hidden", "v": 1} in player.received
    refused = await b.act({"t": "chat", "channel": "spectators", "text": "hi watchers"})
    assert refused["t"] == "error" and refused["code"] == "not_allowed"
    # After the game, the players may read the spectators' chat.
    await b.act({"t": "resign"})
    late = await black.socket(game_id)
    snap = await late.of_type("snapshot")
    assert "black should play tengen" in [c["text"] for c in snap["game"]["chat"]]
    for sock in (b, w, s, late):
        await sock.close()


async def test_bad_input_gets_an_error_and_changes_nothing(make_player: MakePlayer) -> None:
    _, game_id, (b, w, s), _ = await _watched(make_player)
    await b.send_raw("{not json")
    assert (await b.of_type("error"))["code"] == "bad_json"
    await b.send_raw('{"t":"teleport","id":"x"}')
    assert (await b.of_type("error"))["code"] == "unknown_type"
    await b.send_raw('{"t":"play","id":"x"}')
    assert (await b.of_type("error"))["code"] == "invalid_message"
    await b.send_raw('{"t":"chat","id":"big","text":"' + "x" * GAME_FRAME_BYTES + '"}')
    too_large = await b.of_type("error")
    assert too_large["code"] == "too_large" and too_large["id"] == "big"
    out_of_turn = await w.act({"t": "play", "p": [3, 3]})
    assert out_of_turn["code"] == "not_your_turn"
    assert (await s.act({"t": "play", "p": [3, 3]}))["code"] == "not_a_player"
    assert (await s.act({"t": "resign"}))["code"] == "not_a_player"
    assert (await b.act({"t": "play", "p": [4, 4]}))["t"] == "ack"
    occupied = await w.act({"t": "play", "p": [4, 4]})
    assert occupied["code"] == "illegal_move" and occupied["reason"] == "occupied"
    for point in ([20, 20], [-1, 0], [9, 4], [4, -7], [100000, 3]):  # every point off the board: one answer
        off = await w.act({"t": "play", "p": point})
        assert (off["code"], off["reason"]) == ("illegal_move", "off_board"), (point, off)
    # Only the one good move was applied, and the sockets are still open.
    assert (await w.act({"t": "play", "p": [5, 5]}))["v"] == 2
    for sock in (b, w, s):
        await sock.event(2)
        assert [m["v"] for m in sock.versioned()] == [1, 2]
        await sock.close()


async def test_the_twentieth_refusal_closes_the_socket_and_each_names_its_frame(make_player: MakePlayer) -> None:
    black, white, game_id, b = await _black_connected(make_player)
    sent = 0
    for n in range(120):
        try:
            await b.send_raw('{"t":"ping","id":"f%d"}' % n)
            sent += 1
        except websockets.ConnectionClosed:
            break
    assert await b.close_code() == 4029
    refused = [m for m in b.received if m.get("t") == "error"]
    assert len(refused) == 20 and all(m["code"] == "rate_limited" for m in refused)
    assert all(m["id"].startswith("f") for m in refused)  # each refusal names the frame it refuses
    assert len({m["id"] for m in refused}) == 20


async def test_a_flooding_client_is_throttled_then_closed(make_player: MakePlayer) -> None:
    black, white, game_id, b = await _black_connected(make_player)
    for n in range(200):
        try:
            await b.send_raw('{"t":"ping","id":"p%d"}' % n)
        except websockets.ConnectionClosed:
            break
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(b.connection.recv(), 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4029
    assert len([m for m in b.received if m.get("t") == "pong"]) < 60
    w = await white.socket(game_id)
    assert (await w.of_type("snapshot"))["v"] == 0


async def test_presence_tells_players_whether_the_opponent_is_connected(make_player: MakePlayer) -> None:
    black, white, game_id, b = await _black_connected(make_player)
    w = await white.socket(game_id)
    await b.until(lambda m: m.get("t") == "presence" and m["players"] == {"B": True, "W": True})
    watcher = await make_player()
    s = await watcher.socket(game_id)
    await b.until(lambda m: m.get("t") == "presence" and m["spectators"] == 1)
    await w.close()
    await b.until(lambda m: m.get("t") == "presence" and m["players"]["W"] is False)
    await s.close()
    await b.close()


async def test_an_unknown_game_is_refused(make_player: MakePlayer) -> None:
    player = await make_player()
    sock = await player.socket("nosuchgame")
    error = await sock.of_type("error")
    assert error["code"] == "no_such_game"
    with pytest.raises(websockets.ConnectionClosed):
        await asyncio.wait_for(sock.connection.recv(), 10)


async def test_moves_are_acknowledged_after_the_database_drops_every_connection(
    database_url: str, make_player: MakePlayer
) -> None:
    if not database_url.startswith("postgres"):
        pytest.skip("the server's pooled PostgreSQL connections are what this cuts")
    import asyncpg

    from tests.support.services import POSTGRES_URL

    black, white, game_id = await _seated(make_player)
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    await w.of_type("snapshot")
    assert (await b.act({"t": "play", "p": [2, 2]}))["v"] == 1
    database = database_url.rpartition("/")[2]
    admin = await asyncpg.connect(POSTGRES_URL.replace("+asyncpg", ""))
    try:
        pids = [r["pid"] for r in await admin.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", database)]
        assert pids
        for pid in pids:
            await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()
    # No pool ping: the dead pooled connections are replaced at checkout or by one retry of the commit.
    assert (await w.act({"t": "play", "p": [6, 6]}))["v"] == 2
    assert (await b.act({"t": "play", "p": [2, 6]}))["v"] == 3
    await w.until(lambda m: m.get("t") == "move" and m.get("v") == 3)
    for sock in (b, w):
        await sock.close()


async def test_a_room_applies_moves_committed_elsewhere_as_the_hub_carries_them(
    make_player: MakePlayer, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """Two rooms of one game (two instances) share a hub: neither reads back what the other committed.

    Only a gap in what the hub carried costs a read of the database; a third room that never publishes on
    the shared hub makes one.
    """
    black, white, game_id = await _seated(make_player)
    seat = seats(black, white)

    hub, lone_hub = MemoryHub(), MemoryHub()
    await hub.start()
    await lone_hub.start()
    metrics = [Metrics(), Metrics(), Metrics()]
    rooms = [
        Room(game_id, RoomDeps(hub, db_sessionmaker), GameHooks(metrics=metrics[0])),
        Room(game_id, RoomDeps(hub, db_sessionmaker), GameHooks(metrics=metrics[1])),
        Room(game_id, RoomDeps(lone_hub, db_sessionmaker), GameHooks(metrics=metrics[2])),
    ]

    async def caught_up(room: Room, v: int) -> None:
        """Wait for ``room`` to apply version ``v`` (a client acts after the hub delivered the move to it)."""
        for _ in range(500):
            if room.v >= v:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"room stuck at v={room.v}, expected {v}")

    def reads() -> list[float | None]:
        return [m.registry.get_sample_value("tengen_room_catchup_reads_total") for m in metrics]

    try:
        for room in rooms:
            assert await room.load()
        first, second, lone = rooms
        for turn in range(6):
            room, color = (first, "B") if turn % 2 == 0 else (second, "W")
            reply = orjson.loads((await room.act(seat(color), f"m{turn}", {"t": "play", "p": [turn, 3 + turn % 2]})).encode())
            assert reply == {"t": "ack", "id": f"m{turn}", "v": turn + 1}
            await caught_up(second if room is first else first, turn + 1)
        chat = orjson.loads((await second.act(seat("W"), "hello", {"t": "chat", "channel": "players", "text": "hi"})).encode())
        assert chat["v"] == 7
        await caught_up(first, 7)
        assert reads() == [0.0, 0.0, 0.0]
        # What the hub carried is what the database holds: the same game, the same chat, the same seen ids.
        now = first.clock()
        assert first.authority is not None and second.authority is not None
        assert first.authority.snapshot(None, now) == second.authority.snapshot(None, now)
        assert [c["text"] for c in first.chat] == ["hi"]
        again = orjson.loads((await first.act(seat("W"), "m5", {"t": "play", "p": [5, 4]})).encode())
        assert again == {"t": "ack", "id": "m5", "v": 6}  # a resent id, applied once, known from the hub
        # The lone room commits without publishing where the others listen: the next carried event leaves a
        # gap, and only then does a room read the database.
        assert b'"v":8' in (await lone.act(seat("B"), "m7", {"t": "play", "p": [7, 7]})).encode()
        assert b'"v":9' in (await second.act(seat("W"), "m8", {"t": "play", "p": [8, 8]})).encode()
        await caught_up(first, 9)
        assert reads()[0] == 1.0  # the gap at 8
        assert reads()[1] == 1.0  # refused on what it knew (not its turn), it checked the database once
        assert [len(room.authority.game.moves) for room in (first, second) if room.authority is not None] == [8, 8]
    finally:
        for room in rooms:
            await room.close()
        await hub.close()
        await lone_hub.close()


async def test_a_move_is_committed_before_chat_lines_that_waited_longer_for_the_lock(
    make_player: MakePlayer, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """Chat waits for the room's lock behind the game's actions: a move that arrives while a chat line waits
    (the lock held, as by a commit under way) is committed first, and each gets its own version in order."""
    black, white, game_id = await _seated(make_player)
    seat = seats(black, white)

    hub = MemoryHub()
    await hub.start()
    room = Room(game_id, RoomDeps(hub, db_sessionmaker))
    try:
        assert await room.load()
        await room.lock.acquire()
        chat = asyncio.create_task(room.act(seat("W"), "c1", {"t": "chat", "channel": "players", "text": "hi"}))
        await asyncio.sleep(0)  # the line waits for the lock
        move = asyncio.create_task(room.act(seat("B"), "m1", {"t": "play", "p": [3, 3]}))
        await asyncio.sleep(0)  # the move waits too, after it
        room.lock.release()
        assert ((await move).v, (await chat).v) == (1, 2)
        assert [c["text"] for c in room.chat] == ["hi"] and room.v == 2
    finally:
        await room.close()
        await hub.close()
