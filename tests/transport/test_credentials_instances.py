"""A socket holds the credential that opened it for as long as it is open, across two real server processes on
one PostgreSQL and one Redis: revoking an API token on one instance closes every socket it opened on the
other (the hub's news, or, when that news was lost, the instance's own re-reading of its sockets'
credentials); and what a token may do is asked at every message, on the lobby, game and review sockets alike."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from sqlalchemy import update

from app.store.db import create_engine, create_sessionmaker
from app.store.models import ApiToken, User
from app.store.types import utcnow
from tests.bots.accounts import bearer, make_bot
from tests.ratings.rated_play import registered
from tests.support.instances import POSTGRES_ONLY, Instance, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, Player, open_socket, start_game
from tests.support.reviews import finished_game, make_review
from tests.support.services import REDIS_URL
from tests.support.tcp_proxy import TcpProxy

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(240)]

SEEK = {"t": "seek", "sizes": [9], "speeds": ["blitz"], "rules": "any"}
HUB_ONLY = "3600"  # TENGEN_CREDENTIAL_CHECK_SECONDS: no periodic re-reading within a test, only the hub's news


def _last_words(sock: GameSocket) -> dict[str, Any]:
    """The last message a closed socket received (clock ticks and the server's pings aside)."""
    return [m for m in sock.received if m.get("t") not in ("clock", "ping")][-1]


async def _refused_handshake(base_url: str, token: str) -> None:
    """A new socket with this token is refused: ``invalid_token``, then close 4401; and so is HTTP."""
    sock = await open_socket(base_url, "/ws/lobby", bearer(token))
    assert (await sock.next())["code"] == "invalid_token"
    assert await sock.close_code() == 4401
    async with httpx.AsyncClient(base_url=base_url, headers=bearer(token)) as program:
        answer = await program.get("/api/me")
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "invalid_token"


async def _bot_in_a_game(a: Instance, b: Instance) -> tuple[Player, Player, dict[str, Any], str, str]:
    """An owner and a bot of theirs (its token made on A), and Ana, whose challenge the bot accepted on B."""
    owner, ana = await registered(a.url), await registered(a.url)
    bot, token = await make_bot(owner.http)
    made = await ana.http.post("/api/challenges", json={"board_size": 9, "opponent": bot["name"]})
    assert made.status_code == 201, made.text
    async with httpx.AsyncClient(base_url=b.url, headers=bearer(token)) as program:
        accepted = await program.post(f"/api/challenges/{made.json()['id']}/accept")
        assert accepted.status_code == 201, accepted.text
    return owner, ana, bot, token, accepted.json()["game_id"]


async def _token_id(owner: Player, token: str) -> int:
    listed = (await owner.http.get("/api/tokens")).json()["tokens"]
    return next(row["id"] for row in listed if row["prefix"] == token[:10])


async def test_revoking_a_token_on_one_instance_closes_its_sockets_on_the_other(cluster: Instances) -> None:
    cluster.env["TENGEN_CREDENTIAL_CHECK_SECONDS"] = HUB_ONLY
    a, b = cluster.start(2)
    owner, ana, bot, token, game_id = await _bot_in_a_game(a, b)
    spare = await owner.http.post("/api/tokens", json={"name": "spare", "user_id": bot["id"]})
    assert spare.status_code == 201, spare.text
    try:
        lobby = await open_socket(b.url, "/ws/lobby", bearer(token))
        game = await open_socket(b.url, f"/ws/games/{game_id}", bearer(token))
        other = await open_socket(b.url, "/ws/lobby", bearer(spare.json()["token"]))
        for sock in (lobby, game, other):
            await sock.of_type("snapshot")

        revoked = await owner.http.delete(f"/api/tokens/{await _token_id(owner, token)}")
        assert revoked.status_code == 200, revoked.text

        # Every socket the token opened on B hears why, then closes; the bot's other token goes on.
        for sock in (lobby, game):
            assert await sock.close_code(15) == 4401
            assert _last_words(sock)["code"] == "invalid_token"
        await other.send({"t": "ping"})
        assert (await other.of_type("pong"))["t"] == "pong"
        await _refused_handshake(b.url, token)
        await other.close()
    finally:
        for person in (owner, ana):
            await person.close()


async def test_a_read_scope_token_may_watch_but_not_act_on_any_socket(cluster: Instances) -> None:
    a, b = cluster.start(2)
    ana, bao = await registered(a.url), await registered(a.url)
    try:
        review = await make_review(ana, await finished_game(ana, bao))
        game_id = await start_game(ana, bao)  # Ana plays black: it is her move
        made = await ana.http.post("/api/tokens", json={"name": "watcher", "scopes": ["read"]})
        assert made.status_code == 201, made.text
        watcher = bearer(made.json()["token"])

        lobby = await open_socket(b.url, "/ws/lobby", watcher)
        game = await open_socket(b.url, f"/ws/games/{game_id}", watcher)
        board = await open_socket(b.url, f"/ws/reviews/{review['id']}", watcher)
        for sock in (lobby, game, board):
            await sock.of_type("snapshot")

        await lobby.refused(SEEK, "insufficient_scope")
        await lobby.refused({"t": "seek_cancel"}, "insufficient_scope")
        for action in ({"t": "play", "p": [2, 2]}, {"t": "chat", "channel": "spectators", "text": "hi"}, {"t": "resign"}):
            await game.refused(action, "insufficient_scope")
        for action in ({"t": "comment", "text": "mine"}, {"t": "chat", "text": "hi"}, {"t": "take_control"}):
            await board.refused(action, "insufficient_scope")
        # Watching is what the token may do: pings are answered on every socket.
        for sock in (lobby, game, board):
            await sock.send({"t": "ping"})
            assert (await sock.of_type("pong"))["t"] == "pong"
            await sock.close()
    finally:
        for person in (ana, bao):
            await person.close()


async def test_credentials_changed_without_any_news_are_found_at_the_next_check(cluster: Instances, database_url: str) -> None:
    """A token revoked and a user suspended by a writer that told no instance (the house bots' start revokes
    their old tokens so): each instance finds it when it re-reads its sockets' credentials."""
    cluster.env["TENGEN_CREDENTIAL_CHECK_SECONDS"] = "0.5"
    a, b = cluster.start(2)
    owner, ana, bot, token, game_id = await _bot_in_a_game(a, b)
    chen = await registered(a.url)
    try:
        game = await open_socket(b.url, f"/ws/games/{game_id}", bearer(token))
        chens = await chen.lobby(base_url=b.url)
        for sock in (game, chens):
            await sock.of_type("snapshot")

        engine = create_engine(database_url)
        try:
            async with create_sessionmaker(engine)() as session:
                await session.execute(update(ApiToken).where(ApiToken.user_id == bot["id"]).values(revoked_at=utcnow()))
                until = utcnow() + timedelta(hours=2)
                await session.execute(update(User).where(User.id == chen.user["id"]).values(suspended_until=until))
                await session.commit()
        finally:
            await engine.dispose()

        assert await game.close_code(15) == 4401
        assert _last_words(game)["code"] == "invalid_token"
        assert await chens.close_code(15) == 4403
        told = _last_words(chens)
        assert told["t"] == "account_sanctioned" and told["action"] == "suspend"
        await _refused_handshake(b.url, token)
    finally:
        for person in (owner, ana, chen):
            await person.close()


@pytest.fixture
def redis_cut(database_url: str, redis_cluster_prefix: str, tmp_path: Path) -> Iterator[tuple[Instances, Instances, TcpProxy]]:
    """Instances that reach Redis directly, and instances that reach it only through a proxy the test can cut
    (not started: the test sets their environment first)."""
    target = urlparse(REDIS_URL)
    proxy = TcpProxy(target.hostname or "127.0.0.1", target.port or 6379).start()
    proxied_url = REDIS_URL.replace(target.netloc, f"127.0.0.1:{proxy.port}")
    direct = Instances(database_url, REDIS_URL, redis_cluster_prefix, tmp_path / "direct")
    proxied = Instances(database_url, proxied_url, redis_cluster_prefix, tmp_path / "proxied")
    for group in (direct, proxied):
        group.workdir.mkdir()
    yield direct, proxied, proxy
    proxied.stop_all()
    direct.stop_all()
    proxy.close()


async def test_a_token_revoked_while_an_instance_was_cut_from_redis_closes_its_sockets_when_it_reconnects(
    redis_cut: tuple[Instances, Instances, TcpProxy],
) -> None:
    direct, proxied, proxy = redis_cut
    for group in (direct, proxied):
        group.env["TENGEN_CREDENTIAL_CHECK_SECONDS"] = HUB_ONLY
    a, b = direct.start(1)[0], proxied.start(1)[0]
    owner, ana, bot, token, game_id = await _bot_in_a_game(a, b)
    try:
        lobby = await open_socket(b.url, "/ws/lobby", bearer(token))
        await lobby.of_type("snapshot")
        token_id = await _token_id(owner, token)
        proxy.down()  # B loses Redis: the news of the revocation cannot reach it
        try:
            assert (await owner.http.delete(f"/api/tokens/{token_id}")).status_code == 200
        finally:
            proxy.up()
        assert await lobby.close_code(30) == 4401
        assert _last_words(lobby)["code"] == "invalid_token"
    finally:
        for person in (owner, ana):
            await person.close()
