"""A review room's stored tree is rebuilt by the study workers: an instance whose workers take no job cannot
open the room, and its socket is told ``study_busy`` (close 1013) while another instance serves the review."""

from __future__ import annotations

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.support.room_fixtures import MakePlayer, Servers
from tests.support.room_fixtures import STACKS, make_player, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.reviews import finished_game, make_review

pytestmark = [STACKS, pytest.mark.timeout(120)]


async def test_a_review_opens_only_through_the_study_workers(servers: Servers, make_player: MakePlayer) -> None:
    owner, other = await make_player(), await make_player()
    review = await make_review(owner, await finished_game(owner, other))
    assert (await (await owner.review(review["id"])).of_type("snapshot"))["v"] == 0

    servers.settings = servers.settings.model_copy(update={"study_queue": 0})  # no job is ever taken
    busy = servers.start()
    url = busy.url.replace("http://", "ws://") + f"/ws/reviews/{review['id']}"
    async with connect(url, additional_headers={"Cookie": owner.cookie_header}) as ws:
        assert '"code":"study_busy"' in str(await ws.recv())
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
