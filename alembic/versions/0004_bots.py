"""Bots and API tokens: bot accounts (owner, what they accept), challenges addressed to one player, tokens.

Revision ID: 0004_bots
Revises: 0003_ratings
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0004_bots"
down_revision = "0003_ratings"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)
OLD_STATUSES = "status IN ('open', 'accepted', 'cancelled')"
NEW_STATUSES = "status IN ('open', 'accepted', 'cancelled', 'declined')"


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("is_bot", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("bot_accepts", JSON, nullable=True))
        batch.create_foreign_key(op.f("fk_users_owner_id_users"), "users", ["owner_id"], ["id"], ondelete="CASCADE")
        batch.create_index(op.f("ix_users_owner_id"), ["owner_id"])
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("opponent_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("decline_reason", sa.String(200), nullable=True))
        batch.create_foreign_key(
            op.f("fk_challenges_opponent_id_users"), "users", ["opponent_id"], ["id"], ondelete="CASCADE"
        )
        batch.create_index(op.f("ix_challenges_opponent_id"), ["opponent_id"])
        batch.drop_constraint(op.f("ck_challenges_status"), type_="check")
        batch.create_check_constraint(op.f("ck_challenges_status"), NEW_STATUSES)
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("scopes", JSON, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("last_used_at", TIMESTAMP, nullable=True),
        sa.Column("revoked_at", TIMESTAMP, nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_api_tokens_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_tokens")),
        sa.UniqueConstraint("digest", name=op.f("uq_api_tokens_digest")),
    )
    op.create_index(op.f("ix_api_tokens_user_id"), "api_tokens", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_api_tokens_user_id"), table_name="api_tokens")
    op.drop_table("api_tokens")
    op.execute("UPDATE challenges SET status = 'cancelled' WHERE status = 'declined'")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_constraint(op.f("ck_challenges_status"), type_="check")
        batch.create_check_constraint(op.f("ck_challenges_status"), OLD_STATUSES)
        batch.drop_index(op.f("ix_challenges_opponent_id"))
        batch.drop_constraint(op.f("fk_challenges_opponent_id_users"), type_="foreignkey")
        batch.drop_column("decline_reason")
        batch.drop_column("opponent_id")
    with op.batch_alter_table("users") as batch:
        batch.drop_index(op.f("ix_users_owner_id"))
        batch.drop_constraint(op.f("fk_users_owner_id_users"), type_="foreignkey")
        batch.drop_column("bot_accepts")
        batch.drop_column("owner_id")
        batch.drop_column("is_bot")
