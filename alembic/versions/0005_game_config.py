"""Each game stores its whole configuration (``games.config``); Chinese countdown stored as its own kind.

Before, a room rebuilt a game's settings from the table's columns and took lag compensation, the scoring
timeout and the abandonment grace from the code's current defaults. Existing games get the configuration
they were being played with, read by the game's own rules and frozen as it is today:

- a time control stored as byo-yomi with ``"preset": "chinese_countdown"`` (which the game refused)
  becomes ``{"kind": "chinese_countdown", "main", "periods", "period_time": 60}``, in games and in
  challenges alike;
- a handicap of 1 was played as no handicap, and still is;
- a handicap the board cannot hold (e.g. 5 on 8x8: such games could never be opened) is dropped, so the
  game opens as an even game its players can abort.

Revision ID: 0005_game_config
Revises: 0004_bots
Create Date: 2026-11-30
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from app.games.config import parse_config
from app.games.errors import GameError

revision = "0005_game_config"
down_revision = "0004_bots"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _time_control(stored: dict[str, Any] | None) -> dict[str, Any]:
    stored = dict(stored or {"kind": "none"})
    if stored.get("preset") == "chinese_countdown":
        return {"kind": "chinese_countdown", "main": stored.get("main", 1800), "periods": stored.get("periods", 3),
                "period_time": 60}
    stored.pop("preset", None)
    return stored


def _config(size: int, rules: str, komi: float, handicap: int, time_control: dict[str, Any]) -> dict[str, Any]:
    base = {"size": size, "rules": {"preset": rules, "komi": komi}, "time_control": time_control}
    for hc in ((handicap if handicap >= 2 else 0), 0):
        try:
            return parse_config({**base, "handicap": hc}).to_dict()
        except GameError:
            continue
    return parse_config({**base, "time_control": {"kind": "none"}}).to_dict()


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("config", JSON, nullable=True))
    bind = op.get_bind()
    games = sa.table(
        "games", sa.column("id", sa.String), sa.column("board_size", sa.Integer), sa.column("rules", sa.String),
        sa.column("komi", sa.Float), sa.column("handicap", sa.Integer), sa.column("time_control", JSON),
        sa.column("config", JSON),
    )
    rows = bind.execute(sa.select(games.c.id, games.c.board_size, games.c.rules, games.c.komi, games.c.handicap,
                                  games.c.time_control)).all()
    for row in rows:
        config = _config(row.board_size, row.rules, row.komi, row.handicap, _time_control(row.time_control))
        bind.execute(sa.update(games).where(games.c.id == row.id).values(
            config=config, handicap=config["handicap"], time_control=config["time_control"]))
    with op.batch_alter_table("games") as batch:
        batch.alter_column("config", existing_type=JSON, nullable=False)

    challenges = sa.table("challenges", sa.column("id", sa.String), sa.column("time_control", JSON))
    for row in bind.execute(sa.select(challenges.c.id, challenges.c.time_control)).all():
        if (row.time_control or {}).get("preset") is not None:
            bind.execute(sa.update(challenges).where(challenges.c.id == row.id).values(
                time_control=_time_control(row.time_control)))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("config")
