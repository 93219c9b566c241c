"""A socket's queue and writer: ordered, gap-filled sending, with nothing held while the socket is idle."""

from __future__ import annotations

import asyncio

from app.transport.connection import (
    CLOSE_TOO_SLOW,
    FLOOD_LIMIT,
    FLOOD_WINDOW,
    QUEUE_LIMIT,
    SLOW_AFTER,
    SLOW_INTERVAL,
    Connection,
)


class Socket:
    def __init__(self, delay: float = 0.0) -> None:
        self.sent: list[str] = []
        self.closes: list[int] = []
        self.delay = delay

    async def send(self, text: str) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closes.append(code)


def _conn(socket: Socket) -> Connection:
    return Connection(socket.send, socket.close, user_id=None, user_name=None, role=None)


async def _drained(conn: Connection) -> None:
    for _ in range(100):
        if not conn.busy:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the writer never finished")


async def test_a_socket_that_keeps_up_is_sent_to_at_once_with_no_queue_and_no_task() -> None:
    socket = Socket()
    conn = _conn(socket)
    tasks = len(asyncio.all_tasks())
    conn.start(_no_gaps)
    conn.push_start("snapshot", 0)
    assert socket.sent == ["snapshot"]  # in the pusher's own turn of the event loop
    assert not conn.busy
    conn.push("tick")
    conn.push("move 1", 1)
    assert socket.sent == ["snapshot", "tick", "move 1"]
    assert not conn.busy
    assert len(asyncio.all_tasks()) == tasks
    await conn.stop()


async def test_a_send_that_waits_goes_on_in_a_task_and_keeps_the_order() -> None:
    socket = Socket(delay=0.01)
    conn = _conn(socket)
    tasks = len(asyncio.all_tasks())
    conn.start(_no_gaps)
    conn.push_start("snapshot", 0)
    assert conn.busy and socket.sent == []
    conn.push("tick")
    conn.push("move 1", 1)
    await conn.reply("ack")  # behind what is queued
    await _drained(conn)
    assert socket.sent == ["snapshot", "tick", "move 1", "ack"]
    assert len(asyncio.all_tasks()) == tasks
    conn.push("move 2", 2)  # a new writer for the next message
    assert conn.busy
    await _drained(conn)
    assert socket.sent[-1] == "move 2"
    await conn.stop()


async def _no_gaps(after: int, upto: int) -> list[tuple[int, str]]:
    raise AssertionError(f"no gap expected ({after}, {upto}]")


async def test_versions_are_sent_once_in_order_and_gaps_are_filled() -> None:
    socket = Socket()
    conn = _conn(socket)
    asked: list[tuple[int, int]] = []

    async def fill(after: int, upto: int) -> list[tuple[int, str]]:
        asked.append((after, upto))
        return [(v, f"v{v}") for v in range(after + 1, upto + 1)]

    conn.start(fill)
    conn.push("before the start", 1)  # before the snapshot: dropped
    conn.push_start("snap@1", 1)
    conn.push("v1", 1)  # already in the snapshot
    conn.push("v2", 2)
    conn.push("v5", 5)  # 3 and 4 missed
    conn.push("v4", 4)  # already sent by the gap filling
    await _drained(conn)
    conn.push("v6", 6)
    await _drained(conn)
    assert socket.sent == ["snap@1", "v2", "v3", "v4", "v5", "v6"]
    assert asked == [(2, 4)]
    await conn.stop()


async def test_a_client_too_slow_to_keep_up_is_closed() -> None:
    socket = Socket(delay=0.05)
    conn = _conn(socket)
    conn.start(_no_gaps)
    conn.push_start("snap", 0)
    for i in range(QUEUE_LIMIT + 1):
        conn.push(f"m{i}")
    await asyncio.sleep(0)
    assert conn.closed
    assert socket.closes == [CLOSE_TOO_SLOW]
    conn.push("after")  # ignored
    await conn.stop()
    assert not conn.busy
    assert "after" not in socket.sent


async def test_a_failing_socket_marks_the_connection_closed() -> None:
    async def broken(text: str) -> None:
        raise ConnectionError("gone")

    conn = Connection(broken, Socket().close, user_id=None, user_name=None, role=None)
    conn.start(_no_gaps)
    conn.push_start("snap", 0)
    await _drained(conn)
    assert conn.closed


async def test_a_reply_goes_out_at_once_when_nothing_is_queued() -> None:
    socket = Socket()
    conn = _conn(socket)
    conn.start(_no_gaps)
    await conn.reply("ack 1")
    assert socket.sent == ["ack 1"] and not conn.busy
    conn.push_start("snap", 0)
    conn.push("tick")
    await conn.reply("ack 2")
    assert socket.sent == ["ack 1", "snap", "tick", "ack 2"]
    await conn.stop()


def test_refusals_count_within_their_window_only() -> None:
    conn = Connection(_noop_send, _noop_close, user_id=None, user_name=None, role=None)
    assert not any(conn.refuse(now=float(t)) for t in range(FLOOD_LIMIT - 1))
    # Long past refusals are forgotten: a long session is not cut for them.
    later = FLOOD_WINDOW + FLOOD_LIMIT
    assert not any(conn.refuse(now=later + t * 0.01) for t in range(FLOOD_LIMIT - 1))
    assert conn.refuse(now=later + 1.0)  # the 20th within the window closes


def test_a_socket_whose_messages_keep_being_refused_is_read_slowly_until_they_age_out() -> None:
    conn = Connection(_noop_send, _noop_close, user_id=None, user_name=None, role=None)
    for t in range(SLOW_AFTER - 1):
        conn.refused_for("not_a_player", now=float(t))
        conn.refused_for("not_your_turn", now=float(t))  # the game's own refusals never count
        conn.refused_for("rate_limited", now=float(t))  # nor the rate's, which count towards the close
        conn.refused_for(None, now=float(t))  # nor acknowledgements
    assert conn.read_delay(now=float(SLOW_AFTER)) == 0.0
    conn.refused_for("chat_rate_limited", now=float(SLOW_AFTER))
    delays = [conn.read_delay(now=float(SLOW_AFTER)) for _ in range(200)]
    assert all(0.5 * SLOW_INTERVAL <= d <= 1.5 * SLOW_INTERVAL for d in delays)
    # Drawn, so that sockets slowed together are not read together: spread over the interval, once a second on average.
    assert max(delays) - min(delays) > 0.5 * SLOW_INTERVAL
    assert 0.8 * SLOW_INTERVAL < sum(delays) / len(delays) < 1.2 * SLOW_INTERVAL
    assert conn.read_delay(now=FLOOD_WINDOW + 0.5) == 0.0  # the first refusal aged out


async def _noop_send(_text: str) -> None:
    return None


async def _noop_close(_code: int, _reason: str) -> None:
    return None


async def test_a_socket_offering_send_now_is_sent_to_with_no_coroutine_until_it_cannot_take_more() -> None:
    socket = Socket()
    now: list[str] = []
    room = {"takes": True}

    def send_now(text: str) -> bool:
        if room["takes"]:
            now.append(text)
        return room["takes"]

    asked: list[tuple[int, int]] = []

    async def fill(after: int, upto: int) -> list[tuple[int, str]]:
        asked.append((after, upto))
        return [(v, f"v{v}") for v in range(after + 1, upto + 1)]

    conn = Connection(socket.send, socket.close, user_id=None, user_name=None, role=None, send_now=send_now)
    conn.start(fill)
    conn.push("before the start", 1)  # dropped, as the writer would
    conn.push_start("snap@1", 1)
    conn.push("v1", 1)  # already in the snapshot
    conn.push("v2", 2)
    conn.push("tick")
    assert now == ["snap@1", "v2", "tick"] and socket.sent == [] and not conn.busy
    conn.push("v4", 4)  # a gap: the writer fills it from the room
    await _drained(conn)
    assert asked == [(2, 3)] and socket.sent == ["v3", "v4"]
    room["takes"] = False  # the socket's buffer is full: through the queue, in order
    conn.push("v5", 5)
    conn.push("v6", 6)
    await _drained(conn)
    assert socket.sent == ["v3", "v4", "v5", "v6"] and now == ["snap@1", "v2", "tick"]
    await conn.stop()


async def test_a_reply_is_written_with_send_now_when_the_socket_takes_it_else_sent() -> None:
    socket = Socket()
    now: list[str] = []
    takes = [True]

    def send_now(text: str) -> bool:
        if takes[0]:
            now.append(text)
        return takes[0]

    conn = Connection(socket.send, socket.close, user_id=None, user_name=None, role=None, send_now=send_now)
    conn.start(_no_gaps)
    await conn.reply("ack 1")
    assert now == ["ack 1"] and socket.sent == []
    takes[0] = False  # the transport cannot take it now: the socket's own send waits for it
    await conn.reply("ack 2")
    assert now == ["ack 1"] and socket.sent == ["ack 2"]
    await conn.stop()
