"""KataGo's reviews of finished games (app/ai_review): one row a game, one a position with its figures.

Revision ID: 0014_ai_reviews
Revises: 0013_review_action_ids
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0014_ai_reviews"
down_revision = "0013_review_action_ids"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ai_reviews",
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("depth", sa.String(8), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("evaluations", sa.Integer(), nullable=False),
        sa.Column("automatic", sa.Boolean(), nullable=False),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("requested_at", TIMESTAMP, nullable=False),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("depth IN ('quick', 'deep')", name=op.f("ck_ai_reviews_depth")),
        sa.CheckConstraint("state IN ('queued', 'running', 'done', 'failed')", name=op.f("ck_ai_reviews_state")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_ai_reviews_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_ai_reviews")),
    )
    op.create_index("ix_ai_reviews_state", "ai_reviews", ["state"])
    op.create_table(
        "ai_review_positions",
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("i", sa.Integer(), nullable=False),
        sa.Column("depth", sa.String(8), nullable=False),
        sa.Column("figure", JSON, nullable=False),
        sa.CheckConstraint("depth IN ('quick', 'deep')", name=op.f("ck_ai_review_positions_depth")),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["ai_reviews.game_id"],
            name=op.f("fk_ai_review_positions_game_id_ai_reviews"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "i", name=op.f("pk_ai_review_positions")),
    )


def downgrade() -> None:
    op.drop_table("ai_review_positions")
    op.drop_index("ix_ai_reviews_state", table_name="ai_reviews")
    op.drop_table("ai_reviews")
