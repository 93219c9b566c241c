"""Email addresses, verification, unsubscribe and password reset through a real server, with the links read
from what a real SMTP server received. On SQLite with the in-process hub and on PostgreSQL with Redis."""

from __future__ import annotations

import httpx

from app.accounts.cookies import COOKIE_NAME
from tests.conftest import MakeLiveServer
from tests.support.mail_stack import (  # noqa: F401 - pytest fixtures, taken by name as test parameters
    PASSWORD,
    MailStack,
    mail_stack,
    smtp_sink,
    stack_settings,
)
from tests.support.smtp_sink import body_of, link_token

NEW_PASSWORD = "an0ther-Tengen-pw"


async def test_address_is_verified_by_its_link_changed_and_removed(mail_stack: MailStack) -> None:
    mailer = mail_stack.mailer()
    player = await mail_stack.player("Dosaku")
    assert (await player.http.get("/api/me/email")).json() == {"email": None, "pending": None, "mode": "digest"}
    bad = await player.http.put("/api/me/email", json={"email": "not an address"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_email"

    assert (await player.http.put("/api/me/email", json={"email": "dosaku@example.org"})).json() == {
        "email": None,
        "pending": "dosaku@example.org",
        "mode": "digest",
    }
    await mailer.run_once()
    [message] = mail_stack.sink.wait_for("dosaku@example.org", 1)
    assert message["From"] == "Tengen <noreply@tengen.test>" and "Dosaku" in body_of(message)
    token = link_token(message, "email/verify")
    forged = await player.http.post("/api/email/verify", json={"token": token[:-3] + "abc"})
    assert forged.status_code == 400 and forged.json()["error"]["code"] == "invalid_token"
    verified = await player.http.post("/api/email/verify", json={"token": token})
    assert verified.json() == {"email": "dosaku@example.org", "pending": None, "mode": "digest"}

    # A change keeps the verified address until the new one is confirmed; an older link no longer works.
    await player.http.put("/api/me/email", json={"email": "first@example.org"})
    await player.http.put("/api/me/email", json={"email": "second@example.org"})
    await mailer.run_once()
    stale = link_token(mail_stack.sink.wait_for("first@example.org", 1)[0], "email/verify")
    assert (await player.http.get("/api/me/email")).json()["email"] == "dosaku@example.org"
    refused = await player.http.post("/api/email/verify", json={"token": stale})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_token"
    token = link_token(mail_stack.sink.wait_for("second@example.org", 1)[0], "email/verify")
    assert (await player.http.post("/api/email/verify", json={"token": token})).json()["email"] == "second@example.org"

    # Someone else cannot confirm an address another account holds.
    other = await mail_stack.player("Sanetsu")
    await other.http.put("/api/me/email", json={"email": "Second@Example.org"})
    await mailer.run_once()
    token = link_token(mail_stack.sink.wait_for("Second@Example.org", 1)[0], "email/verify")
    taken = await other.http.post("/api/email/verify", json={"token": token})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "email_taken"

    assert (await player.http.delete("/api/me/email")).json() == {"email": None, "pending": None, "mode": "digest"}
    mode = await player.http.put("/api/me/email/preferences", json={"mode": "weekly"})
    assert mode.status_code == 422


async def test_guests_give_no_address_and_an_expired_link_is_refused(mail_stack: MailStack) -> None:
    guest = await mail_stack.player()
    refused = await guest.http.put("/api/me/email", json={"email": "guest@example.org"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_required"

    player = await mail_stack.player("Genan")
    await player.http.put("/api/me/email", json={"email": "genan@example.org"})
    await mail_stack.mailer().run_once()
    token = link_token(mail_stack.sink.wait_for("genan@example.org", 1)[0], "email/verify")
    mail_stack.clock.advance(48 * 3600 + 1)
    expired = await player.http.post("/api/email/verify", json={"token": token})
    assert expired.status_code == 400 and expired.json()["error"]["code"] == "expired_token"


async def test_password_reset_by_a_link_to_the_verified_address(mail_stack: MailStack) -> None:
    mailer = mail_stack.mailer()
    player = await mail_stack.player("Inseki", "inseki@example.org", mailer)
    old_cookie = player.http.cookies[COOKIE_NAME]

    assert mail_stack.server is not None
    stranger = httpx.AsyncClient(base_url=mail_stack.server.url)
    try:
        for address in ("inseki@example.org", "nobody@example.org"):  # the same answer either way
            answer = await stranger.post("/api/auth/reset-request", json={"email": address})
            assert (answer.status_code, answer.json()) == (202, {"ok": True})
        await mailer.run_once()
        [_, reset_mail] = mail_stack.sink.wait_for("inseki@example.org", 2)
        assert mail_stack.sink.to("nobody@example.org") == []
        token = link_token(reset_mail, "reset")
        weak = await stranger.post("/api/auth/reset", json={"token": token, "password": "short"})
        assert weak.status_code == 400 and weak.json()["error"]["code"] == "weak_password"
        reset = await stranger.post("/api/auth/reset", json={"token": token, "password": NEW_PASSWORD})
        assert reset.status_code == 200 and reset.json()["name"] == "Inseki"
        assert (await stranger.get("/api/me")).json()["name"] == "Inseki"  # a new session
        used = await stranger.post("/api/auth/reset", json={"token": token, "password": NEW_PASSWORD + "x"})
        assert used.status_code == 400 and used.json()["error"]["code"] == "invalid_token"
    finally:
        await stranger.aclose()

    old = httpx.AsyncClient(base_url=mail_stack.server.url, cookies={COOKIE_NAME: old_cookie})
    try:
        assert (await old.get("/api/me")).json()["name"] != "Inseki"  # the old session ended
    finally:
        await old.aclose()
    login = await player.http.post("/api/auth/login", json={"username": "Inseki", "password": NEW_PASSWORD})
    assert login.status_code == 200
    assert (await player.http.post("/api/auth/login", json={"username": "Inseki", "password": PASSWORD})).status_code == 401

    # A reset link lasts an hour.
    await player.http.post("/api/auth/reset-request", json={"email": "inseki@example.org"})
    await mailer.run_once()
    token = link_token(mail_stack.sink.wait_for("inseki@example.org", 3)[-1], "reset")
    mail_stack.clock.advance(3601)
    late = await player.http.post("/api/auth/reset", json={"token": token, "password": NEW_PASSWORD + "y"})
    assert late.status_code == 400 and late.json()["error"]["code"] == "expired_token"


async def test_messages_are_written_in_the_language_the_player_reads(mail_stack: MailStack) -> None:
    mailer = mail_stack.mailer()
    player = await mail_stack.player("Sakata")
    unknown = await player.http.put("/api/me/email", json={"email": "sakata@example.org", "language": "fr"})
    assert unknown.status_code == 422
    await player.http.put("/api/me/email", json={"email": "sakata@example.org", "language": "ja"})
    await mailer.run_once()
    [message] = mail_stack.sink.wait_for("sakata@example.org", 1)
    assert message["Subject"] == "Tengen のメールアドレスの確認" and body_of(message).startswith("Sakata さん")
    token = link_token(message, "email/verify")
    assert (await player.http.post("/api/email/verify", json={"token": token})).status_code == 200
    # A reset asked from a Spanish page goes in the account's language.
    await player.http.post("/api/auth/reset-request", json={"email": "sakata@example.org", "language": "es"})
    await mailer.run_once()
    assert mail_stack.sink.wait_for("sakata@example.org", 2)[-1]["Subject"] == "Tengen のパスワードの再設定"


async def test_requests_are_capped_per_address_and_per_client(mail_stack: MailStack) -> None:
    player = await mail_stack.player("Chitetsu")
    for _ in range(5):
        assert (await player.http.put("/api/me/email", json={"email": "capped@example.org"})).status_code == 202
    capped = await player.http.put("/api/me/email", json={"email": "capped@example.org"})
    assert capped.status_code == 429 and capped.json()["error"]["code"] == "mail_rate_limited"
    assert int(capped.headers["retry-after"]) > 0
    for i in range(14):  # other addresses, same client: 20 requests an hour from one client address
        await player.http.post("/api/auth/reset-request", json={"email": f"someone{i}@example.org"})
    over = await player.http.post("/api/auth/reset-request", json={"email": "someone-else@example.org"})
    assert over.status_code == 429 and over.json()["error"]["code"] == "mail_rate_limited"
    await mail_stack.mailer().run_once()
    assert len(mail_stack.sink.to("capped@example.org")) == 5


async def test_a_server_without_smtp_sends_nothing(mail_stack: MailStack, make_live_server: MakeLiveServer) -> None:
    server = make_live_server(mail_smtp_host="")
    client = httpx.AsyncClient(base_url=server.url)
    try:
        await client.post("/api/auth/register", json={"username": "Nobody", "password": PASSWORD})
        refused = await client.put("/api/me/email", json={"email": "n@example.org"})
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "mail_disabled"
        refused = await client.post("/api/auth/reset-request", json={"email": "n@example.org"})
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "mail_disabled"
    finally:
        await client.aclose()
