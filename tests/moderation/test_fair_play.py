"""Escaping: the share of games lost by abandonment or on time without a move, counted from the store on both
databases, shown on the player page, and limiting a player above the threshold to unrated games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.store.models import Game, Move, User
from app.store.repositories import moderation
from app.store.types import utcnow
from tests.conftest import MakeLiveServer
from tests.moderation.people import registered
from tests.support.players import start_game
from tests.support.stored_games import nine_by_nine

pytestmark = pytest.mark.timeout(120)

NINE = {"board_size": 9, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}


async def _finished(
    session: AsyncSession,
    black: int,
    white: int,
    result: str,
    ended_by: str,
    moves: str = "",
    age: int = 0,
) -> None:
    game: Game = await nine_by_nine(session, black, white)
    game.status, game.result, game.ended_by = "finished", result, ended_by
    game.ended_at = utcnow() - timedelta(minutes=age)
    for number, color in enumerate(moves, 1):
        session.add(Move(game_id=game.id, number=number, color=color, x=number, y=0))
    await session.flush()


async def test_the_escape_record_counts_abandonments_and_silent_timeouts(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    async with db_sessionmaker() as session:
        me, you = User(name="me", name_key="me"), User(name="you", name_key="you")
        session.add_all([me, you])
        await session.flush()
        await _finished(session, me.id, you.id, "W+F", "abandonment", "BW", age=9)  # escaped
        await _finished(session, you.id, me.id, "B+T", "timeout", "B", age=8)  # I (White) never moved: escaped
        await _finished(session, me.id, you.id, "W+T", "timeout", "BW", age=7)  # lost on time after moving
        await _finished(session, me.id, you.id, "B+F", "abandonment", "BW", age=6)  # they left: not mine
        await _finished(session, me.id, you.id, "Void", "abort", "", age=5)  # aborted: not counted
        await _finished(session, me.id, you.id, "B+R", "resignation", "BW", age=4)
        await session.commit()
        assert await moderation.escape_record(session, me.id, 50) == moderation.EscapeRecord(games=5, escapes=2)
        assert await moderation.escape_record(session, you.id, 50) == moderation.EscapeRecord(games=5, escapes=1)
        # Only the last ``window`` games count: the two escapes are the oldest.
        assert await moderation.escape_record(session, me.id, 3) == moderation.EscapeRecord(games=3, escapes=0)


async def test_an_escaper_is_shown_and_limited_to_unrated_games(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(escape_min_games=1, escape_threshold=0.5)
    ana, bao = await registered(server.url), await registered(server.url)
    # Ana (Black) never moves: her one second runs out, and the game is lost on time without a move.
    game_id = await start_game(ana, bao, time_control={"kind": "absolute", "main": 1})
    watcher = await bao.socket(game_id)
    over = await watcher.of_type("game_over", timeout=30)
    assert over["result"]["text"] == "W+T"

    page = (await ana.http.get(f"/api/players/{ana.user['name']}")).json()
    assert page["escapes"] == {
        "games": 1,
        "escapes": 1,
        "share": 1.0,
        "limited": True,
        "threshold": 0.5,
        "window": 50,
        "min_games": 1,
    }
    assert (await bao.http.get(f"/api/players/{bao.user['name']}")).json()["escapes"]["escapes"] == 0

    refused = await ana.http.post("/api/challenges", json={**NINE, "rated": True})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "escaping_limited"
    theirs = (await bao.http.post("/api/challenges", json={**NINE, "rated": True})).json()
    refused = await ana.http.post(f"/api/challenges/{theirs['id']}/accept")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "escaping_limited"
    seek = await (await ana.lobby()).act({"t": "seek", "sizes": [9], "speeds": ["blitz"], "rated": True})
    assert seek["t"] == "error" and seek["code"] == "escaping_limited"
    # Unrated games stay open to her.
    assert (await ana.http.post("/api/challenges", json=NINE)).status_code == 201
    for person in (ana, bao):
        await person.close()
