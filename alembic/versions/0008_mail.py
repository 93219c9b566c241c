"""Email: addresses on accounts, the notices waiting for a digest, and the outbox the mail worker sends.

Revision ID: 0008_mail
Revises: 0007_reviews
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sqlalchemy.dialects import postgresql

revision = "0008_mail"
down_revision = "0007_reviews"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    # Plain ADD COLUMN (no table copy on SQLite: other tables' rows point at users).
    op.add_column("users", sa.Column("email", sa.String(254), nullable=True))
    op.add_column("users", sa.Column("email_key", sa.String(254), nullable=True))
    op.add_column("users", sa.Column("email_pending", sa.String(254), nullable=True))
    op.add_column("users", sa.Column("mail_mode", sa.String(16), nullable=False, server_default="digest"))
    op.create_index("ix_users_email_key", "users", ["email_key"], unique=True)
    op.create_table(
        "mail_notices",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE",
                                                          name="fk_mail_notices_user_id_users"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("ref", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("payload", JSONType, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_mail_notices"),
        sa.UniqueConstraint("user_id", "kind", "ref", "seq", name="uq_mail_notices_user_id_kind_ref_seq"),
        sa.CheckConstraint("state IN ('waiting', 'mailed', 'dropped')", name="ck_mail_notices_state"),
    )
    op.create_index("ix_mail_notices_state_user_id", "mail_notices", ["state", "user_id"])
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL",
                                                          name="fk_mail_outbox_user_id_users"), nullable=True),
        sa.Column("to_addr", sa.String(254), nullable=False),
        sa.Column("to_key", sa.String(254), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("unsubscribe_url", sa.String(1000), nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", sa.Float(), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claim_until", sa.Float(), nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_mail_outbox"),
        sa.UniqueConstraint("key", name="uq_mail_outbox_key"),
        sa.CheckConstraint("state IN ('pending', 'sent', 'failed')", name="ck_mail_outbox_state"),
    )
    op.create_index("ix_mail_outbox_state_next_at", "mail_outbox", ["state", "next_at"])
    op.create_index("ix_mail_outbox_to_key_created_at", "mail_outbox", ["to_key", "created_at"])
    op.create_index("ix_mail_outbox_user_id_created_at", "mail_outbox", ["user_id", "created_at"])


def downgrade() -> None:
    op.drop_table("mail_outbox")
    op.drop_table("mail_notices")
    op.drop_index("ix_users_email_key", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("mail_mode")
        batch.drop_column("email_pending")
        batch.drop_column("email_key")
        batch.drop_column("email")
