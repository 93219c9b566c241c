"""The Prometheus metrics, read from ``/metrics`` of a real server while two players play over sockets."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.main import create_app
from app.metrics import Metrics
from app.settings import Settings
from tests.conftest import LiveServer, MakeLiveServer
from tests.support.room_fixtures import MakePlayer
from tests.support.room_fixtures import STACKS, make_player, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import start_game

NAMES = (
    "tengen_connected_sockets",
    "tengen_live_games",
    "tengen_moves_applied_total",
    "tengen_move_latency_seconds_bucket",
    "tengen_move_latency_seconds_count",
)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


async def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    async with httpx.AsyncClient(base_url=url) as http:
        response = await http.get("/metrics")
    assert response.status_code == 200
    return samples(response.text)


async def settled(url: str, name: str, expected: float) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Scrape until ``name`` reads ``expected`` (a socket's close reaches the server a moment later)."""
    for _ in range(200):
        values = await scrape(url)
        if values.get((name, ())) == expected:
            return values
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} stayed at {values.get((name, ()))}, expected {expected}")


@STACKS
async def test_counters_move_with_a_real_game(server: LiveServer, make_player: MakePlayer) -> None:
    before = await scrape(server.url)
    assert {name for name, _ in before} >= set(NAMES)
    assert before[("tengen_connected_sockets", ())] == 0 and before[("tengen_live_games", ())] == 0
    assert before[("tengen_moves_applied_total", ())] == 0

    black, white = await make_player(), await make_player()
    game_id = await start_game(black, white)
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    await w.of_type("snapshot")
    values = await settled(server.url, "tengen_connected_sockets", 2)
    assert values[("tengen_live_games", ())] == 1

    for sock, point in ((b, [2, 2]), (w, [6, 6]), (b, [2, 6])):
        assert (await sock.act({"t": "play", "p": point}))["t"] == "ack"
    assert (await w.act({"t": "pass"}))["t"] == "ack"
    refused = await b.act({"t": "play", "p": [2, 2]})
    assert refused["t"] == "error" and refused["code"] == "illegal_move"
    assert (await w.act({"t": "play", "p": [0, 0]}))["code"] == "not_your_turn"
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get("/api/games/no-such-game")).status_code == 404

    values = await scrape(server.url)
    assert values[("tengen_moves_applied_total", ())] == 4
    assert values[("tengen_move_latency_seconds_count", ())] == 4
    assert values[("tengen_move_latency_seconds_bucket", (("le", "+Inf"),))] == 4
    assert values[("tengen_errors_total", (("code", "illegal_move"),))] == 1
    assert values[("tengen_errors_total", (("code", "not_your_turn"),))] == 1
    assert values[("tengen_errors_total", (("code", "game_not_found"),))] == 1

    assert (await b.act({"t": "resign"}))["t"] == "ack"
    values = await scrape(server.url)
    assert values[("tengen_live_games", ())] == 0
    assert values[("tengen_moves_applied_total", ())] == 4  # a resignation is not a move
    await b.close()
    await w.close()
    await settled(server.url, "tengen_connected_sockets", 0)


def test_each_app_has_its_own_registry(settings: Settings) -> None:
    first, second = create_app(settings), create_app(settings)
    first.state.metrics.moves_applied.inc(3)
    assert samples(second.state.metrics.render()[0].decode())[("tengen_moves_applied_total", ())] == 0
    assert samples(first.state.metrics.render()[0].decode())[("tengen_moves_applied_total", ())] == 3


def test_live_games_counts_rooms_whose_game_is_not_finished() -> None:
    class Authority:
        def __init__(self, phase: str) -> None:
            self.phase = phase

    class Room:
        def __init__(self, authority: Authority | None) -> None:
            self.authority = authority

    rooms = [Room(Authority("playing")), Room(Authority("scoring")), Room(Authority("finished")), Room(None)]
    metrics = Metrics()
    metrics.track_live_games(lambda: rooms)
    assert samples(metrics.render()[0].decode())[("tengen_live_games", ())] == 2
    rooms.append(Room(Authority("adjourned")))
    assert samples(metrics.render()[0].decode())[("tengen_live_games", ())] == 3


TOKEN = "metrics-token-0123456789-abcdefghijklmnopqrstuvwxyz"


async def metrics_status(url: str, headers: dict[str, str] | None = None) -> int:
    async with httpx.AsyncClient(base_url=url) as http:
        return (await http.get("/metrics", headers=headers or {})).status_code


async def test_production_serves_metrics_to_nobody_unless_the_operator_says_who(make_live_server: MakeLiveServer) -> None:
    """A bare production server, even reached from its own host (as a reverse proxy on that host reaches it)."""
    server = make_live_server(env="production", katago=False)
    assert await metrics_status(server.url) == 404
    assert await metrics_status(server.url, {"Authorization": f"Bearer {TOKEN}"}) == 404


async def test_production_serves_metrics_to_the_configured_token(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(env="production", katago=False, metrics_token=TOKEN)
    assert await metrics_status(server.url) == 404
    assert await metrics_status(server.url, {"Authorization": "Bearer wrong"}) == 404
    assert await metrics_status(server.url, {"Authorization": TOKEN}) == 404
    assert await metrics_status(server.url, {"Authorization": f"Bearer {TOKEN}"}) == 200
    text = (await httpx.AsyncClient(base_url=server.url).get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})).text
    assert "tengen_connected_sockets" in text


async def test_production_serves_metrics_to_the_configured_networks(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(env="production", katago=False, metrics_networks=["127.0.0.0/8"])
    assert await metrics_status(server.url) == 200
    # Relayed by a proxy the server was not told to trust: the peer's address is the proxy's, not the client's.
    assert await metrics_status(server.url, {"X-Forwarded-For": "203.0.113.7"}) == 404
    server = make_live_server(env="production", katago=False, metrics_networks=["10.0.0.0/8"])
    assert await metrics_status(server.url) == 404


async def test_development_serves_metrics_to_loopback_by_default(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(env="development", katago=False)
    assert await metrics_status(server.url) == 200


def test_a_guessable_metrics_token_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="TENGEN_METRICS_TOKEN is too weak"):
        Settings(metrics_token="secret")
    assert Settings(metrics_token=TOKEN).metrics_token == TOKEN
