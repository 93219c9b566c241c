"""API tokens through the real ASGI app: made once, stored hashed, scoped, revocable, and what they open."""

from __future__ import annotations

import hashlib

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.store.models import ApiToken
from tests.bots.accounts import bearer, register
from tests.conftest import MakeClient
from tests.support.players import open_socket


async def test_a_token_is_shown_once_stored_hashed_and_authenticates_http(
    make_client: MakeClient, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    owner = make_client()
    me = await register(owner)
    made = await owner.post("/api/tokens", json={"name": "script"})
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    assert token.startswith("tgn_") and len(token) > 40

    listed = (await owner.get("/api/tokens")).json()["tokens"]
    assert [t["name"] for t in listed] == ["script"] and "token" not in listed[0]
    assert listed[0]["prefix"] == token[:10] and listed[0]["scopes"] == ["play", "read"]
    async with db_sessionmaker() as session:
        row = (await session.execute(select(ApiToken))).scalar_one()
    assert row.digest == hashlib.sha256(token.encode()).hexdigest() and token not in str(row.__dict__)

    program = make_client()  # no cookie: only the token
    answer = await program.get("/api/me", headers=bearer(token))
    assert answer.status_code == 200 and answer.json()["id"] == me["id"]
    assert "set-cookie" not in answer.headers  # a token never becomes a guest session

    created = await program.post("/api/challenges", json={"board_size": 9}, headers=bearer(token))
    assert created.status_code == 201 and created.json()["creator"]["id"] == me["id"]


async def test_bad_revoked_and_read_only_tokens(make_client: MakeClient) -> None:
    owner = make_client()
    await register(owner)
    reader = (await owner.post("/api/tokens", json={"name": "ro", "scopes": ["read"]})).json()
    program = make_client()

    assert (await program.get("/api/me", headers=bearer(reader["token"]))).status_code == 200
    refused = await program.post("/api/challenges", json={}, headers=bearer(reader["token"]))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "insufficient_scope"

    bad = await program.get("/api/me", headers=bearer("tgn_" + "x" * 43))
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "invalid_token"

    assert (await owner.delete(f"/api/tokens/{reader['id']}")).status_code == 200
    gone = await program.get("/api/me", headers=bearer(reader["token"]))
    assert gone.status_code == 401
    assert (await owner.get("/api/tokens")).json()["tokens"] == []
    assert (await owner.delete(f"/api/tokens/{reader['id']}")).status_code == 404


async def test_only_a_signed_in_account_manages_tokens(make_client: MakeClient) -> None:
    guest = make_client()
    await guest.post("/api/guest")
    refused = await guest.post("/api/tokens", json={"name": "x"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_required"

    owner = make_client()
    await register(owner)
    token = (await owner.post("/api/tokens", json={"name": "x"})).json()["token"]
    # A token cannot make more tokens, even with both scopes.
    program = make_client()
    refused = await program.post("/api/tokens", json={"name": "y"}, headers=bearer(token))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "session_required"
    bad_scope = await owner.post("/api/tokens", json={"name": "z", "scopes": ["admin"]})
    assert bad_scope.status_code == 400 and bad_scope.json()["error"]["code"] == "invalid_scopes"

    # Someone else's token cannot be revoked.
    other = make_client()
    await register(other)
    mine = (await owner.get("/api/tokens")).json()["tokens"][0]
    assert (await other.delete(f"/api/tokens/{mine['id']}")).status_code == 404
    assert (await program.get("/api/me", headers=bearer(token))).status_code == 200


@pytest.mark.parametrize("header", ["Bearer", "bearer"])
async def test_a_bare_bearer_header_is_refused_not_taken_for_anonymous(live_server: str, header: str) -> None:
    """``Authorization: Bearer`` with no token after it (what follows the scheme is whitespace at most, which
    HTTP drops) names a credential that is not there: 401, over HTTP and on a socket's handshake alike, never a
    visitor without a session (nor a new guest)."""
    async with httpx.AsyncClient(base_url=live_server, headers={"Authorization": header}) as program:
        for answer in (await program.get("/api/me"), await program.post("/api/guest")):
            assert answer.status_code == 401 and answer.json()["error"]["code"] == "invalid_token"
            assert "set-cookie" not in answer.headers
    for path in ("/ws/lobby", "/ws/games/nosuchgame", "/ws/reviews/nosuchreview"):
        sock = await open_socket(live_server, path, {"Authorization": header})
        assert (await sock.next())["code"] == "invalid_token"
        assert await sock.close_code() == 4401
