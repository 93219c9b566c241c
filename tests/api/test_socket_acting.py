"""What a socket may do, asked at each message from the credential its ticket holds (``Acting``), against its
instance's readings of its sockets' credentials (``CredentialSweep``): the scope of a token, the ending of a
revoked one, and what happens when the last good reading is too old (the action waits for one; if none can be
made, ``unavailable``). Across real instances: tests/transport/test_credentials_instances.py."""

from __future__ import annotations

import asyncio

from app.accounts.endings import TOKEN_REVOKED
from app.api.socket_admission import Acting
from app.transport.credential_sweep import STALE_AFTER, CredentialSweep
from app.transport.credentials import Credential, Ending
from app.transport.sockets import SocketRegistry, Ticket
from tests.support.fake_clock import FakeClock

INTERVAL = 10.0
READ_ONLY = Credential(7, token_id=3, scopes=frozenset({"read"}))
PLAYING = Credential(7, token_id=4, scopes=frozenset({"read", "play"}))


class Readings:
    """The database's answers to the sweep's readings: the tokens revoked since, or a failure."""

    def __init__(self) -> None:
        self.revoked: set[int] = set()
        self.failing = False
        self.count = 0

    async def __call__(self, tickets: list[Ticket]) -> list[tuple[Ticket, Ending]]:
        self.count += 1
        await asyncio.sleep(0)  # a reading takes a turn of the loop: readers asking meanwhile share it
        if self.failing:
            raise ConnectionError("the database did not answer")
        return [(ticket, TOKEN_REVOKED) for ticket in tickets if ticket.credential.token_id in self.revoked]


async def _socket(credential: Credential) -> tuple[Acting, list[tuple[int, str]], Readings, FakeClock]:
    registry = SocketRegistry(per_user=0, per_address=0)
    closed: list[tuple[int, str]] = []

    async def close(code: int, reason: str) -> None:
        closed.append((code, reason))

    ticket = await registry.admit(7, "10.0.0.1", close, credential=credential)
    assert ticket is not None
    readings, clock = Readings(), FakeClock()
    return Acting(ticket, CredentialSweep(registry, readings, INTERVAL, clock)), closed, readings, clock


async def test_a_read_only_token_may_ping_but_not_act() -> None:
    acting, _closed, readings, _clock = await _socket(READ_ONLY)
    for kind in ("seek", "seek_cancel", "play", "chat", "resign", "comment", "goto"):
        refused = await acting.refusal(kind)
        assert refused is not None and refused.code == "insufficient_scope"
    assert await acting.refusal("ping") is None and await acting.refusal("pong") is None
    assert readings.count == 0  # the scope alone decides: nothing is read


async def test_a_fresh_reading_costs_an_action_nothing() -> None:
    acting, closed, readings, clock = await _socket(PLAYING)
    readings.revoked.add(4)  # revoked, but no reading is due yet: the hub's news is what ends it at once
    clock.advance(STALE_AFTER * INTERVAL)
    assert await acting.refusal("play") is None
    assert readings.count == 0 and closed == []


async def test_an_overdue_reading_is_made_before_the_action_and_shared_by_those_waiting() -> None:
    acting, closed, readings, clock = await _socket(PLAYING)
    readings.revoked.add(4)
    clock.advance(STALE_AFTER * INTERVAL + 1)
    refusals = await asyncio.gather(*(acting.refusal(kind) for kind in ("play", "chat", "seek")))
    assert [refused.code if refused else None for refused in refusals] == ["invalid_token"] * 3
    assert readings.count == 1
    assert closed == [(4401, "token revoked")]


async def test_an_action_is_refused_unavailable_when_no_reading_can_be_made() -> None:
    acting, closed, readings, clock = await _socket(PLAYING)
    readings.failing = True
    clock.advance(STALE_AFTER * INTERVAL + 1)
    refused = await acting.refusal("play")
    assert refused is not None and refused.code == "unavailable"
    readings.failing = False
    assert await acting.refusal("play") is None  # the database answers again: the reading is made
    assert closed == []
