"""Challenges limited to a rank range, and automatic handicap from the two players' ranks.

Revision ID: 0006_challenge_ranks
Revises: 0005_game_config
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_challenge_ranks"
down_revision = "0005_game_config"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("min_rank", sa.String(4), nullable=True))
        batch.add_column(sa.Column("max_rank", sa.String(4), nullable=True))
        batch.add_column(sa.Column("auto_handicap", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("auto_handicap")
        batch.drop_column("max_rank")
        batch.drop_column("min_rank")
