"""Helpers: a registered owner, a bot of theirs and a token for it, through the real HTTP API."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

PASSWORD = "correct horse battery staple"


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


async def register(http: httpx.AsyncClient, name: str | None = None) -> dict[str, Any]:
    response = await http.post("/api/auth/register", json={"username": name or unique("owner"), "password": PASSWORD})
    assert response.status_code == 201, response.text
    return response.json()


async def make_bot(owner: httpx.AsyncClient, name: str | None = None, **accepts: Any) -> tuple[dict[str, Any], str]:
    """A bot owned by ``owner`` (a registered client) and a read+play token for it."""
    response = await owner.post("/api/bots", json={"name": name or unique("bot"), "accepts": accepts})
    assert response.status_code == 201, response.text
    bot = response.json()
    response = await owner.post("/api/tokens", json={"name": "bridge", "user_id": bot["id"]})
    assert response.status_code == 201, response.text
    return bot, response.json()["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
