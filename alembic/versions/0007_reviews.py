"""Shared reviews: a game tree led by its owner (or whom the owner hands control to) and followed live.

Revision ID: 0007_reviews
Revises: 0006_challenge_ranks
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0007_reviews"
down_revision = "0006_challenge_ranks"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("controller_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("board_size", sa.Integer(), nullable=False),
        sa.Column("tree", JSON, nullable=False),
        sa.Column("current", sa.Integer(), nullable=False),
        sa.Column("chat", JSON, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], name=op.f("fk_reviews_owner_id_users"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["controller_id"], ["users.id"], name=op.f("fk_reviews_controller_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_reviews_game_id_games"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reviews")),
    )
    op.create_index(op.f("ix_reviews_owner_id"), "reviews", ["owner_id"])
    op.create_index("ix_reviews_game_id_created_at", "reviews", ["game_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_reviews_game_id_created_at", table_name="reviews")
    op.drop_index(op.f("ix_reviews_owner_id"), table_name="reviews")
    op.drop_table("reviews")
