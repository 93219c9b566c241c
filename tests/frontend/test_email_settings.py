"""Email in the browser against the real server, a real `tengen mailer` process and a real SMTP server: give
an address in the settings, confirm it by the mailed link, choose how notices come, then come back from a
forgotten password by the reset link. The same pages in every language."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from app.settings import Settings
from tests.conftest import LiveServer
from tests.frontend.people import DESKTOP, LANGUAGES, ROOT, Person
from tests.support.mail_stack import smtp_sink  # noqa: F401 - a pytest fixture, taken by name as a test parameter
from tests.support.smtp_sink import SmtpSink, link_token

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PASSWORD = "s3cret-Tengen-pw"
NEW_PASSWORD = "an0ther-Tengen-pw"


@pytest.fixture
def server(settings: Settings, smtp_sink: SmtpSink) -> Iterator[LiveServer]:
    """The site with mail on, and one `tengen mailer` process sending through the SMTP sink."""
    mail = {"mail_smtp_host": "127.0.0.1", "mail_smtp_port": smtp_sink.port, "mail_smtp_security": "none"}
    live = LiveServer(settings.model_copy(update={"frontend_dir": ROOT / "frontend", **mail}))
    live.start()
    env = {
        **os.environ,
        "TENGEN_ENV": "test",
        "TENGEN_DATABASE_URL": settings.database_url,
        "TENGEN_SECRET_KEY": settings.secret_key,
        "TENGEN_DATA_DIR": str(settings.data_dir),
        "TENGEN_MAIL_SMTP_HOST": "127.0.0.1",
        "TENGEN_MAIL_SMTP_PORT": str(smtp_sink.port),
        "TENGEN_MAIL_SMTP_SECURITY": "none",
        "TENGEN_MAIL_SITE_URL": live.url,
        "TENGEN_MAIL_POLL_SECONDS": "0.2",
    }
    mailer = subprocess.Popen([sys.executable, "-m", "app.cli", "mailer"], cwd=ROOT, env=env)
    yield live
    mailer.terminate()
    try:
        assert mailer.wait(timeout=30) == 0  # SIGTERM ends a pass cleanly
    finally:
        if mailer.poll() is None:
            mailer.kill()
        live.stop()


def test_address_confirmed_in_settings_then_password_reset_by_the_mailed_link(
    browser: Browser, server: LiveServer, smtp_sink: SmtpSink
) -> None:
    person = Person(browser, server.url)
    try:
        page = person.page
        person.open()
        person.api("POST", "/api/auth/register", {"username": "Shuei", "password": PASSWORD})
        person.open("#/settings")
        page.reload()  # the page learns of the account
        page.fill("#email-settings input[name=email]", "shuei@example.org")
        page.click("#email-settings button[type=submit]")
        page.wait_for_selector("#email-pending")
        assert "shuei@example.org" in page.inner_text("#email-pending")

        token = link_token(smtp_sink.wait_for("shuei@example.org", 1, timeout=30)[0], "email/verify")
        person.open(f"#/email/verify/{token}")
        assert "shuei@example.org" in page.inner_text("#mail-link-done")
        page.click("#mail-link a[href='#/settings']")
        page.wait_for_selector("#email-verified")
        person.shot("settings-email-desktop.png", DESKTOP)
        page.select_option("#mail-mode", "immediate")
        page.wait_for_function("() => document.querySelector('.toast') !== null")
        assert person.api("GET", "/api/me/email") == {"email": "shuei@example.org", "pending": None, "mode": "immediate"}

        for code in LANGUAGES:  # the page speaks every language: no key is shown raw
            person.language(code)
            text = page.inner_text("#main")
            assert "email." not in text and "settings." not in text, (code, text)
        person.language("en")

        # Another browser, the password forgotten.
        person.api("POST", "/api/auth/logout")
        person.open()
        page.reload()
        page.click("button:has-text('Log in')")
        page.click("#forgot-password")
        page.fill("dialog input[name=email]", "shuei@example.org")
        page.click("dialog button[type=submit]")
        page.wait_for_selector(".toast")
        token = link_token(smtp_sink.wait_for("shuei@example.org", 2, timeout=30)[1], "reset")
        person.open(f"#/reset/{token}")
        page.fill("#mail-link input[name=password]", NEW_PASSWORD)
        page.click("#mail-link button[type=submit]")
        page.wait_for_selector("#mail-link-done")
        assert "Shuei" in page.inner_text("#mail-link-done")
        page.wait_for_function("() => document.querySelector('.user-name')?.textContent === 'Shuei'")
        assert person.api("GET", "/api/me")["name"] == "Shuei"

        # Logging in through the header's dialog: a wrong password is said in the form, the right one signs in.
        person.api("POST", "/api/auth/logout")
        page.reload()
        page.click("button:has-text('Log in')")
        page.fill("dialog input[name=username]", "Shuei")
        page.fill("dialog input[name=password]", PASSWORD)
        page.click("dialog button[type=submit]")
        page.wait_for_function("() => document.querySelector('dialog .form-error').textContent !== ''")
        page.fill("dialog input[name=password]", NEW_PASSWORD)
        page.click("dialog button[type=submit]")
        page.wait_for_function("() => document.querySelector('.user-name')?.textContent === 'Shuei'")
        assert not page.is_visible("dialog")
        assert person.errors == []
    finally:
        person.close()
