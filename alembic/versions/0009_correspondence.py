"""Correspondence settings per player: weekend pause, time zone, vacation balance.

Revision ID: 0009_correspondence
Revises: 0008_mail
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_correspondence"
down_revision = "0008_mail"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "correspondence_settings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("weekend_pause", sa.Boolean(), nullable=False),
        sa.Column("time_zone", sa.String(64), nullable=False),
        sa.Column("vacation_banked", sa.Float(), nullable=False),
        sa.Column("vacation_banked_at", sa.Float(), nullable=False),
        sa.Column("vacation_since", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_correspondence_settings_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_correspondence_settings")),
    )
    op.create_index(op.f("ix_correspondence_settings_vacation_since"), "correspondence_settings",
                    ["vacation_since"])


def downgrade() -> None:
    op.drop_index(op.f("ix_correspondence_settings_vacation_since"), table_name="correspondence_settings")
    op.drop_table("correspondence_settings")
