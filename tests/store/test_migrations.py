"""The Alembic tree from an empty database up, down and up again, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import orjson
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, inspect

from app.games.config import GameConfig
from app.store.db import create_engine
from app.store.migrations import current_revision, downgrade_to_base, head_revision, upgrade_to_head
from app.store.models import metadata

TABLES = {
    "users",
    "games",
    "moves",
    "chat_messages",
    "game_events",
    "challenges",
    "server_marks",
    "ratings",
    "rating_updates",
    "rating_changes",
    "api_tokens",
    "reviews",
    "mail_notices",
    "mail_outbox",
    "ai_reviews",
    "ai_review_positions",
    "ai_review_records",
}


def _inspect(url: str) -> tuple[set[str], str | None, list[Any]]:
    async def run() -> tuple[set[str], str | None, list[Any]]:
        engine = create_engine(url)
        try:
            async with engine.connect() as connection:

                def read(sync: Connection) -> tuple[set[str], str | None, list[Any]]:
                    diff = compare_metadata(MigrationContext.configure(sync, opts={"compare_type": True}), metadata)
                    return set(inspect(sync).get_table_names()), current_revision(sync), diff

                return await connection.run_sync(read)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def test_upgrade_downgrade_upgrade(empty_database_url: str) -> None:
    tables, revision, _ = _inspect(empty_database_url)
    assert not tables & TABLES and revision is None

    upgrade_to_head(empty_database_url)
    tables, revision, diff = _inspect(empty_database_url)
    assert TABLES <= tables
    assert revision == head_revision()
    assert diff == [], "the migrations and the models disagree"

    downgrade_to_base(empty_database_url)
    tables, revision, _ = _inspect(empty_database_url)
    assert not tables & TABLES and revision is None

    upgrade_to_head(empty_database_url)
    tables, revision, diff = _inspect(empty_database_url)
    assert TABLES <= tables and revision == head_revision() and diff == []


def test_upgrade_twice_is_a_no_op(empty_database_url: str) -> None:
    upgrade_to_head(empty_database_url)
    upgrade_to_head(empty_database_url)
    assert _inspect(empty_database_url)[1] == head_revision()


def test_games_get_their_whole_configuration(empty_database_url: str) -> None:
    """0005: existing games get the configuration they were played with; countdown stops being byo-yomi."""
    from alembic import command
    from sqlalchemy import text

    from app.store.migrations import alembic_config

    command.upgrade(alembic_config(empty_database_url), "0004_bots")
    countdown = {"kind": "byoyomi", "main": 1200, "periods": 3, "period_time": 60, "preset": "chinese_countdown"}
    rows = {  # id: (size, rules, komi, handicap, time control)
        "cd": (19, "chinese", 7.5, 0, countdown),
        "h5": (8, "chinese", 0.5, 5, {"kind": "none"}),
        "h1": (9, "japanese", 0.5, 1, {"kind": "absolute", "main": 60}),
        "h4": (13, "aga", 0.5, 4, {"kind": "fischer", "main": 300, "increment": 5}),
    }

    async def run(statements: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        engine = create_engine(empty_database_url)
        try:
            async with engine.begin() as connection:
                out: list[Any] = []
                for statement, params in statements:
                    result = await connection.execute(text(statement), params)
                    out.append(result.all() if statement.startswith("SELECT") else None)
                return out
        finally:
            await engine.dispose()

    now = datetime(2025, 1, 1, tzinfo=UTC)
    inserts: list[tuple[str, dict[str, Any]]] = [
        (
            "INSERT INTO users (id, name, name_key, is_guest, session_version, created_at) VALUES (1, 'a', 'a', true, 0, :now)",
            {"now": now},
        )
    ]
    for game_id, (size, rules, komi, handicap, tc) in rows.items():
        inserts.append(
            (
                "INSERT INTO games (id, board_size, rules, rules_params, komi, handicap, time_control, rated, black_id, "
                "white_id, status, move_count, version, state, created_at, started_at, updated_at) VALUES (:id, :size, "
                ":rules, '{}', :komi, :handicap, :tc, false, 1, 1, 'playing', 0, 0, '{}', :now, :now, :now)",
                {
                    "id": game_id,
                    "size": size,
                    "rules": rules,
                    "komi": komi,
                    "handicap": handicap,
                    "now": now,
                    "tc": orjson.dumps(tc).decode(),
                },
            )
        )
    inserts.append(
        (
            "INSERT INTO challenges (id, creator_id, board_size, rules, komi, handicap, color, time_control, rated, "
            "private, status, created_at) VALUES ('c1', 1, 19, 'chinese', 7.5, 0, 'black', :tc, false, false, 'open', "
            ":now)",
            {"tc": orjson.dumps(countdown).decode(), "now": now},
        )
    )
    asyncio.run(run(inserts))

    upgrade_to_head(empty_database_url)
    games, challenges = asyncio.run(
        run([("SELECT id, config, handicap, time_control FROM games", {}), ("SELECT time_control FROM challenges", {})])
    )
    stored = {row[0]: (_json(row[1]), row[2], _json(row[3])) for row in games}
    assert set(stored) == set(rows)
    for game_id, (config, handicap, tc) in stored.items():
        parsed = GameConfig.from_dict(config)  # the room builds every game from this alone
        assert parsed.size == rows[game_id][0] and parsed.rules.komi == rows[game_id][2]
        assert (parsed.handicap, parsed.time_control.to_dict()) == (handicap, tc)
        assert {"lag", "scoring_timeout", "abandon_grace"} <= set(config)
    counted = {"kind": "chinese_countdown", "main": 1200, "periods": 3, "period_time": 60}
    assert stored["cd"][2] == counted and _json(challenges[0][0]) == counted
    assert stored["h5"][1] == 0 and stored["h1"][1] == 0 and stored["h4"][1] == 4
    assert stored["h1"][0]["rules"]["name"] == "japanese"


def _json(value: Any) -> Any:
    return orjson.loads(value) if isinstance(value, str | bytes) else value


def test_ai_reviews_keep_their_figures_keyed_by_subject(empty_database_url: str) -> None:
    """0015: the reviews of 0014 keep their figures, keyed by their game as subject, still deleted with their game;
    down again, the records' reviews go and the games' stay."""
    from alembic import command
    from sqlalchemy import text

    from app.store.migrations import alembic_config

    async def run(statements: list[str], params: dict[str, Any] | None = None) -> list[Any]:
        engine = create_engine(empty_database_url)
        try:
            async with engine.begin() as connection:
                out: list[Any] = []
                for statement in statements:
                    result = await connection.execute(text(statement), params or {})
                    out.append(result.all() if statement.startswith("SELECT") else None)
                return out
        finally:
            await engine.dispose()

    command.upgrade(alembic_config(empty_database_url), "0014_ai_reviews")
    now = {"now": datetime(2026, 12, 1, tzinfo=UTC)}
    game = (
        "INSERT INTO games (id, board_size, rules, rules_params, komi, handicap, time_control, config, rated, black_id, "
        "white_id, status, move_count, version, state, created_at, started_at, updated_at) VALUES ('{id}', 9, "
        "'chinese', '{{}}', 7.5, 0, '{{}}', '{{}}', false, 1, 1, 'finished', 0, 0, '{{}}', :now, :now, :now)"
    )
    review = (
        "INSERT INTO ai_reviews (game_id, depth, state, total, evaluations, automatic, requested_at, updated_at) "
        "VALUES ('{id}', 'quick', 'done', 1, 1, false, :now, :now)"
    )
    position = "INSERT INTO ai_review_positions (game_id, i, depth, figure) VALUES ('{id}', 0, 'quick', '{{\"i\": 0}}')"
    asyncio.run(
        run(
            [
                "INSERT INTO users (id, name, name_key, is_guest, session_version, created_at) "
                "VALUES (1, 'a', 'a', true, 0, :now)",
                *(statement.format(id=game_id) for game_id in ("g1", "g2") for statement in (game, review, position)),
            ],
            now,
        )
    )
    upgrade_to_head(empty_database_url)
    reviews, positions = asyncio.run(
        run(
            [
                "SELECT subject, game_id, record_id FROM ai_reviews ORDER BY subject",
                "SELECT subject, i, figure FROM ai_review_positions ORDER BY subject",
            ]
        )
    )
    assert reviews == [("g1", "g1", None), ("g2", "g2", None)]
    assert [(s, i, _json(f)) for s, i, f in positions] == [("g1", 0, {"i": 0}), ("g2", 0, {"i": 0})]
    asyncio.run(
        run(
            [
                "DELETE FROM games WHERE id = 'g2'",
                "INSERT INTO ai_review_records (id, user_id, title, board_size, config, moves, created_at) "
                "VALUES ('r1', 1, 't', 9, '{}', '[]', :now)",
                "INSERT INTO ai_reviews (subject, record_id, depth, state, total, evaluations, automatic, requested_at, "
                "updated_at) VALUES ('record:r1', 'r1', 'quick', 'done', 1, 1, false, :now, :now)",
            ],
            now,
        )
    )
    assert asyncio.run(run(["SELECT subject FROM ai_reviews ORDER BY subject"]))[0] == [("g1",), ("record:r1",)]

    command.downgrade(alembic_config(empty_database_url), "0014_ai_reviews")
    reviews, positions = asyncio.run(run(["SELECT game_id FROM ai_reviews", "SELECT game_id, i FROM ai_review_positions"]))
    assert reviews == [("g1",)] and positions == [("g1", 0)]
