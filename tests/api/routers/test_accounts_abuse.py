"""Log-in under attack, through a real uvicorn: hashing off the event loop, brute-force limits, a new session
on every change of privilege, and log-out closing the user's sockets."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
import websockets

from app.accounts.cookies import COOKIE_NAME
from app.accounts.hashing import PasswordPool
from tests.conftest import LiveServer, MakeLiveServer
from tests.support.gated_hash import GATE_ENV, Gate, gated_verify
from tests.support.players import Player, start_game

PASSWORD = "correct horse battery"


async def _register(url: str, name: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=url, timeout=60)
    response = await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return client


def _gated(handle: LiveServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Gate:
    """The server's password checks from now on wait until the test opens the gate (in the hashing worker)."""
    monkeypatch.setenv(GATE_ENV, str(tmp_path))
    handle.app.state.passwords.close()
    handle.app.state.passwords = PasswordPool(1, 32, verify=gated_verify, share=1.0)
    return Gate(tmp_path)


async def test_a_password_check_does_not_stall_the_instance(
    live_server_handle: LiveServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """While a hash is being computed the same instance keeps answering (here: the hash never ends until the
    test lets it; on the event loop it would block /healthz until then)."""
    url = live_server_handle.url
    await (await _register(url, "Sakata")).aclose()
    gate = _gated(live_server_handle, monkeypatch, tmp_path)
    async with (
        httpx.AsyncClient(base_url=url, timeout=60) as attacker,
        httpx.AsyncClient(base_url=url, timeout=20) as other,
    ):
        login = asyncio.create_task(attacker.post("/api/auth/login", json={"username": "Sakata", "password": "wrong!!!"}))
        while not gate.entered():
            await asyncio.sleep(0.01)
        assert (await other.get("/healthz")).status_code == 200  # answered while the hash is still running
        assert not login.done()
        gate.open()
        assert (await login).status_code == 401


async def test_a_log_in_waiting_for_its_hash_holds_no_database_connection(
    live_server_handle: LiveServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A flood of log-ins queues at the hashing worker; meanwhile none of them holds a pooled connection, so
    the rest of the instance (and its players) still gets the database."""
    url = live_server_handle.url
    await (await _register(url, "Honinbo")).aclose()
    gate = _gated(live_server_handle, monkeypatch, tmp_path)
    pool = live_server_handle.app.state.entry_engine.sync_engine.pool
    async with httpx.AsyncClient(base_url=url, timeout=60) as attacker:
        logins = [
            asyncio.create_task(attacker.post("/api/auth/login", json={"username": "Honinbo", "password": f"wrong {n}"}))
            for n in range(3)
        ]
        while not gate.entered():
            await asyncio.sleep(0.01)
        # The first is hashing and cannot end until released; the other two reach the queue behind it. Once
        # all three wait for their hash, no connection may stay checked out (one held would stay until release).
        loop = asyncio.get_running_loop()
        give_up = loop.time() + 20
        while pool.checkedout() and loop.time() < give_up:
            await asyncio.sleep(0.05)
        assert pool.checkedout() == 0
        assert not any(login.done() for login in logins)
        gate.open()
        assert [(await login).status_code for login in logins] == [401, 401, 401]


async def test_wrong_passwords_are_limited_per_account(live_server: str) -> None:
    await (await _register(live_server, "Kitani")).aclose()
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as attacker:
        codes = [
            (await attacker.post("/api/auth/login", json={"username": "kitani", "password": f"guess-{i}"})).status_code
            for i in range(12)
        ]
        assert codes == [401] * 10 + [429] * 2
        right = await attacker.post("/api/auth/login", json={"username": "Kitani", "password": PASSWORD})
        assert right.status_code == 429 and right.json()["error"]["code"] == "rate_limited"
        assert int(right.headers["Retry-After"]) > 0


async def test_guesses_at_many_accounts_are_limited_per_address_and_globally(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(login_limit_address=5)
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as attacker:
        codes = [
            (await attacker.post("/api/auth/login", json={"username": f"name{i}", "password": "guess-it"})).status_code
            for i in range(7)
        ]
    assert codes == [401] * 5 + [429] * 2
    server = make_live_server(login_limit_global=3)
    codes = []
    for i in range(5):
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            codes.append((await client.post("/api/auth/login", json={"username": f"x{i}y", "password": "guess-it"})).status_code)
    assert codes == [401] * 3 + [429] * 2


async def test_log_ins_work_with_hashing_paced_to_a_share_of_a_core(make_live_server: MakeLiveServer) -> None:
    """Each check after the first waits for its turn (here 0.2 s of hashing: 0.8 s more), and is answered."""
    server = make_live_server(password_hash_share=0.2)
    assert server.app.state.passwords.share == 0.2
    await (await _register(server.url, "Shusaku")).aclose()
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
        wrong = await client.post("/api/auth/login", json={"username": "Shusaku", "password": "not it at all"})
        assert wrong.status_code == 401
        right = await client.post("/api/auth/login", json={"username": "Shusaku", "password": PASSWORD})
        assert right.status_code == 200, right.text
        assert (await client.get("/api/me")).json()["name"] == "Shusaku"


async def test_registering_gives_a_new_session(live_server: str) -> None:
    """A guest's cookie (perhaps planted by someone else) does not follow the guest into the account."""
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as victim:
        guest = (await victim.post("/api/guest")).json()
        planted = victim.cookies[COOKIE_NAME]
        account = (await victim.post("/api/auth/register", json={"username": "Honinbo", "password": PASSWORD})).json()
        assert account["id"] == guest["id"] and victim.cookies[COOKIE_NAME] != planted
        assert (await victim.get("/api/me")).json()["name"] == "Honinbo"
    async with httpx.AsyncClient(base_url=live_server, cookies={COOKIE_NAME: planted}) as attacker:
        me = (await attacker.get("/api/me")).json()
        assert me["guest"] is True and me["id"] != guest["id"]


async def test_logging_in_gives_a_new_session(live_server: str) -> None:
    await (await _register(live_server, "Jowa")).aclose()
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as client:
        guest_cookie = (await client.post("/api/guest")) and client.cookies[COOKIE_NAME]
        await client.post("/api/auth/login", json={"username": "Jowa", "password": PASSWORD})
        assert client.cookies[COOKIE_NAME] != guest_cookie


async def test_logging_out_closes_the_users_sockets(live_server: str) -> None:
    black, white = Player(live_server), Player(live_server)
    await black.http.aclose()
    black.http = await _register(live_server, "Dosaku")
    await white.visit()
    game_id = await start_game(black, white)
    sockets = [await black.socket(game_id), await black.socket(game_id)]
    lobby = await websockets.connect(
        live_server.replace("http://", "ws://") + "/ws/lobby", additional_headers={"Cookie": black.cookie_header}
    )
    for sock in sockets:
        await sock.of_type("snapshot")
    cookie = black.cookie_header
    assert (await black.http.post("/api/auth/logout")).status_code == 200
    for sock in sockets:
        assert await sock.close_code() == 4401
    with pytest.raises(websockets.ConnectionClosed) as lobby_closed:
        while True:
            await asyncio.wait_for(lobby.recv(), timeout=10)
    assert lobby_closed.value.rcvd is not None and lobby_closed.value.rcvd.code == 4401
    # The old cookie no longer seats anyone: a new socket with it is a spectator, and cannot play.
    async with websockets.connect(
        live_server.replace("http://", "ws://") + f"/ws/games/{game_id}", additional_headers={"Cookie": cookie}
    ) as ws:
        import orjson

        snapshot = orjson.loads(await ws.recv())
        assert snapshot["you"]["role"] == "spectator" and snapshot["you"]["user"] is None
    await lobby.close()
    await black.close()
    await white.close()
