"""The lobby broadcaster over the hub, as two instances on one hub (one MemoryHub, or two RedisHubs on one Redis).

A public message reaches every instance. A private one (``_to``) reaches only the instances holding a lobby
socket of one of its recipients, and each of those sockets once.
"""

from __future__ import annotations

from typing import Any

from app.lobby.live.hub_broadcaster import HubLobbyBroadcaster
from tests.support.hubs import HubMaker


async def _pair(make_hub: HubMaker) -> tuple[HubLobbyBroadcaster, HubLobbyBroadcaster]:
    first = await make_hub()
    lobbies = HubLobbyBroadcaster(first), HubLobbyBroadcaster(await make_hub.peer(first))
    for lobby in lobbies:
        await lobby.start()
    return lobbies


async def test_a_private_message_reaches_its_user_on_another_instance_and_no_instance_without_that_user(
    make_hub: HubMaker,
) -> None:
    a, c = await _pair(make_hub)
    heard_on_c: list[dict[str, Any]] = []
    c.listen(heard_on_c.append)
    try:
        async with a.subscribe(7) as seven, c.subscribe(8) as eight, a.subscribe(None) as anonymous:
            await c.publish({"t": "my_game", "n": 1, "_to": [7]})
            assert await seven.get() == {"t": "my_game", "n": 1}
            await a.publish({"t": "my_game", "n": 2, "_to": [8]})
            assert await eight.get() == {"t": "my_game", "n": 2}
            # c holds no socket of user 7: it never received the first message, only the one for its user 8.
            assert heard_on_c == [{"t": "my_game", "n": 2, "_to": [8]}]
            await c.publish({"t": "game_finished", "game_id": "g"})
            for subscription in (seven, eight, anonymous):
                assert await subscription.get() == {"t": "game_finished", "game_id": "g"}
    finally:
        await a.close()
        await c.close()


async def test_each_socket_of_a_user_gets_a_message_once_and_the_last_one_closing_stops_it(make_hub: HubMaker) -> None:
    a, c = await _pair(make_hub)
    heard_on_a: list[dict[str, Any]] = []
    a.listen(heard_on_a.append)
    try:
        async with a.subscribe(7) as first:
            async with a.subscribe(7, public=False) as second, a.subscribe(9) as nine:
                await c.publish({"t": "note", "n": 1, "_to": [7, 9, 7]})
                await c.publish({"t": "note", "n": 2, "_to": [7]})
                for subscription in (first, second):
                    assert await subscription.get() == {"t": "note", "n": 1}
                    assert await subscription.get() == {"t": "note", "n": 2}
                assert await nine.get() == {"t": "note", "n": 1}
            # One socket of user 7 is still here: the user's channel stays.
            await c.publish({"t": "note", "n": 3, "_to": [7]})
            assert await first.get() == {"t": "note", "n": 3}
        heard_on_a.clear()
        await c.publish({"t": "note", "n": 4, "_to": [7]})  # user 7 has no socket here any more
        async with a.subscribe(9) as nine:
            await c.publish({"t": "note", "n": 5, "_to": [9]})
            assert await nine.get() == {"t": "note", "n": 5}
        assert heard_on_a == [{"t": "note", "n": 5, "_to": [9]}]
    finally:
        await a.close()
        await c.close()
