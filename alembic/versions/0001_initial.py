"""Initial tables: users, games, challenges, moves, chat messages, game events.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("session_version", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("registered_at", TIMESTAMP, nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("name_key", name=op.f("uq_users_name_key")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("board_size", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("rules_params", JSON, nullable=False),
        sa.Column("komi", sa.Float(), nullable=False),
        sa.Column("handicap", sa.Integer(), nullable=False),
        sa.Column("time_control", JSON, nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("black_id", sa.Integer(), nullable=False),
        sa.Column("white_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.String(32), nullable=True),
        sa.Column("ended_by", sa.String(16), nullable=True),
        sa.Column("move_count", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("started_at", TIMESTAMP, nullable=False),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.Column("ended_at", TIMESTAMP, nullable=True),
        sa.CheckConstraint("board_size BETWEEN 2 AND 25", name=op.f("ck_games_board_size")),
        sa.CheckConstraint("handicap BETWEEN 0 AND 9", name=op.f("ck_games_handicap")),
        sa.ForeignKeyConstraint(["black_id"], ["users.id"], name=op.f("fk_games_black_id_users")),
        sa.ForeignKeyConstraint(["white_id"], ["users.id"], name=op.f("fk_games_white_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_black_id"), "games", ["black_id"])
    op.create_index(op.f("ix_games_white_id"), "games", ["white_id"])
    op.create_index("ix_games_status_started_at", "games", ["status", "started_at"])

    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=False),
        sa.Column("board_size", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("komi", sa.Float(), nullable=False),
        sa.Column("handicap", sa.Integer(), nullable=False),
        sa.Column("color", sa.String(8), nullable=False),
        sa.Column("time_control", JSON, nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("status IN ('open', 'accepted', 'cancelled')", name=op.f("ck_challenges_status")),
        sa.CheckConstraint("color IN ('black', 'white', 'nigiri')", name=op.f("ck_challenges_color")),
        sa.ForeignKeyConstraint(
            ["creator_id"], ["users.id"], name=op.f("fk_challenges_creator_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_challenges_game_id_games"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
        sa.UniqueConstraint("token", name=op.f("uq_challenges_token")),
    )
    op.create_index(op.f("ix_challenges_creator_id"), "challenges", ["creator_id"])
    op.create_index("ix_challenges_status_created_at", "challenges", ["status", "created_at"])

    op.create_table(
        "moves",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("color", sa.String(1), nullable=False),
        sa.Column("x", sa.Integer(), nullable=True),
        sa.Column("y", sa.Integer(), nullable=True),
        sa.Column("time_taken", sa.Float(), nullable=True),
        sa.Column("clock_after", JSON, nullable=True),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("color IN ('B', 'W')", name=op.f("ck_moves_color")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_moves_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_moves")),
        sa.UniqueConstraint("game_id", "number", name="uq_moves_game_id_number"),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("channel IN ('players', 'spectators')", name=op.f("ck_chat_messages_channel")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_chat_messages_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_chat_messages_user_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    op.create_index("ix_chat_messages_game_id_id", "chat_messages", ["game_id", "id"])

    op.create_table(
        "game_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("v", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_events_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_events")),
        sa.UniqueConstraint("game_id", "v", name="uq_game_events_game_id_v"),
    )


def downgrade() -> None:
    op.drop_table("game_events")
    op.drop_index("ix_chat_messages_game_id_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_table("moves")
    op.drop_index("ix_challenges_status_created_at", table_name="challenges")
    op.drop_index(op.f("ix_challenges_creator_id"), table_name="challenges")
    op.drop_table("challenges")
    op.drop_index("ix_games_status_started_at", table_name="games")
    op.drop_index(op.f("ix_games_white_id"), table_name="games")
    op.drop_index(op.f("ix_games_black_id"), table_name="games")
    op.drop_table("games")
    op.drop_table("users")
