"""Tournaments (app/tournaments, docs/tournaments.md): the events, their co-directors, entrants, check-ins,
rounds (inputs, seed and digest recorded), boards with their games, each player's seat in a round (the unique
round-player key) and the directors' audit log.

Revision ID: 0015_tournaments
Revises: 0014_ai_reviews
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0015_tournaments"
down_revision = "0014_ai_reviews"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("director_id", sa.Integer(), nullable=True),
        sa.Column("format", sa.String(length=24), nullable=False),
        sa.Column("rules", JSON, nullable=False),
        sa.Column("game", JSON, nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("min_rank", sa.Integer(), nullable=True),
        sa.Column("max_rank", sa.Integer(), nullable=True),
        sa.Column("late_until_round", sa.Integer(), nullable=False),
        sa.Column("first_round_at", TIMESTAMP, nullable=False),
        sa.Column("round_seconds", sa.Float(), nullable=False),
        sa.Column("pairing_lead_seconds", sa.Float(), nullable=False),
        sa.Column("checkin_seconds", sa.Float(), nullable=False),
        sa.Column("deadline_seconds", sa.Float(), nullable=False),
        sa.Column("paused_at", TIMESTAMP, nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("status IN ('registration', 'running', 'paused', 'finished')", name=op.f("ck_tournaments_status")),
        sa.ForeignKeyConstraint(
            ["director_id"], ["users.id"], name=op.f("fk_tournaments_director_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])

    op.create_table(
        "tournament_audit",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("at", TIMESTAMP, nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=40), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("target_user_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("details", JSON, nullable=True),
        sa.ForeignKeyConstraint(["actor_id"], ["users.id"], name=op.f("fk_tournament_audit_actor_id_users"), ondelete="SET NULL"),
        sa.ForeignKeyConstraint(
            ["target_user_id"], ["users.id"], name=op.f("fk_tournament_audit_target_user_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_tournament_audit_tournament_id_tournaments"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_audit")),
    )
    op.create_index("ix_tournament_audit_tournament_id_id", "tournament_audit", ["tournament_id", "id"])

    op.create_table(
        "tournament_checkins",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_checkins_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_tournament_checkins_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "round", "user_id", name=op.f("pk_tournament_checkins")),
    )
    op.create_table(
        "tournament_directors",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_directors_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_tournament_directors_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name=op.f("pk_tournament_directors")),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("registered_round", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("left_round", sa.Integer(), nullable=True),
        sa.Column("registered_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("status IN ('active', 'withdrawn', 'disqualified')", name=op.f("ck_tournament_entrants_status")),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entrants_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_tournament_entrants_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name=op.f("pk_tournament_entrants")),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("black_id", sa.Integer(), nullable=False),
        sa.Column("white_id", sa.Integer(), nullable=False),
        sa.Column("handicap", sa.Integer(), nullable=False),
        sa.Column("why", JSON, nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.Column("by_forfeit", sa.Boolean(), nullable=False),
        sa.Column("decided_by", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(
            ["black_id"], ["users.id"], name=op.f("fk_tournament_pairings_black_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_tournament_pairings_game_id_games"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_pairings_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["white_id"], ["users.id"], name=op.f("fk_tournament_pairings_white_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_pairings")),
        sa.UniqueConstraint("game_id", name=op.f("uq_tournament_pairings_game_id")),
        sa.UniqueConstraint("tournament_id", "round", "board", name=op.f("uq_tournament_pairings_tournament_id")),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("starts_at", TIMESTAMP, nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("inputs", JSON, nullable=True),
        sa.Column("digest", sa.String(length=64), nullable=True),
        sa.Column("pairing", JSON, nullable=True),
        sa.Column("repaired_reason", sa.String(length=500), nullable=True),
        sa.Column("paired_at", TIMESTAMP, nullable=True),
        sa.Column("started_at", TIMESTAMP, nullable=True),
        sa.Column("deadline_at", TIMESTAMP, nullable=True),
        sa.CheckConstraint("status IN ('pending', 'paired', 'started', 'finished')", name=op.f("ck_tournament_rounds_status")),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_tournament_rounds_tournament_id_tournaments"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_rounds")),
    )
    op.create_table(
        "tournament_seats",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("pairing_id", sa.Integer(), nullable=True),
        sa.Column("why", JSON, nullable=True),
        sa.ForeignKeyConstraint(
            ["pairing_id"],
            ["tournament_pairings.id"],
            name=op.f("fk_tournament_seats_pairing_id_tournament_pairings"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_tournament_seats_tournament_id_tournaments"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_tournament_seats_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "round", "user_id", name=op.f("pk_tournament_seats")),
    )
    op.create_index("ix_tournament_seats_pairing_id", "tournament_seats", ["pairing_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_seats_pairing_id", table_name="tournament_seats")

    op.drop_table("tournament_seats")
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_entrants")
    op.drop_table("tournament_directors")
    op.drop_table("tournament_checkins")
    op.drop_index("ix_tournament_audit_tournament_id_id", table_name="tournament_audit")

    op.drop_table("tournament_audit")
    op.drop_index("ix_tournaments_status", table_name="tournaments")

    op.drop_table("tournaments")
