"""Server marks: the servers' heartbeat, so a restart knows how long nobody was serving.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_marks",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_marks")),
    )


def downgrade() -> None:
    op.drop_table("server_marks")
