"""The game socket's snapshot says whether the game counts for the ratings (``rated``, ``unrated_reason``) as
every other view of it does (app/ratings/verdict.py), not what its players asked for: a game resigned at move 0
says ``too_short`` and an annulled game ``annulled``, on whichever instance the snapshot is made, even one whose
room was open (and had said ``rated: true``) when a moderator annulled the game on the other instance."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import LiveServer
from tests.support.room_fixtures import STACKS, Servers, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.moderation.people import moderator, registered
from tests.ratings.rated_play import rated_game, wait_games
from tests.support.endings import finished
from tests.support.players import Player, start_game

pytestmark = [STACKS, pytest.mark.timeout(120)]


def two_instances(servers: Servers, database_url: str) -> tuple[LiveServer, LiveServer]:
    """Two servers on one PostgreSQL and one Redis; on SQLite (the in-process hub serves one) the same one twice."""
    a = servers.start()
    return (a, servers.start()) if database_url.startswith("postgres") else (a, a)


async def counted(person: Player, game_id: str, base_url: str) -> tuple[Any, Any]:
    """``rated`` and ``unrated_reason`` of a fresh socket's snapshot on the server at ``base_url``."""
    sock = await person.socket(game_id, base_url=base_url)
    try:
        game = (await sock.of_type("snapshot"))["game"]
        return game["rated"], game.get("unrated_reason", "missing")
    finally:
        await sock.close()


async def test_a_game_resigned_at_move_0_is_not_rated_in_its_snapshot(servers: Servers, database_url: str) -> None:
    a, b = two_instances(servers, database_url)
    black, white = await registered(a.url, "club"), await registered(a.url, "club")
    try:
        game_id = await start_game(black, white, rated=True)
        assert await counted(white, game_id, b.url) == (True, None)  # in progress: what was asked
        sock = await black.socket(game_id, base_url=a.url)
        await sock.of_type("snapshot")
        assert (await sock.act({"t": "resign"}))["t"] == "ack"
        await sock.close()
        await finished(black, game_id)
        for url in (a.url, b.url):
            assert await counted(white, game_id, url) == (False, "too_short"), url
    finally:
        await black.close()
        await white.close()


async def test_an_annulled_game_is_not_rated_in_its_snapshot_on_either_instance(servers: Servers, database_url: str) -> None:
    a, b = two_instances(servers, database_url)
    ana, bao = await registered(a.url, "club"), await registered(a.url, "club")
    mod = await moderator(a.url, database_url)
    try:
        game_id = await rated_game(ana, bao, base_url=a.url)
        await wait_games(ana, ana.user["name"], 1)
        watcher = await bao.socket(game_id, base_url=b.url)  # keeps the game's room open on B
        assert (await watcher.of_type("snapshot"))["game"]["rated"] is True
        for url in (a.url, b.url):
            assert await counted(bao, game_id, url) == (True, None), url
        annulled = await mod.http.post(f"/api/moderation/games/{game_id}/annul", json={"reason": "sandbagging"})
        assert annulled.status_code == 200, annulled.text
        for url in (a.url, b.url):
            assert await counted(bao, game_id, url) == (False, "annulled"), url
        await watcher.close()
    finally:
        for person in (ana, bao, mod):
            await person.close()
