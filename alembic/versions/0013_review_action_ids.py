"""The ids of a review's latest actions, stored with each change, so that a retry through another instance is
answered with the first one's ack instead of applied again.

Revision ID: 0013_review_action_ids
Revises: 0012_game_turns
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0013_review_action_ids"
down_revision = "0012_game_turns"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("reviews") as batch:
        batch.add_column(sa.Column("action_ids", JSON, nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("reviews") as batch:
        batch.drop_column("action_ids")
