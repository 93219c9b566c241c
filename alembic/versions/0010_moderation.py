"""Moderation: roles, blocks, reports, the audit log, and the sanctions a user is under.

Revision ID: 0010_moderation
Revises: 0009_correspondence
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.store.types import JSONType, UTCDateTime

revision = "0010_moderation"
down_revision = "0009_correspondence"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no batch copy of ``users``): SQLite cannot drop a table other rows point to.
    op.add_column("users", sa.Column("muted_until", UTCDateTime(), nullable=True))
    op.add_column("users", sa.Column("suspended_until", UTCDateTime(), nullable=True))
    op.add_column("users", sa.Column("banned", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "user_roles",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE",
                                                         name="fk_user_roles_user_id_users"), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("granted_at", UTCDateTime(), nullable=False),
        sa.CheckConstraint("role IN ('moderator', 'admin')", name="ck_user_roles_role"),
        sa.PrimaryKeyConstraint("user_id", "role", name="pk_user_roles"),
    )
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE",
                                                            name="fk_blocks_blocker_id_users"), nullable=False),
        sa.Column("blocked_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE",
                                                            name="fk_blocks_blocked_id_users"), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("blocker_id", "blocked_id", name="pk_blocks"),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE",
                                                             name="fk_reports_reporter_id_users"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE",
                                                         name="fk_reports_user_id_users"), nullable=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="SET NULL",
                                                          name="fk_reports_game_id_games"), nullable=True),
        sa.Column("chat_v", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("closed_at", UTCDateTime(), nullable=True),
        sa.Column("closed_by", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL",
                                                           name="fk_reports_closed_by_users"), nullable=True),
        sa.Column("resolution", sa.String(500), nullable=True),
        sa.CheckConstraint("kind IN ('user', 'game', 'chat')", name="ck_reports_kind"),
        sa.CheckConstraint("status IN ('received', 'closed')", name="ck_reports_status"),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    op.create_index("ix_reports_reporter_id", "reports", ["reporter_id"])
    op.create_index("ix_reports_user_id", "reports", ["user_id"])
    op.create_index("ix_reports_status_id", "reports", ["status", "id"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("actor_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL",
                                                          name="fk_audit_log_actor_id_users"), nullable=True),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target_user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL",
                                                                name="fk_audit_log_target_user_id_users"),
                  nullable=True),
        sa.Column("target", sa.String(40), nullable=True),
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("details", JSONType, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_audit_log"),
    )
    op.create_index("ix_audit_log_target_user_id_id", "audit_log", ["target_user_id", "id"])


def downgrade() -> None:
    op.drop_table("audit_log")
    op.drop_table("reports")
    op.drop_table("blocks")
    op.drop_table("user_roles")
    for column in ("banned", "suspended_until", "muted_until"):
        op.drop_column("users", column)
