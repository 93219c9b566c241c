"""The language an account's mail is written in.

Revision ID: 0011_mail_language
Revises: 0010_moderation
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_mail_language"
down_revision = "0010_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("mail_language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("mail_language")
