"""Ladders (app/ladders, docs/ladders.md): the ladders, their rungs, challenges and history; a 9x9 and a 19x19
ladder seeded.

Revision ID: 0016_ladders
Revises: 0015_ai_review_records
Create Date: 2026-12-03
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0016_ladders"
down_revision = "0015_ai_review_records"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)

# The seeded ladders: live games on 9x9 and 19x19 (app/lobby/speeds.py says "live" for both time controls).
SEEDED = [
    {
        "id": "9x9-live",
        "board_size": 9,
        "speed": "live",
        "rules": "japanese",
        "time_control": {"kind": "byoyomi", "main": 300, "periods": 3, "period_time": 20},
        "rated": True,
        "reach": 3,
        "max_outgoing": 1,
        "max_incoming": 2,
        "rechallenge_hours": 24.0,
        "answer_hours": 48.0,
        "capacity": 1000,
        "version": 0,
    },
    {
        "id": "19x19-live",
        "board_size": 19,
        "speed": "live",
        "rules": "japanese",
        "time_control": {"kind": "byoyomi", "main": 1200, "periods": 5, "period_time": 30},
        "rated": True,
        "reach": 3,
        "max_outgoing": 1,
        "max_incoming": 2,
        "rechallenge_hours": 24.0,
        "answer_hours": 48.0,
        "capacity": 1000,
        "version": 0,
    },
]


def upgrade() -> None:
    ladders = op.create_table(
        "ladders",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("board_size", sa.Integer(), nullable=False),
        sa.Column("speed", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("time_control", JSON, nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("reach", sa.Integer(), nullable=False),
        sa.Column("max_outgoing", sa.Integer(), nullable=False),
        sa.Column("max_incoming", sa.Integer(), nullable=False),
        sa.Column("rechallenge_hours", sa.Float(), nullable=False),
        sa.Column("answer_hours", sa.Float(), nullable=False),
        sa.Column("capacity", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("board_size BETWEEN 2 AND 25", name=op.f("ck_ladders_board_size")),
        sa.CheckConstraint("reach >= 1", name=op.f("ck_ladders_reach")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ladders")),
    )
    op.create_table(
        "ladder_rungs",
        sa.Column("ladder_id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("joined_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladders.id"], name=op.f("fk_ladder_rungs_ladder_id_ladders"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_ladder_rungs_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("ladder_id", "user_id", name=op.f("pk_ladder_rungs")),
    )
    op.create_index("ix_ladder_rungs_ladder_id_position", "ladder_rungs", ["ladder_id", "position"])
    op.create_index(op.f("ix_ladder_rungs_user_id"), "ladder_rungs", ["user_id"])
    op.create_table(
        "ladder_challenges",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("ladder_id", sa.String(32), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("defender_id", sa.Integer(), nullable=False),
        sa.Column("color", sa.String(8), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("challenger_position", sa.Integer(), nullable=False),
        sa.Column("defender_position", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("answer_by", TIMESTAMP, nullable=False),
        sa.Column("settled_at", TIMESTAMP, nullable=True),
        sa.CheckConstraint("status IN ('open', 'playing', 'settled')", name=op.f("ck_ladder_challenges_status")),
        sa.CheckConstraint(
            "outcome IS NULL OR outcome IN ('challenger_won', 'defender_won', 'declined', 'expired', 'void')",
            name=op.f("ck_ladder_challenges_outcome"),
        ),
        sa.CheckConstraint("color IN ('black', 'white', 'nigiri')", name=op.f("ck_ladder_challenges_color")),
        sa.ForeignKeyConstraint(
            ["ladder_id"], ["ladders.id"], name=op.f("fk_ladder_challenges_ladder_id_ladders"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["challenger_id"], ["users.id"], name=op.f("fk_ladder_challenges_challenger_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["defender_id"], ["users.id"], name=op.f("fk_ladder_challenges_defender_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_ladder_challenges_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ladder_challenges")),
        sa.UniqueConstraint("game_id", name=op.f("uq_ladder_challenges_game_id")),
    )
    op.create_index("ix_ladder_challenges_ladder_id_status", "ladder_challenges", ["ladder_id", "status"])
    op.create_index("ix_ladder_challenges_status_answer_by", "ladder_challenges", ["status", "answer_by"])
    op.create_index(op.f("ix_ladder_challenges_challenger_id"), "ladder_challenges", ["challenger_id"])
    op.create_index(op.f("ix_ladder_challenges_defender_id"), "ladder_challenges", ["defender_id"])
    op.create_table(
        "ladder_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("ladder_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("other_id", sa.Integer(), nullable=True),
        sa.Column("challenge_id", sa.String(16), nullable=True),
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("position", sa.Integer(), nullable=True),
        sa.Column("at", TIMESTAMP, nullable=False),
        sa.CheckConstraint(
            "kind IN ('joined', 'left', 'challenger_won', 'defender_won', 'declined', 'expired', 'void')",
            name=op.f("ck_ladder_events_kind"),
        ),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladders.id"], name=op.f("fk_ladder_events_ladder_id_ladders"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_ladder_events_user_id_users"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["other_id"], ["users.id"], name=op.f("fk_ladder_events_other_id_users"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["challenge_id"],
            ["ladder_challenges.id"],
            name=op.f("fk_ladder_events_challenge_id_ladder_challenges"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ladder_events")),
        sa.UniqueConstraint("challenge_id", name=op.f("uq_ladder_events_challenge_id")),
    )
    op.create_index("ix_ladder_events_ladder_id_id", "ladder_events", ["ladder_id", "id"])
    now = datetime.now(UTC)
    op.bulk_insert(ladders, [{**row, "created_at": now} for row in SEEDED])


def downgrade() -> None:
    op.drop_index("ix_ladder_events_ladder_id_id", table_name="ladder_events")
    op.drop_table("ladder_events")
    op.drop_index(op.f("ix_ladder_challenges_defender_id"), table_name="ladder_challenges")
    op.drop_index(op.f("ix_ladder_challenges_challenger_id"), table_name="ladder_challenges")
    op.drop_index("ix_ladder_challenges_status_answer_by", table_name="ladder_challenges")
    op.drop_index("ix_ladder_challenges_ladder_id_status", table_name="ladder_challenges")
    op.drop_table("ladder_challenges")
    op.drop_index(op.f("ix_ladder_rungs_user_id"), table_name="ladder_rungs")
    op.drop_index("ix_ladder_rungs_ladder_id_position", table_name="ladder_rungs")
    op.drop_table("ladder_rungs")
    op.drop_table("ladders")
