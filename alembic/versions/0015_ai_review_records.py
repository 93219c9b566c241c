"""Uploaded records for KataGo's review (app/ai_review, docs/review.md "Uploaded records"): their table, and the
review rows keyed by a subject (a game's id, or ``record:`` and a record's id) with the game or the record each
belongs to, instead of by game alone.

SQLite cannot drop a foreign key in place, and copying ``ai_reviews`` the batch way would drop the old table
under its positions (deleting them by their cascade): there the two tables are renamed aside, made anew, filled
from the old ones, and the old ones dropped children first. PostgreSQL alters them in place.

Revision ID: 0015_ai_review_records
Revises: 0014_ai_reviews
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0015_ai_review_records"
down_revision = "0014_ai_reviews"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)


def _reviews_table(key: str, subject_type: sa.types.TypeEngine, new: bool) -> None:
    """``ai_reviews`` and ``ai_review_positions`` as of this revision (``new``) or of 0014, their key ``key``."""
    extra: list[sa.schema.SchemaItem] = []
    if new:
        extra = [
            sa.Column("game_id", sa.String(16), nullable=True),
            sa.Column("record_id", sa.String(16), nullable=True),
            sa.CheckConstraint("(game_id IS NULL) <> (record_id IS NULL)", name=op.f("ck_ai_reviews_one_subject")),
            sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_ai_reviews_game_id_games"), ondelete="CASCADE"),
            sa.ForeignKeyConstraint(
                ["record_id"], ["ai_review_records.id"], name=op.f("fk_ai_reviews_record_id_ai_review_records"), ondelete="CASCADE"
            ),
        ]
    else:
        extra = [sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_ai_reviews_game_id_games"), ondelete="CASCADE")]
    op.create_table(
        "ai_reviews",
        sa.Column(key, subject_type, nullable=False),
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
        *extra,
        sa.PrimaryKeyConstraint(key, name=op.f("pk_ai_reviews")),
    )
    op.create_index("ix_ai_reviews_state", "ai_reviews", ["state"])
    if new:
        op.create_index("ix_ai_reviews_game_id", "ai_reviews", ["game_id"])
        op.create_index("ix_ai_reviews_record_id", "ai_reviews", ["record_id"])
    op.create_table(
        "ai_review_positions",
        sa.Column(key, subject_type, nullable=False),
        sa.Column("i", sa.Integer(), nullable=False),
        sa.Column("depth", sa.String(8), nullable=False),
        sa.Column("figure", JSON, nullable=False),
        sa.CheckConstraint("depth IN ('quick', 'deep')", name=op.f("ck_ai_review_positions_depth")),
        sa.ForeignKeyConstraint(
            [key], [f"ai_reviews.{key}"], name=op.f(f"fk_ai_review_positions_{key}_ai_reviews"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint(key, "i", name=op.f("pk_ai_review_positions")),
    )


COLUMNS = "depth, state, total, evaluations, automatic, error, requested_at, updated_at"


def _sqlite_remake(new: bool) -> None:
    op.execute("ALTER TABLE ai_review_positions RENAME TO old_ai_review_positions")
    op.execute("ALTER TABLE ai_reviews RENAME TO old_ai_reviews")
    op.execute("DROP INDEX ix_ai_reviews_state")
    if new:
        _reviews_table("subject", sa.String(24), new=True)
        op.execute(f"INSERT INTO ai_reviews (subject, game_id, {COLUMNS}) SELECT game_id, game_id, {COLUMNS} FROM old_ai_reviews")
        op.execute("INSERT INTO ai_review_positions (subject, i, depth, figure) SELECT game_id, i, depth, figure FROM old_ai_review_positions")
    else:
        _reviews_table("game_id", sa.String(16), new=False)
        op.execute(f"INSERT INTO ai_reviews (game_id, {COLUMNS}) SELECT game_id, {COLUMNS} FROM old_ai_reviews WHERE game_id IS NOT NULL")
        op.execute(
            "INSERT INTO ai_review_positions (game_id, i, depth, figure) SELECT p.subject, p.i, p.depth, p.figure"
            " FROM old_ai_review_positions p JOIN old_ai_reviews r ON r.subject = p.subject WHERE r.game_id IS NOT NULL"
        )
    op.execute("DROP TABLE old_ai_review_positions")  # the children first: nothing cascades
    op.execute("DROP TABLE old_ai_reviews")


def upgrade() -> None:
    op.create_table(
        "ai_review_records",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("review_id", sa.String(16), nullable=True),
        sa.Column("board_size", sa.Integer(), nullable=False),
        sa.Column("config", JSON, nullable=False),
        sa.Column("moves", JSON, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_ai_review_records_user_id_users"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["review_id"], ["reviews.id"], name=op.f("fk_ai_review_records_review_id_reviews"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ai_review_records")),
    )
    op.create_index("ix_ai_review_records_user_id_created_at", "ai_review_records", ["user_id", "created_at"])
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_remake(new=True)
        return
    op.drop_constraint(op.f("fk_ai_review_positions_game_id_ai_reviews"), "ai_review_positions", type_="foreignkey")
    op.drop_constraint(op.f("fk_ai_reviews_game_id_games"), "ai_reviews", type_="foreignkey")
    for table in ("ai_reviews", "ai_review_positions"):
        op.alter_column(table, "game_id", new_column_name="subject", type_=sa.String(24), existing_nullable=False)
    op.add_column("ai_reviews", sa.Column("game_id", sa.String(16), nullable=True))
    op.add_column("ai_reviews", sa.Column("record_id", sa.String(16), nullable=True))
    op.execute("UPDATE ai_reviews SET game_id = subject")
    op.create_foreign_key(op.f("fk_ai_reviews_game_id_games"), "ai_reviews", "games", ["game_id"], ["id"], ondelete="CASCADE")
    op.create_foreign_key(
        op.f("fk_ai_reviews_record_id_ai_review_records"), "ai_reviews", "ai_review_records", ["record_id"], ["id"], ondelete="CASCADE"
    )
    op.create_foreign_key(
        op.f("fk_ai_review_positions_subject_ai_reviews"),
        "ai_review_positions",
        "ai_reviews",
        ["subject"],
        ["subject"],
        ondelete="CASCADE",
    )
    op.create_check_constraint(op.f("ck_ai_reviews_one_subject"), "ai_reviews", "(game_id IS NULL) <> (record_id IS NULL)")
    op.create_index("ix_ai_reviews_game_id", "ai_reviews", ["game_id"])
    op.create_index("ix_ai_reviews_record_id", "ai_reviews", ["record_id"])


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_remake(new=False)
    else:
        op.execute("DELETE FROM ai_reviews WHERE record_id IS NOT NULL")  # their positions by the cascade
        op.drop_index("ix_ai_reviews_record_id", table_name="ai_reviews")
        op.drop_index("ix_ai_reviews_game_id", table_name="ai_reviews")
        op.drop_constraint(op.f("ck_ai_reviews_one_subject"), "ai_reviews", type_="check")
        op.drop_constraint(op.f("fk_ai_review_positions_subject_ai_reviews"), "ai_review_positions", type_="foreignkey")
        op.drop_constraint(op.f("fk_ai_reviews_record_id_ai_review_records"), "ai_reviews", type_="foreignkey")
        op.drop_constraint(op.f("fk_ai_reviews_game_id_games"), "ai_reviews", type_="foreignkey")
        op.drop_column("ai_reviews", "record_id")
        op.drop_column("ai_reviews", "game_id")
        for table in ("ai_reviews", "ai_review_positions"):
            op.alter_column(table, "subject", new_column_name="game_id", type_=sa.String(16), existing_nullable=False)
        op.create_foreign_key(op.f("fk_ai_reviews_game_id_games"), "ai_reviews", "games", ["game_id"], ["id"], ondelete="CASCADE")
        op.create_foreign_key(
            op.f("fk_ai_review_positions_game_id_ai_reviews"),
            "ai_review_positions",
            "ai_reviews",
            ["game_id"],
            ["game_id"],
            ondelete="CASCADE",
        )
    op.drop_index("ix_ai_review_records_user_id_created_at", table_name="ai_review_records")
    op.drop_table("ai_review_records")
