"""Logging: JSON lines carrying the game id (from the socket's context or passed by the room), text for people,
uvicorn's access log through the same handler, and ``tengen serve`` honouring TENGEN_LOG_FORMAT."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from app.logs import bind_game, configure_logging, default_format, make_handler
from tests.conftest import LiveServer
from tests.support.room_fixtures import STACKS, MakePlayer, make_player, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.instances import serving
from tests.support.players import start_game


@pytest.fixture
def root_logging() -> Iterator[logging.Logger]:
    """Restore the root and uvicorn loggers as they were after the test reconfigures them."""
    names = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "app.games.live.room")
    saved = [
        (logging.getLogger(n), list(logging.getLogger(n).handlers), logging.getLogger(n).level, logging.getLogger(n).propagate)
        for n in names
    ]
    yield logging.getLogger()
    for logger, handlers, level, propagate in saved:
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_json_lines_take_the_game_id_from_the_context_and_keep_extra_fields() -> None:
    stream = io.StringIO()
    logger = logging.getLogger("tengen.test.logs")
    logger.addHandler(make_handler("json", stream))
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:

        async def in_a_game() -> None:
            bind_game("g-ctx")
            logger.info("inside %s", "the socket task", extra={"v": 3})

        asyncio.run(in_a_game())
        logger.info("outside any game")
        logger.info("explicit", extra={"game_id": "g-extra"})
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.handlers.clear()
    inside, outside, explicit, failed = lines(stream)
    assert inside["message"] == "inside the socket task" and inside["game_id"] == "g-ctx" and inside["v"] == 3
    assert inside["level"] == "info" and inside["logger"] == "tengen.test.logs" and "time" in inside
    assert "game_id" not in outside  # the socket task's binding did not leak out of it
    assert explicit["game_id"] == "g-extra"
    assert failed["level"] == "error" and "ValueError: boom" in failed["exc_info"]


def test_text_format_shows_the_game_id() -> None:
    stream = io.StringIO()
    logger = logging.getLogger("tengen.test.text")
    logger.addHandler(make_handler("text", stream))
    logger.propagate = False
    try:
        logger.warning("flag fell", extra={"game_id": "g7"})
    finally:
        logger.handlers.clear()
    assert "WARNING" in stream.getvalue() and "[game g7] flag fell" in stream.getvalue()


def test_format_choice() -> None:
    assert default_format("production") == "json" and default_format("development") == "text"
    with pytest.raises(ValueError):
        make_handler("xml")


def test_configure_logging_routes_uvicorn_access_lines_as_json(root_logging: logging.Logger) -> None:
    stream = io.StringIO()
    configure_logging("json", "info", stream)
    logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', "10.0.0.5:4242", "GET", "/healthz", "1.1", 200)
    (line,) = lines(stream)
    assert line["logger"] == "uvicorn.access" and line["path"] == "/healthz" and line["status"] == 200
    assert line["method"] == "GET" and line["client"] == "10.0.0.5:4242"


@STACKS
async def test_a_move_is_logged_with_its_game_id(
    server: LiveServer, make_player: MakePlayer, root_logging: logging.Logger
) -> None:
    stream = io.StringIO()
    handler = make_handler("json", stream)
    room_logger = logging.getLogger("app.games.live.room")
    room_logger.addHandler(handler)
    room_logger.setLevel(logging.INFO)
    black, white = await make_player(), await make_player()
    game_id = await start_game(black, white)
    other_game = await start_game(white, black)
    b = await black.socket(game_id)
    await b.of_type("snapshot")
    assert (await b.act({"t": "play", "p": [3, 3]}))["t"] == "ack"
    assert (await b.act({"t": "chat", "channel": "players", "text": "a private remark"}))["t"] == "ack"
    w = await black.socket(other_game)
    await w.of_type("snapshot")
    assert (await w.act({"t": "resign"}))["t"] == "ack"
    await b.close()
    await w.close()
    room_logger.removeHandler(handler)

    records = lines(stream)
    mine = [r for r in records if r.get("game_id") == game_id]
    assert [(r["action"], r["v"], r["events"]) for r in mine] == [("play", 1, ["move"]), ("chat", 2, ["chat"])]
    assert mine[0]["message"] == "applied play"
    assert [r["action"] for r in records if r.get("game_id") == other_game] == ["resign"]
    assert "a private remark" not in stream.getvalue()


def test_serve_writes_json_lines_with_the_access_log(tmp_path: Path) -> None:
    with serving(tmp_path, TENGEN_LOG_FORMAT="json") as run:
        assert httpx.get(f"{run.url}/healthz", timeout=2).status_code == 200
    output = run.log_text()
    records = [orjson.loads(line) for line in output.splitlines() if line.strip()]  # every line is JSON
    assert any(r["logger"].startswith("alembic") and "Running upgrade" in r["message"] for r in records)
    assert any(r["logger"] == "uvicorn.access" and r.get("path") == "/healthz" and r.get("status") == 200 for r in records)
