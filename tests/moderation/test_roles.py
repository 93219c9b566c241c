"""Roles through the command line (``tengen admin grant|revoke NAME ROLE``) and what they open in the API."""

from __future__ import annotations

import httpx
import pytest

from tests.moderation.people import admin_command, registered
from tests.support.players import guests

pytestmark = pytest.mark.timeout(120)


async def test_granted_and_revoked_roles_open_and_close_the_moderator_api(live_server: str, database_url: str) -> None:
    person = await registered(live_server)
    name = person.user["name"]
    try:
        refused = await person.http.get("/api/moderation/reports")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_a_moderator"

        granted = admin_command(database_url, "grant", name, "moderator")
        assert granted.returncode == 0 and f"moderator granted to {name}" in granted.stdout
        again = admin_command(database_url, "grant", name, "moderator")
        assert again.returncode == 0 and "nothing to do" in again.stdout
        me = await person.http.get("/api/moderation/me")
        assert me.status_code == 200 and me.json()["roles"] == ["moderator"]
        assert (await person.http.get("/api/moderation/reports")).status_code == 200

        assert admin_command(database_url, "grant", name, "admin").returncode == 0
        assert (await person.http.get("/api/moderation/me")).json()["roles"] == ["admin", "moderator"]
        assert admin_command(database_url, "revoke", name, "moderator").returncode == 0
        assert admin_command(database_url, "revoke", name, "admin").returncode == 0
        assert (await person.http.get("/api/moderation/reports")).status_code == 403

        # Every change is in the audit log, by the console, naming the role.
        assert admin_command(database_url, "grant", name, "admin").returncode == 0
        audit = (await person.http.get("/api/moderation/audit")).json()["entries"]
        assert [(e["action"], e["details"]["role"], e["actor"], e["target"]) for e in audit] == [
            ("grant_role", "admin", "console", name),
            ("revoke_role", "admin", "console", name),
            ("revoke_role", "moderator", "console", name),
            ("grant_role", "admin", "console", name),
            ("grant_role", "moderator", "console", name),
        ]
    finally:
        await person.close()


async def test_roles_go_only_to_existing_accounts(live_server: str, database_url: str) -> None:
    unknown = admin_command(database_url, "grant", "nobody-by-this-name", "moderator")
    assert unknown.returncode == 1 and "No player named" in unknown.stderr
    guest = await registered(live_server)
    try:
        wrong = admin_command(database_url, "grant", guest.user["name"], "superuser")
        assert wrong.returncode == 2  # argparse: not one of the roles
    finally:
        await guest.close()


async def test_me_says_whether_the_user_may_moderate_so_that_the_client_asks_nothing_it_would_be_refused(
    live_server: str, database_url: str
) -> None:
    person = await registered(live_server)
    name = person.user["name"]
    try:
        assert person.user["moderator"] is False  # the registration's answer says it already
        assert (await person.http.get("/api/me")).json()["moderator"] is False
        assert admin_command(database_url, "grant", name, "moderator").returncode == 0
        assert (await person.http.get("/api/me")).json()["moderator"] is True
        assert admin_command(database_url, "revoke", name, "moderator").returncode == 0
        assert admin_command(database_url, "grant", name, "admin").returncode == 0
        assert (await person.http.get("/api/me")).json()["moderator"] is True  # an admin may do all a moderator does
        assert admin_command(database_url, "revoke", name, "admin").returncode == 0
        assert (await person.http.get("/api/me")).json()["moderator"] is False
        assert (await person.http.get("/api/moderation/reports")).status_code == 403
    finally:
        await person.close()
    async with guests(live_server, 1) as (guest,):
        assert guest.user["moderator"] is False and (await guest.http.get("/api/me")).json()["moderator"] is False
        async with httpx.AsyncClient(base_url=live_server) as anonymous:
            assert (await anonymous.get("/api/me")).json()["moderator"] is False
