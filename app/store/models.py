"""The database tables, as SQLAlchemy 2 declarative models.

The metadata carries an explicit naming convention so that constraint names are the same on every
database and Alembic can find them again when a migration alters or drops them.

One module over 400 lines: the tables share one MetaData and its naming convention, and Alembic's check of
the models against the migrations reads them all from here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.store.types import JSONType, UTCDateTime, utcnow

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Base(DeclarativeBase):
    metadata = metadata


class User(Base):
    """A player. Guests are users too (``is_guest``); registering turns the same row into an account."""

    __tablename__ = "users"
    __table_args__ = (Index("ix_users_email_key", "email_key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    # Lower-cased name: makes names unique regardless of case, guests included.
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    is_guest: Mapped[bool] = mapped_column(Boolean, default=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    # Bumped on log-out: every cookie signed for an older value stops working.
    session_version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    registered_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # The strength declared at registration ("club", "12k", ...): it sets the starting rating.
    strength: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # A bot account: played by a program through the bot API. ``owner_id`` is the account that registered it
    # (None for the server's own house bots); ``bot_accepts`` is what it accepts (app/bots/declaration.py).
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True)
    bot_accepts: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # Email (app/mail): ``email`` is the verified address (unique, case-folded in ``email_key``);
    # ``email_pending`` an address waiting for its verification link. ``mail_mode``: digest | immediate | off.
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_key: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_pending: Mapped[str | None] = mapped_column(String(254), nullable=True)
    mail_mode: Mapped[str] = mapped_column(String(16), default="digest")
    mail_language: Mapped[str | None] = mapped_column(String(8), nullable=True)  # en zh vi es ja ko; None: en
    # Moderation (docs/moderation.md): chat refused until ``muted_until``; no play, chat or challenges until
    # ``suspended_until``, or ever while ``banned``.
    muted_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    suspended_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    banned: Mapped[bool] = mapped_column(Boolean, default=False)


class Challenge(Base):
    """An offer to play, open to anyone or private to whoever holds its link token."""

    __tablename__ = "challenges"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'accepted', 'cancelled', 'declined')", name="status"),
        CheckConstraint("color IN ('black', 'white', 'nigiri')", name="color"),
        Index("ix_challenges_status_created_at", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    board_size: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(String(32))
    komi: Mapped[float] = mapped_column(Float)
    handicap: Mapped[int] = mapped_column(Integer, default=0)
    color: Mapped[str] = mapped_column(String(8))
    time_control: Mapped[dict[str, Any]] = mapped_column(JSONType)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    # Who may accept: ranks from min_rank (the weakest, e.g. "15k") to max_rank (e.g. "1d"); None: anyone.
    min_rank: Mapped[str | None] = mapped_column(String(4), nullable=True)
    max_rank: Mapped[str | None] = mapped_column(String(4), nullable=True)
    # Handicap, komi and colours are chosen from the two players' ranks when the challenge is accepted.
    auto_handicap: Mapped[bool] = mapped_column(Boolean, default=False)
    token: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="open")
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True)
    # A challenge addressed to one player (e.g. a bot): only they may accept or decline it; never listed.
    opponent_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True)
    decline_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ApiToken(Base):
    """A token a program authenticates with (``Authorization: Bearer``). Only its SHA-256 is stored: the token
    is shown once, when it is made. ``scopes`` limit what it may do (app/accounts/tokens.py)."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    prefix: Mapped[str] = mapped_column(String(16))  # the token's first characters, to recognise it in a list
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    scopes: Mapped[list[str]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Game(Base):
    """One game. ``version`` is the compare-and-set event version; ``state`` is authority state for the room."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("board_size BETWEEN 2 AND 25", name="board_size"),
        CheckConstraint("handicap BETWEEN 0 AND 9", name="handicap"),
        Index("ix_games_status_started_at", "status", "started_at"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    board_size: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(String(32))
    rules_params: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    komi: Mapped[float] = mapped_column(Float)
    handicap: Mapped[int] = mapped_column(Integer, default=0)
    time_control: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # The whole configuration the game was created with (app/games/config.py: GameConfig.to_dict()); the room
    # builds the game from it alone. The columns above repeat parts of it for lists and searches.
    config: Mapped[dict[str, Any]] = mapped_column(JSONType)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    black_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    white_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    # playing | scoring | adjourned | finished
    status: Mapped[str] = mapped_column(String(16), default="playing")
    result: Mapped[str | None] = mapped_column(String(32), nullable=True)  # e.g. "B+R", "W+3.5", "Void"
    ended_by: Mapped[str | None] = mapped_column(String(16), nullable=True)  # resignation, timeout, score, ...
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    # Whose turn it is and when the game next acts on its own (a flag, the scoring timeout), as of the last commit
    # (None: finished, or no clock runs): the lobby's "your turn" list reads them without opening rooms.
    to_move: Mapped[str | None] = mapped_column(String(1), nullable=True)
    turn_deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Move(Base):
    """One move or pass (``x``/``y`` null), in order."""

    __tablename__ = "moves"
    __table_args__ = (
        UniqueConstraint("game_id", "number", name="uq_moves_game_id_number"),
        CheckConstraint("color IN ('B', 'W')", name="color"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)  # 1-based
    color: Mapped[str] = mapped_column(String(1))
    x: Mapped[int | None] = mapped_column(Integer, nullable=True)
    y: Mapped[int | None] = mapped_column(Integer, nullable=True)
    time_taken: Mapped[float | None] = mapped_column(Float, nullable=True)
    clock_after: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (
        CheckConstraint("channel IN ('players', 'spectators')", name="channel"),
        Index("ix_chat_messages_game_id_id", "game_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class GameEvent(Base):
    """The per-game durable event log. ``v`` runs 1, 2, 3, ... with no holes (``games.version`` is the last)."""

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("game_id", "v", name="uq_game_events_game_id_v"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    v: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ServerMark(Base):
    """A named moment the servers record, e.g. ``heartbeat``: the last time any instance was known alive."""

    __tablename__ = "server_marks"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class PlayerRating(Base):
    """A player's Glicko-2 figures in one category: ``overall`` or a board size (``9``, ``13``, ``19``)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_category_rating", "category", "rating"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    category: Mapped[str] = mapped_column(String(8), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatingUpdate(Base):
    """One finished game's rating, done exactly once: ``rated``, ``unrated`` (and why) or ``annulled``.

    ``seq`` is the order the updates were applied in; a rebuild replays the rated ones in that order.
    """

    __tablename__ = "rating_updates"
    __table_args__ = (CheckConstraint("status IN ('rated', 'unrated', 'annulled')", name="status"),)

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    status: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatingChange(Base):
    """A player's figures before and after one rated game, in one category."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id", "category", name="uq_rating_changes_game_id_user_id_category"),
        Index("ix_rating_changes_user_id_category_seq", "user_id", "category", "seq"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    seq: Mapped[int] = mapped_column(Integer, index=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    opponent_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    category: Mapped[str] = mapped_column(String(8))
    score: Mapped[float] = mapped_column(Float)
    expected: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[float] = mapped_column(Float)
    deviation_before: Mapped[float] = mapped_column(Float)
    volatility_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    deviation_after: Mapped[float] = mapped_column(Float)
    volatility_after: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Review(Base):
    """A shared review: a game tree (app/study) that its owner, or whoever the owner hands control to, leads
    while others follow live. Made from a finished game (``game_id``) or from an uploaded SGF record.

    ``version`` is the compare-and-set version of the review's live events (docs/protocol.md, "Reviews"):
    every change (the leader's position, the tree, control, a chat line) advances it by one in the same
    statement that stores the change and the id the client gave the action (``action_ids``). ``current`` is
    the node the leader is on; ``chat`` holds the newest lines of the review's chat.
    """

    __tablename__ = "reviews"
    __table_args__ = (Index("ix_reviews_game_id_created_at", "game_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    controller_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True)
    title: Mapped[str] = mapped_column(String(100))
    board_size: Mapped[int] = mapped_column(Integer)
    tree: Mapped[dict[str, Any]] = mapped_column(JSONType)
    current: Mapped[int] = mapped_column(Integer, default=0)
    chat: Mapped[list[dict[str, Any]]] = mapped_column(JSONType, default=list)
    # [user id or null, client id, version acknowledged] of the latest actions, oldest first: a retry through
    # any instance is acknowledged again rather than applied twice.
    action_ids: Mapped[list[list[Any]]] = mapped_column(JSONType, default=list)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class MailNotice(Base):
    """Something a player is told by email (a move in a correspondence game, a game's end, a challenge to
    them), recorded once: ``(user_id, kind, ref, seq)`` is unique, so the same event is never noticed twice.
    ``waiting`` notices go into the next digest; ``mailed`` ones were sent (at once or in a digest); ``dropped``
    ones were waiting when the player stopped notices.
    ``at`` is the mail worker's clock (seconds), like every time in the mail tables."""

    __tablename__ = "mail_notices"
    __table_args__ = (
        UniqueConstraint("user_id", "kind", "ref", "seq", name="uq_mail_notices_user_id_kind_ref_seq"),
        CheckConstraint("state IN ('waiting', 'mailed', 'dropped')", name="state"),
        Index("ix_mail_notices_state_user_id", "state", "user_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # move | end | challenge
    ref: Mapped[str] = mapped_column(String(16))  # the game's or the challenge's id
    seq: Mapped[int] = mapped_column(Integer, default=0)  # the game event's version (0 for a challenge)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONType)
    state: Mapped[str] = mapped_column(String(16), default="waiting")
    at: Mapped[float] = mapped_column(Float)


class MailOutbox(Base):
    """One email to send. ``key`` (the event and the recipient) is unique: a message is queued at most once.
    A worker claims a row (``claimed_by`` until ``claim_until``), sends it, and marks it ``sent``; a failure
    puts it back with ``next_at`` later, until ``attempts`` reaches the limit (``failed``)."""

    __tablename__ = "mail_outbox"
    __table_args__ = (
        CheckConstraint("state IN ('pending', 'sent', 'failed')", name="state"),
        Index("ix_mail_outbox_state_next_at", "state", "next_at"),
        Index("ix_mail_outbox_to_key_created_at", "to_key", "created_at"),
        Index("ix_mail_outbox_user_id_created_at", "user_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    to_addr: Mapped[str] = mapped_column(String(254))
    to_key: Mapped[str] = mapped_column(String(254))  # case-folded, for the per-address cap
    kind: Mapped[str] = mapped_column(String(16))  # verify | reset | notice | digest
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    unsubscribe_url: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    state: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_at: Mapped[float] = mapped_column(Float)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claim_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    sent_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class CorrespondenceSettings(Base):
    """A player's correspondence choices and vacation balance (docs/clocks.md, "Correspondence").

    No row: the defaults (weekends count, UTC, the starting vacation balance banked at registration).
    ``vacation_banked`` is the balance in seconds at ``vacation_banked_at`` (epoch seconds of the server clock);
    ``vacation_since`` is when the running vacation began (None: not on vacation).
    """

    __tablename__ = "correspondence_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    weekend_pause: Mapped[bool] = mapped_column(Boolean, default=False)
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    vacation_banked: Mapped[float] = mapped_column(Float)
    vacation_banked_at: Mapped[float] = mapped_column(Float)
    vacation_since: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)


class UserRole(Base):
    """A role held by a user: ``moderator`` or ``admin`` (granted with ``tengen admin grant``)."""

    __tablename__ = "user_roles"
    __table_args__ = (CheckConstraint("role IN ('moderator', 'admin')", name="role"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    granted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Block(Base):
    """``blocker_id`` blocked ``blocked_id``: no challenges, chat or automatch between them, either way."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Report(Base):
    """A player's report of a user, a game or one chat line (``game_id`` + ``chat_v``) for moderators."""

    __tablename__ = "reports"
    __table_args__ = (
        CheckConstraint("kind IN ('user', 'game', 'chat')", name="kind"),
        CheckConstraint("status IN ('received', 'closed')", name="status"),
        Index("ix_reports_status_id", "status", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True)
    chat_v: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    status: Mapped[str] = mapped_column(String(16), default="received")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    closed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    resolution: Mapped[str | None] = mapped_column(String(500), nullable=True)


class AuditEntry(Base):
    """One moderation action: who (``actor``: a moderator's name, or ``console`` for the command line), when,
    what, to whom and why. Kept when the users it names are deleted."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_target_user_id_id", "target_user_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    actor: Mapped[str] = mapped_column(String(40))
    action: Mapped[str] = mapped_column(String(32))
    target_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    target: Mapped[str | None] = mapped_column(String(40), nullable=True)  # the target's name at the time
    game_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    report_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    details: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)


class AiReview(Base):
    """KataGo's review of a finished game (app/ai_review): the deepest pass asked for, its state, and how many
    positions KataGo has computed for it in all (``evaluations``: each stored position counts once per depth, so
    a position computed twice for one depth would show). Its figures are ``ai_review_positions`` rows."""

    __tablename__ = "ai_reviews"
    __table_args__ = (
        CheckConstraint("depth IN ('quick', 'deep')", name="depth"),
        CheckConstraint("state IN ('queued', 'running', 'done', 'failed')", name="state"),
        Index("ix_ai_reviews_state", "state"),
    )

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    depth: Mapped[str] = mapped_column(String(8))
    state: Mapped[str] = mapped_column(String(16))
    total: Mapped[int] = mapped_column(Integer)  # positions: the moves and the start
    evaluations: Mapped[int] = mapped_column(Integer, default=0)
    automatic: Mapped[bool] = mapped_column(Boolean, default=False)  # queued by the end of a rated game
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class AiReviewPosition(Base):
    """KataGo's raw figure for position ``i`` of a reviewed game (the position after ``i`` moves), as
    docs/review.md describes it; a deep figure replaces a quick one, never the other way round."""

    __tablename__ = "ai_review_positions"
    __table_args__ = (CheckConstraint("depth IN ('quick', 'deep')", name="depth"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("ai_reviews.game_id", ondelete="CASCADE"), primary_key=True)
    i: Mapped[int] = mapped_column(Integer, primary_key=True)
    depth: Mapped[str] = mapped_column(String(8))
    figure: Mapped[dict[str, Any]] = mapped_column(JSONType)


class Tournament(Base):
    """A tournament (app/tournaments, docs/tournaments.md): its pairing rules (``rules``: the core's
    ``TournamentRules`` as JSON), the games' settings (``game``: board size, rules preset, komi, clock, rated),
    registration's limits and the schedule: round ``n`` starts at ``first_round_at + (n - 1) * round_seconds``,
    is paired ``pairing_lead_seconds`` before, its check-in opens ``checkin_seconds`` before it is paired (0: no
    check-in, everyone registered plays) and its unfinished games go to the director ``deadline_seconds`` after
    it starts. ``version`` goes up at every change the pages show."""

    __tablename__ = "tournaments"
    __table_args__ = (
        CheckConstraint("status IN ('registration', 'running', 'paused', 'finished')", name="status"),
        Index("ix_tournaments_status", "status"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    director_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    format: Mapped[str] = mapped_column(String(24))
    rules: Mapped[dict[str, Any]] = mapped_column(JSONType)
    game: Mapped[dict[str, Any]] = mapped_column(JSONType)
    status: Mapped[str] = mapped_column(String(16), default="registration")
    max_players: Mapped[int] = mapped_column(Integer)
    min_rank: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the core's rank numbers (30k = 0)
    max_rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    late_until_round: Mapped[int] = mapped_column(Integer, default=1)  # registration open before this round starts
    first_round_at: Mapped[datetime] = mapped_column(UTCDateTime)
    round_seconds: Mapped[float] = mapped_column(Float)
    pairing_lead_seconds: Mapped[float] = mapped_column(Float)
    checkin_seconds: Mapped[float] = mapped_column(Float)
    deadline_seconds: Mapped[float] = mapped_column(Float)
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TournamentDirector(Base):
    """A co-director: may do everything the director does, each action in the audit log."""

    __tablename__ = "tournament_directors"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)


class TournamentEntrant(Base):
    """A registered player, with the rating and rank they were seeded with (frozen at registration, so a round's
    recorded inputs stay what they were). ``status``: active | withdrawn | disqualified (``left_round``: the first
    round they are not paired in)."""

    __tablename__ = "tournament_entrants"
    __table_args__ = (CheckConstraint("status IN ('active', 'withdrawn', 'disqualified')", name="status"),)

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    rating: Mapped[float] = mapped_column(Float)
    rank: Mapped[int] = mapped_column(Integer)
    registered_round: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="active")
    left_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    registered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TournamentCheckin(Base):
    """A player present for a round (checked in during its window)."""

    __tablename__ = "tournament_checkins"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TournamentRound(Base):
    """A round: pending, then paired (``inputs``: the core's RoundInput as JSON, ``digest`` its sha256, the
    pairing with each ``why`` in ``pairing``: the same inputs give the same round), then started (its games
    exist), then finished (every game has its result). The status moves by compare-and-set, so whichever
    instance claims a step does it alone."""

    __tablename__ = "tournament_rounds"
    __table_args__ = (CheckConstraint("status IN ('pending', 'paired', 'started', 'finished')", name="status"),)

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    seed: Mapped[int] = mapped_column(Integer)
    inputs: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    pairing: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    repaired_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)
    paired_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class TournamentPairing(Base):
    """One board of a round and its game (``game_id``, set once when the round starts). ``outcome`` is the
    core's (B, W, jigo, both_lose, unplayed), None while the game is on; ``decided_by``: game | director."""

    __tablename__ = "tournament_pairings"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "board"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    black_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    white_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    handicap: Mapped[int] = mapped_column(Integer, default=0)
    why: Mapped[dict[str, Any]] = mapped_column(JSONType)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True, unique=True)
    outcome: Mapped[str | None] = mapped_column(String(16), nullable=True)
    by_forfeit: Mapped[bool] = mapped_column(Boolean, default=False)
    decided_by: Mapped[str | None] = mapped_column(String(16), nullable=True)


class TournamentSeat(Base):
    """Where each player is in a round: ``kind`` B or W (``pairing_id`` their board), bye or absent. The key
    (tournament, round, player) is what makes a player's game in a round exist once, whoever pairs it."""

    __tablename__ = "tournament_seats"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    pairing_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_pairings.id", ondelete="CASCADE"), nullable=True, index=True
    )
    why: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)


class TournamentAudit(Base):
    """One director's action (pause, resume, re-pair, set a result, disqualify, ...): who, when, why."""

    __tablename__ = "tournament_audit"
    __table_args__ = (Index("ix_tournament_audit_tournament_id_id", "tournament_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    actor: Mapped[str] = mapped_column(String(40))
    action: Mapped[str] = mapped_column(String(32))
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    target_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    details: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
