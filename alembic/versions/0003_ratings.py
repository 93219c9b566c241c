"""Ratings: per-player Glicko-2 figures, the once-per-game rating updates and each game's before/after figures.

Revision ID: 0003_ratings
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

TIMESTAMP = sa.DateTime(timezone=True)

revision = "0003_ratings"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("strength", sa.String(8), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(8), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_ratings_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "category", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_category_rating", "ratings", ["category", "rating"])
    op.create_table(
        "rating_updates",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(32), nullable=True),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("status IN ('rated', 'unrated', 'annulled')", name=op.f("ck_rating_updates_status")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_rating_updates_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_rating_updates")),
        sa.UniqueConstraint("game_id", name=op.f("uq_rating_updates_game_id")),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(8), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("expected", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("deviation_before", sa.Float(), nullable=False),
        sa.Column("volatility_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("deviation_after", sa.Float(), nullable=False),
        sa.Column("volatility_after", sa.Float(), nullable=False),
        sa.Column("at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_rating_changes_game_id_games"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_rating_changes_user_id_users"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["opponent_id"], ["users.id"], name=op.f("fk_rating_changes_opponent_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_changes")),
        sa.UniqueConstraint("game_id", "user_id", "category", name="uq_rating_changes_game_id_user_id_category"),
    )
    op.create_index("ix_rating_changes_user_id_category_seq", "rating_changes", ["user_id", "category", "seq"])
    op.create_index(op.f("ix_rating_changes_seq"), "rating_changes", ["seq"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("rating_updates")
    op.drop_table("ratings")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("strength")
