"""The Hub contract, run against both implementations (``make_hub`` is parametrised memory | redis)."""

from __future__ import annotations

import asyncio

import pytest

from app.games.live.audience import presence_message
from app.transport.codec import decode, encode
from app.games.live.channel import game_channel
from app.games.live.presence import Presence, presence
from app.lobby.live.channels import LOBBY_CHANNEL
from app.transport.hub import MAX_ROLE_CHARS, Unsubscribe
from tests.support.collect import RESET, WAIT, Collector

CH = game_channel(7)


def ev(v: int, note: str = "") -> bytes:
    return encode({"t": "move", "v": v, "note": note})


# -- fan-out -------------------------------------------------------------------------------------------


async def test_every_subscriber_on_every_instance_gets_messages_in_publish_order(make_hub):
    a = await make_hub()
    b = await make_hub.peer(a)
    first, second, remote = Collector(), Collector(), Collector()
    await a.subscribe(CH, first)
    await a.subscribe(CH, second)
    await b.subscribe(CH, remote)

    sent = []
    for i in range(1, 41):
        publisher = a if i % 2 else b
        if i % 3:
            data = ev(i)
            assert await publisher.publish(CH, data, v=i // 3 * 2 + i % 3) is True
        else:
            data = encode({"t": "clock", "n": i})
            await publisher.publish(CH, data)
        sent.append(data)

    # Versions above: i -> 1,2,(e),3,4,(e),5,6,... contiguous, so every message is delivered.
    for collector in (first, second, remote):
        await collector.wait_count(len(sent))
        assert collector.items == sent


async def test_channels_are_separate_and_lobby_is_a_channel(hub):
    game, lobby = Collector(), Collector()
    await hub.subscribe(CH, game)
    await hub.subscribe(LOBBY_CHANNEL, lobby)
    await hub.publish(LOBBY_CHANNEL, b'{"t":"lobby"}')
    await hub.publish(CH, ev(1), v=1)
    await lobby.wait_count(1)
    await game.wait_count(1)
    assert lobby.items == [b'{"t":"lobby"}']
    assert game.items == [ev(1)]


async def test_unsubscribe_stops_delivery(make_hub):
    a = await make_hub()
    b = await make_hub.peer(a)
    gone, staying = Collector(), Collector()
    unsubscribe = await a.subscribe(CH, gone)
    await b.subscribe(CH, staying)
    await a.publish(CH, b"one")
    await gone.wait_count(1)
    await unsubscribe()
    await unsubscribe()  # harmless twice
    await a.publish(CH, b"two")
    await staying.wait_count(2)
    assert staying.items == [b"one", b"two"]
    assert gone.items == [b"one"]


async def test_resubscribing_after_the_last_subscriber_left(hub):
    first = Collector()
    unsubscribe = await hub.subscribe(CH, first)
    await unsubscribe()
    again = Collector()
    await hub.subscribe(CH, again)
    await hub.publish(CH, b"after")
    await again.wait_count(1)
    assert again.items == [b"after"] and first.items == []


async def test_sync_callbacks_and_failing_callbacks_do_not_stop_delivery(hub):
    got: list[bytes] = []
    calls = 0

    def failing(data: bytes) -> None:
        nonlocal calls
        calls += 1
        raise RuntimeError("subscriber bug")

    done = Collector()
    await hub.subscribe(CH, got.append)
    await hub.subscribe(CH, failing)
    await hub.subscribe(CH, done)
    for i in range(3):
        await hub.publish(CH, ev(i + 1), v=i + 1)
    await done.wait_count(3)

    async def others_drained() -> None:  # each subscriber has its own worker: let the others finish too
        while not (len(got) == 3 and calls == 3):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(others_drained(), WAIT)
    assert got == [ev(1), ev(2), ev(3)]
    assert calls == 3


async def test_a_slow_subscriber_does_not_delay_the_others(hub):
    gate = asyncio.Event()
    slow, fast = Collector(gate), Collector()
    await hub.subscribe(CH, slow)
    await hub.subscribe(CH, fast)
    sent = [ev(v) for v in range(1, 21)]
    for v, data in enumerate(sent, 1):
        await hub.publish(CH, data, v=v)
    await fast.wait_count(20)
    await slow.entered.wait()
    assert fast.items == sent
    assert slow.items == []  # still stuck on its first message
    gate.set()
    await slow.wait_count(20)
    assert slow.items == sent


async def test_a_subscriber_too_far_behind_is_reset(make_hub):
    hub = await make_hub(max_pending=3)
    gate = asyncio.Event()
    slow, fast = Collector(gate), Collector()
    await hub.subscribe(CH, slow, on_reset=slow.reset)
    await hub.subscribe(CH, fast)
    sent = [ev(v) for v in range(1, 11)]
    await hub.publish(CH, sent[0], v=1)
    await slow.entered.wait()
    for v, data in enumerate(sent[1:], 2):
        await hub.publish(CH, data, v=v)
        await fast.wait_count(v)  # the message has reached this instance's subscribers
    gate.set()
    await slow.wait_item(sent[-1])
    assert slow.items[0] == sent[0]
    assert RESET in slow.items
    assert len(slow.items) < len(sent)
    after_reset = slow.items[slow.items.index(RESET) + 1 :]
    assert after_reset == sent[len(sent) - len(after_reset) :]


# -- the recent log ------------------------------------------------------------------------------------


async def test_replay_returns_exact_ranges(hub):
    for v in range(1, 11):
        assert await hub.publish(CH, ev(v), v=v) is True
    assert await hub.replay(CH, 0) == [ev(v) for v in range(1, 11)]
    assert await hub.replay(CH, 4) == [ev(v) for v in range(5, 11)]
    assert await hub.replay(CH, 9) == [ev(10)]
    assert await hub.replay(CH, 10) == []
    assert await hub.replay(CH, 11) is None  # the client claims a version the log never saw
    assert await hub.replay(CH, 4, latest=10) == [ev(v) for v in range(5, 11)]
    assert await hub.replay(CH, 4, latest=12) is None  # the log missed committed events


async def test_replay_of_an_unknown_channel_or_ephemeral_only_channel_is_none(hub):
    assert await hub.replay(game_channel("nothing"), 0) is None
    await hub.publish(CH, b"tick")
    assert await hub.replay(CH, 0) is None


async def test_duplicate_versions_are_neither_logged_nor_delivered(hub):
    seen = Collector()
    await hub.subscribe(CH, seen)
    assert await hub.publish(CH, ev(1), v=1)
    assert await hub.publish(CH, ev(2), v=2)
    assert await hub.publish(CH, ev(2, "again"), v=2) is False
    assert await hub.publish(CH, ev(1, "stale"), v=1) is False
    await hub.publish(CH, b"marker")
    await seen.wait_item(b"marker")
    assert seen.items == [ev(1), ev(2), b"marker"]
    assert await hub.replay(CH, 0) == [ev(1), ev(2)]


async def test_a_version_gap_restarts_the_log(hub):
    for v in (1, 2, 3):
        await hub.publish(CH, ev(v), v=v)
    assert await hub.publish(CH, ev(6), v=6) is True
    assert await hub.replay(CH, 5) == [ev(6)]
    assert await hub.replay(CH, 3) is None  # 4 and 5 never reached the hub
    assert await hub.replay(CH, 0) is None
    await hub.publish(CH, ev(7), v=7)
    assert await hub.replay(CH, 5) == [ev(6), ev(7)]


async def test_the_log_keeps_only_the_last_events(make_hub):
    hub = await make_hub(log_size=5)
    for v in range(1, 13):
        await hub.publish(CH, ev(v), v=v)
    assert await hub.replay(CH, 7) == [ev(v) for v in range(8, 13)]
    assert await hub.replay(CH, 6) is None
    assert await hub.replay(CH, 12) == []


async def test_two_instances_share_one_log(make_hub):
    a = await make_hub()
    b = await make_hub.peer(a)
    await a.publish(CH, ev(1), v=1)
    await b.publish(CH, ev(2), v=2)
    assert await b.publish(CH, ev(2, "racer"), v=2) is False
    assert await a.replay(CH, 0) == await b.replay(CH, 0) == [ev(1), ev(2)]


# -- presence ------------------------------------------------------------------------------------------


async def test_presence_across_instances(make_hub):
    a = await make_hub()
    b = await make_hub.peer(a)
    assert await presence(a, CH) == Presence({"B": False, "W": False}, 0)
    await a.join(CH, "c1", "B", 1)
    await b.join(CH, "c2", "spectator", 7)
    await b.join(CH, "c3", "spectator", 7)  # the same user in a second tab counts once
    await a.join(CH, "c4", "spectator", None)  # anonymous connections count each
    await b.join(CH, "c5", "spectator", None)
    await b.join(game_channel(8), "c6", "W", 2)  # another room
    for hub in (a, b):
        assert await presence(hub, CH) == Presence({"B": True, "W": False}, 3)

    await b.join(CH, "c7", "W", 2)
    await a.leave(CH, "c1")
    await a.leave(CH, "never-joined")
    await b.leave(CH, "c3")
    assert await presence(a, CH) == Presence({"B": False, "W": True}, 3)
    await b.leave(CH, "c2")
    assert await presence(b, CH) == Presence({"B": False, "W": True}, 2)
    assert (await presence(a, game_channel(8))).players == {"B": False, "W": True}


async def test_joining_again_replaces_the_entry(hub):
    await hub.join(CH, "c1", "spectator", 5)
    await hub.join(CH, "c1", "B", 5)
    assert await presence(hub, CH) == Presence({"B": True, "W": False}, 0)
    await hub.leave(CH, "c1")
    assert await presence(hub, CH) == Presence({"B": False, "W": False}, 0)


async def test_closing_an_instance_withdraws_its_presence(make_hub):
    a = await make_hub()
    b = await make_hub.peer(a)
    await a.join(CH, "c1", "W", 1)
    await b.join(CH, "c2", "spectator", 2)
    if b is not a:
        await a.close()
        assert await presence(b, CH) == Presence({"B": False, "W": False}, 1)


async def test_roles_the_hub_cannot_keep_are_refused(hub):
    for role in ("", "r" * (MAX_ROLE_CHARS + 1)):
        with pytest.raises(ValueError):
            await hub.join(CH, "c1", role, 1)
    assert await hub.members(CH) == []
    await hub.join(CH, "c1", "r" * MAX_ROLE_CHARS, 1)
    assert await hub.members(CH) == [("r" * MAX_ROLE_CHARS, 1)]


async def test_presence_message(hub):
    await hub.join(CH, "c1", "W", 1)
    assert decode(encode(presence_message(await presence(hub, CH)))) == {
        "t": "presence",
        "players": {"B": False, "W": True},
        "spectators": 0,
    }


# -- clock deadlines -----------------------------------------------------------------------------------


async def test_deadlines_are_claimed_earliest_first_with_a_lease(hub):
    await hub.set_deadline("g1", 100.0)
    await hub.set_deadline("g2", 50.5)
    await hub.set_deadline("g3", 200.0)
    await hub.set_deadline("g4", 100.0)
    assert await hub.get_deadline("g2") == 50.5
    assert await hub.claim_due(40.0) == []
    assert await hub.claim_due(100.0, limit=2, lease=30.0) == ["g2", "g1"]
    assert await hub.claim_due(100.0, lease=30.0) == ["g4"]
    assert await hub.claim_due(100.0) == []
    assert await hub.get_deadline("g2") == 130.0
    # A claimer that never reports back: the game falls due again after the lease.
    assert await hub.claim_due(129.0) == []
    assert await hub.claim_due(130.0, lease=30.0) == ["g1", "g2", "g4"]
    # Settled: cleared or moved to the next deadline.
    await hub.clear_deadline("g1")
    await hub.set_deadline("g2", 500.0)
    assert await hub.get_deadline("g1") is None
    assert await hub.claim_due(300.0) == ["g4", "g3"]
    assert await hub.claim_due(1000.0, limit=0) == []
    await hub.clear_deadline("never-set")


async def test_a_deadline_from_an_older_version_never_replaces_a_newer_one(make_hub):
    a = await make_hub()
    b = await make_hub.peer(a)
    await a.set_deadline("g", 100.0, v=5)
    await b.set_deadline("g", 50.0, v=4)  # published late by another instance: ignored
    assert await a.get_deadline("g") == 100.0
    await b.set_deadline("g", 70.0, v=5)  # the same version (re-armed after a tick): applied
    assert await a.get_deadline("g") == 70.0
    await a.clear_deadline("g", v=4)
    assert await b.get_deadline("g") == 70.0
    await a.clear_deadline("g", v=6)  # the game ended at version 6
    assert await b.get_deadline("g") is None
    await b.set_deadline("g", 80.0)  # re-registered from the database: no version, always applied
    assert await a.get_deadline("g") == 80.0


async def test_each_due_game_is_claimed_exactly_once_under_concurrency(make_hub):
    a = await make_hub()
    b = await make_hub.peer(a)
    games = [f"game-{i}" for i in range(200)]
    for i, game_id in enumerate(games):
        await (a if i % 2 else b).set_deadline(game_id, 1000.0 + i % 17)
    await a.set_deadline("later", 5000.0)

    claims = await asyncio.gather(*(hub.claim_due(2000.0, limit=7) for _ in range(20) for hub in (a, b)))
    claimed = [game_id for batch in claims for game_id in batch]
    assert len(claimed) == len(set(claimed)) == len(games)
    assert set(claimed) == set(games)
    assert await a.claim_due(2000.0) == []


async def test_a_subscriber_may_unsubscribe_from_its_own_callback(hub):
    got: list[bytes] = []
    unsubscribe: Unsubscribe | None = None

    async def once(data: bytes) -> None:
        got.append(data)
        assert unsubscribe is not None
        await unsubscribe()

    unsubscribe = await hub.subscribe(CH, once)
    witness = Collector()
    await hub.subscribe(CH, witness)
    await hub.publish(CH, b"first")
    await witness.wait_count(1)
    await hub.publish(CH, b"second")
    await witness.wait_count(2)
    for _ in range(5):
        await asyncio.sleep(0)
    assert got == [b"first"]


async def test_members_lists_every_connection_across_instances(make_hub):
    a = await make_hub()
    b = await make_hub.peer(a)
    await a.join("review:r1", "c1", "spectator", 5)
    await b.join("review:r1", "c2", "spectator", 6)
    await b.join("review:r1", "c3", "spectator", None)
    for hub in (a, b):
        assert sorted(await hub.members("review:r1"), key=str) == sorted(
            [("spectator", 5), ("spectator", 6), ("spectator", None)], key=str
        )
    await b.leave("review:r1", "c2")
    assert sorted(await a.members("review:r1"), key=str) == sorted([("spectator", 5), ("spectator", None)], key=str)
    assert await a.members("review:other") == []
