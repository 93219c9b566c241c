"""Guests, registration, log-in and log-out through the real ASGI app."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from app.accounts.cookies import COOKIE_NAME
from app.settings import Settings
from tests.conftest import MakeClient

PASSWORD = "s3cret-Tengen-pw"


async def test_a_visitor_is_anonymous_until_it_starts_a_guest_session(client: httpx.AsyncClient) -> None:
    anonymous = await client.get("/api/me")
    nobody = {"id": None, "name": None, "guest": True, "bot": False, "rank": None, "sanction": None, "moderator": False}
    assert anonymous.json() == nobody
    assert "set-cookie" not in anonymous.headers
    response = await client.post("/api/guest")
    assert response.status_code == 200
    me = response.json()
    assert me["guest"] is True and me["name"].startswith("Guest-") and len(me["name"]) == 10
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert (await client.get("/api/me")).json() == me  # the cookie keeps the identity
    assert (await client.post("/api/guest")).json() == me  # and a second start keeps the same guest


async def test_forged_cookie_gives_a_new_guest(make_client: MakeClient) -> None:
    first = make_client()
    me = (await first.post("/api/guest")).json()
    value = first.cookies[COOKIE_NAME]
    forged = make_client()
    forged.cookies.set(COOKIE_NAME, value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
    assert (await forged.get("/api/me")).json()["id"] != me["id"]


async def test_guest_registers_and_keeps_its_row(client: httpx.AsyncClient) -> None:
    guest = (await client.post("/api/guest")).json()
    response = await client.post("/api/auth/register", json={"username": "Honinbo", "password": PASSWORD})
    assert response.status_code == 201, response.text
    registered = {"id": guest["id"], "name": "Honinbo", "guest": False, "bot": False, "rank": "6k?"}
    assert response.json() == {**registered, "sanction": None, "moderator": False}
    assert (await client.get("/api/me")).json()["name"] == "Honinbo"


async def test_games_stay_with_a_guest_who_registers(make_client: MakeClient) -> None:
    creator, guest = make_client(), make_client()
    challenge = (await creator.post("/api/challenges", json={"board_size": 9})).json()
    game_id = (await guest.post(f"/api/challenges/{challenge['id']}/accept")).json()["game_id"]
    await guest.post("/api/auth/register", json={"username": "Shusaku", "password": PASSWORD})
    active = (await guest.get("/api/me/games/active")).json()["games"]
    assert [g["id"] for g in active] == [game_id]
    names = {p["name"] for p in active[0]["players"].values()}
    assert "Shusaku" in names


async def test_login_logout(make_client: MakeClient) -> None:
    first = make_client()
    user = (await first.post("/api/auth/register", json={"username": "Dosaku", "password": PASSWORD})).json()
    other = make_client()
    bad = await other.post("/api/auth/login", json={"username": "dosaku", "password": "wrong-password"})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "invalid_credentials"
    nobody = await other.post("/api/auth/login", json={"username": "nobody", "password": PASSWORD})
    assert nobody.status_code == 401 and nobody.json() == bad.json()
    good = await other.post("/api/auth/login", json={"username": "DOSAKU", "password": PASSWORD})
    assert good.status_code == 200 and good.json()["id"] == user["id"]
    stolen = other.cookies[COOKIE_NAME]

    assert (await other.post("/api/auth/logout")).status_code == 200
    assert COOKIE_NAME not in other.cookies
    # Log-out ends the account's sessions: the old cookie no longer names the user.
    replay = make_client()
    replay.cookies.set(COOKIE_NAME, stolen)
    assert (await replay.get("/api/me")).json()["guest"] is True
    assert (await first.get("/api/me")).json()["guest"] is True


@pytest.mark.parametrize("name", ["honinbo", "HONINBO", "Honinbo"])
async def test_taken_names_are_refused_case_insensitively(make_client: MakeClient, name: str) -> None:
    await make_client().post("/api/auth/register", json={"username": "Honinbo", "password": PASSWORD})
    logged_out = make_client()
    response = await logged_out.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "username_taken"
    assert COOKIE_NAME not in logged_out.cookies  # nothing was created for the refused request


@pytest.mark.parametrize(
    ("username", "password", "code"),
    [
        ("Honinbo", "short", "weak_password"),
        ("Honinbo", "aaaaaaaaaaaa", "weak_password"),
        ("Honinbo", "password", "weak_password"),
        ("Honinbo", "xxhoninbo123", "weak_password"),
        ("ab", PASSWORD, "invalid_username"),
        ("Guest-1234", PASSWORD, "invalid_username"),
        ("bad name", PASSWORD, "invalid_username"),
    ],
)
async def test_weak_passwords_and_bad_names(client: httpx.AsyncClient, username: str, password: str, code: str) -> None:
    response = await client.post("/api/auth/register", json={"username": username, "password": password})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


async def test_unicode_names_are_allowed(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/auth/register", json={"username": "Tuấn_棋手", "password": PASSWORD})
    assert response.status_code == 201, response.text


async def test_registered_user_cannot_register_again(client: httpx.AsyncClient) -> None:
    await client.post("/api/auth/register", json={"username": "Jowa", "password": PASSWORD})
    again = await client.post("/api/auth/register", json={"username": "Jowa2", "password": PASSWORD})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_registered"


async def test_passwords_never_appear_in_responses_or_logs(
    make_client: MakeClient,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "Unique-Pw-7731-zq"
    bodies = []
    http = make_client()
    for path, body in [
        ("/api/auth/register", {"username": "Genan", "password": secret}),
        ("/api/auth/register", {"username": "Genan", "password": secret}),
        ("/api/auth/login", {"username": "Genan", "password": secret}),
        ("/api/auth/login", {"username": "Genan", "password": secret + "x"}),
        ("/api/auth/register", {"username": "Inseki", "password": secret, "extra": secret}),
        ("/api/auth/register", {"username": ["x"], "password": secret}),
        ("/api/auth/login", {"username": "Genan", "password": 12345678}),
    ]:
        response = await make_client().post(path, json=body)
        bodies.append(response.text + str(response.headers))
    assert bodies and not any(secret in text for text in bodies)
    assert not any("12345678" in text for text in bodies)
    assert secret not in caplog.text
    await http.aclose()


async def test_session_cookie_is_secure_in_production(settings: Settings, tmp_path: Path) -> None:
    from app.main import create_app

    production = settings.model_copy(update={"env": "production"})
    application = create_app(production)
    async with application.router.lifespan_context(application):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="https://t") as http:
            response = await http.post("/api/guest")
    assert "Secure" in response.headers["set-cookie"]
