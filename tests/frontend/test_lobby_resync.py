"""The lobby page misses nothing an instance cut from Redis missed: on ``resync`` it opens its lobby socket
again and reloads, so a challenge published elsewhere during the cut shows up. Two real server processes on
PostgreSQL, the browser's reaching Redis through a proxy the test cuts; Debian's Chromium."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.frontend.people import Person
from tests.ratings.rated_play import registered
from tests.support.instances import POSTGRES_ONLY, Instances, redis_cluster_prefix, redis_cut_cluster  # noqa: F401 - pytest fixtures
from tests.support.services import CHROMIUM, need_chromium
from tests.support.tcp_proxy import TcpProxy

if TYPE_CHECKING:
    from playwright.sync_api import WebSocket

pytestmark = [pytest.mark.browser, POSTGRES_ONLY, pytest.mark.timeout(180)]

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


async def _open_challenge(base_url: str) -> str:
    """A player on ``base_url`` offers an open 13x13 challenge; their name."""
    bao = await registered(base_url)
    try:
        body = {"board_size": 13, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}
        made = await bao.http.post("/api/challenges", json=body)
        assert made.status_code == 201, made.text
        return str(bao.user["name"])
    finally:
        await bao.close()


def test_a_challenge_made_while_the_pages_instance_was_cut_from_redis_shows_up(
    redis_cut_cluster: tuple[Instances, Instances, TcpProxy],
) -> None:
    from playwright.sync_api import sync_playwright

    direct, proxied, proxy = redis_cut_cluster
    for group in (direct, proxied):
        group.env["TENGEN_FRONTEND_DIR"] = str(ROOT / "frontend")
    a, b = direct.start(1)[0], proxied.start(1)[0]
    need_chromium()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        ana = Person(browser, b.url)
        lobby_sockets: list[WebSocket] = []
        ana.page.on("websocket", lambda ws: lobby_sockets.append(ws) if ws.url.endswith("/ws/lobby") else None)
        try:
            ana.open()
            ana.page.wait_for_selector(".open-challenges")
            assert len(lobby_sockets) == 1
            proxy.down()  # the page's instance loses Redis: the challenge's news never reaches it
            try:
                with ThreadPoolExecutor(1) as other:  # playwright's loop runs in this thread
                    name = other.submit(asyncio.run, _open_challenge(a.url)).result()
            finally:
                proxy.up()
            ana.page.wait_for_selector(f".open-challenges :text('{name}')", timeout=30_000)
            assert len(lobby_sockets) >= 2  # told to resync, the page opened its lobby socket again
            assert ana.errors == [], ana.errors
        finally:
            ana.close()
            browser.close()
