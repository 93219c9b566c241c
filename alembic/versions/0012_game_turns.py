"""Whose turn it is in each game and its next deadline, for the lobby's "your turn" list.

Revision ID: 0012_game_turns
Revises: 0011_mail_language
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_game_turns"
down_revision = "0011_mail_language"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("to_move", sa.String(1), nullable=True))
        batch.add_column(sa.Column("turn_deadline", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("turn_deadline")
        batch.drop_column("to_move")
