"""Tournaments on a real server: an event's body, registered players, and waiting for a round's step."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.ratings.rated_play import registered
from tests.support.players import Player

__all__ = ["registered", "event_body", "create", "wait_for", "view"]


def event_body(starts_in: float = 1.5, **overrides: Any) -> dict[str, Any]:
    """A small Swiss event starting ``starts_in`` seconds from now; its second round far enough away that a test
    reaches it only on purpose."""
    schedule = {
        "first_round_at": (datetime.now(UTC) + timedelta(seconds=starts_in)).isoformat(),
        "round_seconds": 3600,
        "pairing_lead_seconds": 0.5,
        "checkin_seconds": 0,
        "deadline_seconds": 1800,
        **overrides.pop("schedule", {}),
    }
    body: dict[str, Any] = {
        "name": "Club night",
        "format": "swiss",
        "rounds": 2,
        "max_players": 8,
        "game": {"board_size": 9, "rules": "japanese", "time_control": {"kind": "absolute", "main": 600}, "rated": False},
        "schedule": schedule,
    }
    body.update(overrides)
    return body


async def create(director: Player, **overrides: Any) -> dict[str, Any]:
    response = await director.http.post("/api/tournaments", json=event_body(**overrides))
    assert response.status_code == 201, response.text
    return response.json()


async def view(player: Player, tournament_id: str) -> dict[str, Any]:
    response = await player.http.get(f"/api/tournaments/{tournament_id}")
    assert response.status_code == 200, response.text
    return response.json()


async def wait_for(player: Player, tournament_id: str, predicate: Any, timeout: float = 30.0) -> dict[str, Any]:
    """The event's page once ``predicate(page)`` holds (polled: the scheduler moves on its own)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        page = await view(player, tournament_id)
        if predicate(page):
            return page
        if loop.time() > deadline:
            raise AssertionError(f"the tournament never got there: {page['status']}, {[r['status'] for r in page['rounds']]}")
        await asyncio.sleep(0.1)


def round_status(number: int, status: str) -> Any:
    return lambda page: page["rounds"][number - 1]["status"] == status
