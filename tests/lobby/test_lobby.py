"""The in-process lobby broadcaster."""

from __future__ import annotations

from app.lobby.live.broadcaster import QUEUE_SIZE, MemoryLobbyBroadcaster


async def test_publish_reaches_every_subscriber_until_it_leaves() -> None:
    lobby = MemoryLobbyBroadcaster()
    async with lobby.subscribe() as first:
        async with lobby.subscribe() as second:
            await lobby.publish({"t": "a"})
            assert await first.get() == {"t": "a"} and await second.get() == {"t": "a"}
        assert lobby.subscriber_count == 1
        await lobby.publish({"t": "b"})
        assert await first.get() == {"t": "b"}
    assert lobby.subscriber_count == 0


async def test_a_subscriber_that_falls_behind_is_told_to_resync() -> None:
    lobby = MemoryLobbyBroadcaster()
    async with lobby.subscribe() as slow:
        for n in range(QUEUE_SIZE + 5):
            await lobby.publish({"t": "x", "n": n})
        assert await slow.get() == {"t": "resync"}
        await lobby.publish({"t": "after"})
        assert await slow.get() == {"t": "after"}
