"""Queries on games, their moves, chat and event log, including the compare-and-set ``append``.

One module over 400 lines: every query on a game's tables lives in its repository, the one write path
(``append``, with its single PostgreSQL statement) included.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, cast

import asyncpg
from sqlalchemy import CursorResult, Select, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.store.driver import driver_connections
from app.store.ids import short_id
from app.store.models import ChatMessage, Game, GameEvent, Move, RatingUpdate, User
from app.store.types import utcnow

FINISHED = "finished"


class VersionConflict(Exception):
    """Another writer advanced the game first: re-read the game and decide again."""

    def __init__(self, game_id: str, expected_version: int) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version


@dataclass(frozen=True)
class NewMove:
    """A move (``point`` = (x, y)) or a pass (``point`` = None) to store with its event."""

    number: int
    color: str
    point: tuple[int, int] | None
    time_taken: float | None = None
    clock_after: dict[str, Any] | None = None


@dataclass(frozen=True)
class NewChat:
    channel: str  # "players" | "spectators"
    user_id: int | None
    text: str


@dataclass(frozen=True)
class RatingRecord:
    """What the store holds about a game's rating, for app/ratings/verdict.py to say whether it counts: the
    status and reason of the game's rating update once it is made (``rated``, ``unrated``, ``annulled``: see
    app/ratings/service.py), else None; and for a finished game still waiting for that update, the stones each
    side played, from which the update decides."""

    status: str | None
    reason: str | None
    stones: dict[str, int] | None


class GameWithPlayers(NamedTuple):
    game: Game
    black: User
    white: User
    rating: RatingRecord


# Columns of ``games`` that an event may change in the same transaction.
UPDATABLE = frozenset({"state", "status", "result", "ended_by", "ended_at", "move_count", "to_move", "turn_deadline"})


async def add(
    session: AsyncSession,
    *,
    board_size: int,
    rules: str,
    rules_params: dict[str, Any],
    komi: float,
    handicap: int,
    time_control: dict[str, Any],
    config: dict[str, Any],
    rated: bool,
    black_id: int,
    white_id: int,
    state: dict[str, Any] | None = None,
    game_id: str | None = None,
    to_move: str | None = None,
) -> Game:
    """A new game; ``config`` is the game's whole configuration (``GameConfig.to_dict()``), stored as it is."""
    now = utcnow()
    game = Game(
        id=game_id or short_id(),
        board_size=board_size,
        rules=rules,
        rules_params=rules_params,
        komi=komi,
        handicap=handicap,
        time_control=time_control,
        config=config,
        rated=rated,
        black_id=black_id,
        white_id=white_id,
        status="playing",
        to_move=to_move,
        move_count=0,
        version=0,
        state=state or {},
        created_at=now,
        started_at=now,
        updated_at=now,
    )
    session.add(game)
    await session.flush()
    return game


async def add_rematch(session: AsyncSession, source_id: str, game_id: str) -> Game:
    """A new game ``game_id`` with the stored settings of ``source_id`` and its players' colours swapped.

    Flushed, not committed: the caller commits it together with the event that announces it.
    """
    source = await session.get(Game, source_id)
    if source is None:
        raise LookupError(f"no game {source_id}")
    config = dict(source.config)  # exactly the configuration the first game was created with, but:
    if config.get("weekends"):  # each player's weekend pause follows them to their new colour
        config["weekends"] = {("W" if color == "B" else "B"): tz for color, tz in config["weekends"].items()}
    config.pop("away", None)  # both players just agreed to play again: nobody is away
    return await add(
        session,
        game_id=game_id,
        board_size=source.board_size,
        rules=source.rules,
        rules_params=dict(source.rules_params or {}),
        komi=source.komi,
        handicap=source.handicap,
        time_control=dict(source.time_control or {}),
        config=config,
        rated=source.rated,
        black_id=source.white_id,
        white_id=source.black_id,
        to_move="W" if source.handicap else "B",
    )


@dataclass(frozen=True)
class NewEvent:
    """One event to append, with the rows it writes beside itself."""

    type: str
    payload: dict[str, Any]
    move: NewMove | None = None
    chat: NewChat | None = None
    updates: dict[str, Any] | None = None
    drop_moves_from: int | None = None


async def append(
    db: AsyncSession | async_sessionmaker[AsyncSession], game_id: str, expected_version: int, events: list[NewEvent]
) -> int:
    """Append events ``expected_version + 1 ...`` to a game and commit; return the new version. The one write
    path of a game, on SQLite and PostgreSQL alike (``tests/store/repositories/test_games.py`` holds both to
    the same contract).

    In one transaction: ``UPDATE games SET version = version + n WHERE id = :id AND version = :expected``
    (also applying each event's ``updates`` to the columns in ``UPDATABLE``), insert the ``game_events`` rows,
    delete the moves numbered ``drop_moves_from`` and later (an undo), and insert the move and chat rows.
    Raises ``VersionConflict`` (after rolling back) when the game was not at ``expected_version``.

    ``db`` is a session when other writes must commit with the events (a rematch's new game): the append
    joins its transaction and commits it. Given a sessionmaker, the append needs no session at all on
    PostgreSQL: an append that deletes no moves is one statement, sent straight to the driver (asyncpg's
    ``fetchval``, prepared once per connection) on one of the engine's driver connections
    (``app.store.driver``), in autocommit; a lost connection is raised as ``ConnectionLost`` (the caller may
    retry once on another); other driver errors pass through as asyncpg's. Anything else opens a session.
    """
    if isinstance(db, AsyncSession):
        return await _append_in_session(db, game_id, expected_version, events)
    engine = db.kw.get("bind")
    if engine is None or engine.dialect.name != "postgresql" or any(event.drop_moves_from is not None for event in events):
        async with db() as session:
            return await _append_in_session(session, game_id, expected_version, events)
    sql, params = _one_statement(engine.dialect, game_id, expected_version, events, _updates_of(events), utcnow())
    try:
        matched = await driver_connections(engine).fetchval(sql, *params)
    except asyncpg.UniqueViolationError as exc:
        if _clashes_on_version(exc):
            raise VersionConflict(game_id, expected_version) from exc
        raise
    if matched != 1:
        raise VersionConflict(game_id, expected_version)
    return expected_version + len(events)


async def _append_in_session(session: AsyncSession, game_id: str, expected_version: int, events: list[NewEvent]) -> int:
    updates = _updates_of(events)
    now = utcnow()
    dialect = None if session.bind is None else session.bind.dialect
    if dialect is not None and dialect.name == "postgresql" and not any(event.drop_moves_from is not None for event in events):
        return await _append_in_one_statement(session, dialect, game_id, expected_version, events, updates, now)
    values: dict[str, Any] = {**updates, "version": Game.version + len(events), "updated_at": now}
    async with _rolled_back_on_failure(session, game_id, expected_version):
        result = await session.execute(
            update(Game)
            .where(Game.id == game_id, Game.version == expected_version)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if cast(CursorResult[Any], result).rowcount != 1:
            raise VersionConflict(game_id, expected_version)
        for offset, event in enumerate(events, start=1):
            await _insert_event_rows(session, game_id, expected_version + offset, event, now)
        await session.commit()
    session.expire_all()
    return expected_version + len(events)


def _updates_of(events: list[NewEvent]) -> dict[str, Any]:
    updates: dict[str, Any] = {}
    for event in events:
        updates.update(event.updates or {})
        if event.move is not None:
            updates["move_count"] = event.move.number
    unknown = set(updates) - UPDATABLE
    if unknown:
        raise ValueError(f"append cannot update {sorted(unknown)}")
    return updates


async def _append_in_one_statement(
    session: AsyncSession,
    dialect: Any,
    game_id: str,
    expected_version: int,
    events: list[NewEvent],
    updates: dict[str, Any],
    now: Any,
) -> int:
    """PostgreSQL: the whole append as one statement (see ``_one_statement``), atomic on its own. Outside a
    transaction it runs in autocommit (no BEGIN/COMMIT trips)."""
    sql, params = _one_statement(dialect, game_id, expected_version, events, updates, now)
    async with _rolled_back_on_failure(session, game_id, expected_version):
        if session.in_transaction():
            connection = await session.connection()
        else:
            connection = await session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        matched = (await connection.exec_driver_sql(sql, params)).scalar_one()
        if matched != 1:
            raise VersionConflict(game_id, expected_version)
        await session.commit()
    session.expire_all()
    return expected_version + len(events)


def _one_statement(
    dialect: Any, game_id: str, expected_version: int, events: list[NewEvent], updates: dict[str, Any], now: Any
) -> tuple[str, tuple[Any, ...]]:
    """PostgreSQL: the whole append as one statement (one round trip), atomic on its own.

    ``WITH gate AS (UPDATE games ... WHERE version = $n RETURNING id), w0 AS (INSERT ... SELECT ... FROM gate),
    ... SELECT count(*) FROM gate``: every insert selects from ``gate``, so nothing is written unless the
    compare-and-set matched. Outside a transaction it runs in autocommit (no BEGIN/COMMIT trips).

    This is the path every move takes, so the SQL is written out directly and sent as driver SQL: building
    and compiling an equivalent SQLAlchemy construct cost more CPU than the round trip. The text depends only
    on the statement's shape (the columns the gate sets, which rows follow), so it is written once per shape;
    the values are laid out flat in the order of its placeholders and pass through the columns' own bind
    processors (JSON, UTC timestamps), looked up with the text, and the driver keeps the statement prepared.
    """
    set_columns = ("version", "updated_at", *updates)
    values: list[Any] = [len(events), now, *updates.values(), game_id, expected_version]
    rows: list[tuple[str, tuple[str, ...]]] = []  # (table, columns) of each inserted row, in order
    for offset, event in enumerate(events, start=1):
        rows.append(_EVENT_ROW)
        values += (game_id, expected_version + offset, event.type, event.payload, now)
        move = event.move
        if move is not None:
            x, y = move.point if move.point is not None else (None, None)
            rows.append(_MOVE_ROW)
            values += (game_id, move.number, move.color, x, y, move.time_taken, move.clock_after, now)
        chat = event.chat
        if chat is not None:
            rows.append(_CHAT_ROW)
            values += (game_id, chat.channel, chat.user_id, chat.text, now)
    shape = (dialect.name, set_columns, tuple(rows))
    found = _STATEMENTS.get(shape)
    if found is None:
        games = Game.__table__
        tables: dict[str, Any] = {model.__tablename__: model.__table__ for model in (Game, GameEvent, Move, ChatMessage)}
        parts = [(games, set_columns), (games, _GATE_WHERE), *((tables[name], columns) for name, columns in rows)]
        processors = [_binding(dialect, table.c[name])[1] for table, columns in parts for name in columns]
        processed = [(i, process) for i, process in enumerate(processors) if process is not None]
        found = _STATEMENTS[shape] = (_statement_text(dialect, parts), processed)
    sql, processed = found
    for i, process in processed:
        values[i] = process(values[i])
    return sql, tuple(values)


# The columns of the gate's WHERE and of each row an append inserts, in the order of their placeholders.
_GATE_WHERE = ("id", "version")
_EVENT_ROW = ("game_events", ("game_id", "v", "type", "payload", "created_at"))
_MOVE_ROW = ("moves", ("game_id", "number", "color", "x", "y", "time_taken", "clock_after", "created_at"))
_CHAT_ROW = ("chat_messages", ("game_id", "channel", "user_id", "text", "created_at"))


def _statement_text(dialect: Any, parts: list[tuple[Any, tuple[str, ...]]]) -> str:
    """The SQL of ``_one_statement`` for one shape, with ``$n`` placeholders in the order of ``parts``."""
    numbers = itertools.count(1)

    def placeholder(table: Any, name: str) -> str:
        return f"${next(numbers)}::{_binding(dialect, table.c[name])[0]}"

    (games, sets), (_, where), *rows = parts
    assignments = [f'"version" = "version" + {placeholder(games, "version")}'] + [
        f'"{name}" = {placeholder(games, name)}' for name in list(sets)[1:]
    ]
    condition = " AND ".join(f'"{name}" = {placeholder(games, name)}' for name in where)
    ctes = [f'gate AS (UPDATE "{games.name}" SET {", ".join(assignments)} WHERE {condition} RETURNING "id")']
    for table, columns in rows:
        names = ", ".join(f'"{name}"' for name in columns)
        values = ", ".join(placeholder(table, name) for name in columns)
        ctes.append(f'w{len(ctes)} AS (INSERT INTO "{table.name}" ({names}) SELECT {values} FROM gate)')
    return f"WITH {', '.join(ctes)} SELECT count(*) FROM gate"


# shape -> the statement's text and (index, bind processor) of each parameter that has one
_STATEMENTS: dict[tuple[Any, ...], tuple[str, list[tuple[int, Any]]]] = {}


_BINDINGS: dict[tuple[str, str, str], tuple[str, Any]] = {}


def _binding(dialect: Any, column: Any) -> tuple[str, Any]:
    """A column's SQL type (for the parameter's cast) and bind processor on ``dialect``, worked out once."""
    key = (dialect.name, column.table.name, column.name)
    found = _BINDINGS.get(key)
    if found is None:
        # the bind processor of the dialect's own implementation of the type, as SQLAlchemy binds it itself
        found = _BINDINGS[key] = (column.type.compile(dialect=dialect), column.type.dialect_impl(dialect).bind_processor(dialect))
    return found


def _clashes_on_version(error: BaseException) -> bool:
    """Whether a driver's unique-violation error is about the ``(game_id, v)`` index: another writer won."""
    text = str(error)
    return "game_events" in text or "uq_game_events_game_id_v" in text


@asynccontextmanager
async def _rolled_back_on_failure(session: AsyncSession, game_id: str, expected_version: int) -> AsyncIterator[None]:
    """Roll back on any failure; a clash on the unique ``(game_id, v)`` index is a ``VersionConflict`` too
    (the second line of defence against a lost race)."""
    try:
        yield
    except IntegrityError as exc:
        await session.rollback()
        if exc.orig is not None and _clashes_on_version(exc.orig):
            raise VersionConflict(game_id, expected_version) from exc
        raise
    except BaseException:
        await session.rollback()
        raise


async def _insert_event_rows(session: AsyncSession, game_id: str, v: int, event: NewEvent, now: Any) -> None:
    await session.execute(insert(GameEvent).values(game_id=game_id, v=v, type=event.type, payload=event.payload, created_at=now))
    if event.drop_moves_from is not None:
        await session.execute(delete(Move).where(Move.game_id == game_id, Move.number >= event.drop_moves_from))
    if event.move is not None:
        move = event.move
        x, y = move.point if move.point is not None else (None, None)
        await session.execute(
            insert(Move).values(
                game_id=game_id,
                number=move.number,
                color=move.color,
                x=x,
                y=y,
                time_taken=move.time_taken,
                clock_after=move.clock_after,
                created_at=now,
            )
        )
    if event.chat is not None:
        chat = event.chat
        await session.execute(
            insert(ChatMessage).values(
                game_id=game_id, channel=chat.channel, user_id=chat.user_id, text=chat.text, created_at=now
            )
        )


async def set_status(session: AsyncSession, game_id: str, status: str, version: int) -> bool:
    """Set an unfinished game's status, if it is still at ``version``; committed. Whether it was set."""
    result = await session.execute(
        update(Game).where(Game.id == game_id, Game.version == version, Game.status != FINISHED).values(status=status)
    )
    await session.commit()
    return bool(getattr(result, "rowcount", 0))


async def get(session: AsyncSession, game_id: str) -> Game | None:
    return await session.get(Game, game_id, populate_existing=True)


async def get_with_players(session: AsyncSession, game_id: str) -> GameWithPlayers | None:
    rows = await _with_players(session, lambda q: q.where(Game.id == game_id))
    return rows[0] if rows else None


async def events_after(session: AsyncSession, game_id: str, v: int) -> list[GameEvent]:
    """The game's events with a version above ``v``, in order."""
    query = select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.v > v).order_by(GameEvent.v)
    return list((await session.execute(query)).scalars())


async def moves(session: AsyncSession, game_id: str) -> list[Move]:
    query = select(Move).where(Move.game_id == game_id).order_by(Move.number)
    return list((await session.execute(query)).scalars())


async def chat(session: AsyncSession, game_id: str, channel: str | None = None) -> list[ChatMessage]:
    query = select(ChatMessage).where(ChatMessage.game_id == game_id)
    if channel is not None:
        query = query.where(ChatMessage.channel == channel)
    return list((await session.execute(query.order_by(ChatMessage.id))).scalars())


async def chat_events(session: AsyncSession, game_id: str, before_v: int | None, limit: int) -> list[GameEvent]:
    """Up to ``limit`` chat events of a game before version ``before_v`` (None: the newest), newest first."""
    query = select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.type == "chat")
    if before_v is not None:
        query = query.where(GameEvent.v < before_v)
    return list((await session.execute(query.order_by(GameEvent.v.desc()).limit(limit))).scalars())


async def list_live(session: AsyncSession, limit: int = 100) -> list[GameWithPlayers]:
    """Games not yet finished, most recently started first (practice games, one user on both sides, are not listed)."""
    return await _with_players(
        session,
        lambda q: q.where(Game.status != FINISHED, Game.black_id != Game.white_id).order_by(Game.started_at.desc()).limit(limit),
    )


async def list_for_user(session: AsyncSession, user_id: int, *, finished: bool, limit: int = 100) -> list[GameWithPlayers]:
    """A user's unfinished games (to rejoin) or finished ones (history), newest first."""

    def shape(q):
        q = q.where((Game.black_id == user_id) | (Game.white_id == user_id))
        q = q.where(Game.status == FINISHED) if finished else q.where(Game.status != FINISHED)
        order = Game.ended_at.desc() if finished else Game.updated_at.desc()
        return q.order_by(order, Game.started_at.desc()).limit(limit)

    return await _with_players(session, shape)


async def unfinished_ids(session: AsyncSession) -> list[str]:
    """The ids of every game not yet finished (their rooms re-register clock deadlines after a restart)."""
    query = select(Game.id).where(Game.status != FINISHED).order_by(Game.id)
    return list((await session.execute(query)).scalars())


async def count_unfinished(session: AsyncSession) -> int:
    return int((await session.execute(select(func.count()).where(Game.status != FINISHED))).scalar_one())


# The two players' rows of a game, built once: an alias copies every column of the users table, and the copies
# form reference cycles, so one per query left the garbage collector a few thousand objects to walk and free
# every few hundred queries (a pause of 15-30 ms on the event loop).
_BLACK = aliased(User, name="black")
_WHITE = aliased(User, name="white")


WithPlayers = Select[Game, User, User, str | None, str | None]


def with_players() -> WithPlayers:
    """Games with their black and white players' rows and their rating update's status and reason (read into
    ``GameWithPlayers`` by :func:`rows_with_players`)."""
    return (
        select(Game, _BLACK, _WHITE, RatingUpdate.status, RatingUpdate.reason)
        .join(_BLACK, Game.black_id == _BLACK.id)
        .join(_WHITE, Game.white_id == _WHITE.id)
        .outerjoin(RatingUpdate, RatingUpdate.game_id == Game.id)
    )


async def rows_with_players(session: AsyncSession, query: WithPlayers) -> list[GameWithPlayers]:
    """The rows of a :func:`with_players` query; a finished game whose rating update is not made yet (the moment
    after its end) also gets the stones each side played, read in one more query for all of them."""
    found = (await session.execute(query)).all()
    waiting = [game.id for game, _, _, status, _ in found if game.status == FINISHED and status is None]
    stones = await stones_played(session, waiting) if waiting else {}
    return [
        GameWithPlayers(game, b, w, RatingRecord(status, reason, stones.get(game.id) if status is None else None))
        for game, b, w, status, reason in found
    ]


async def stones_played(session: AsyncSession, game_ids: list[str]) -> dict[str, dict[str, int]]:
    """The stones each side played in each of these games, ``{"B": n, "W": m}``: passes are not stones, and the
    handicap stones are placed with the board, never played (they are not in ``moves``)."""
    out: dict[str, dict[str, int]] = {game_id: {"B": 0, "W": 0} for game_id in game_ids}
    query = (
        select(Move.game_id, Move.color, func.count())
        .where(Move.game_id.in_(game_ids), Move.x.is_not(None))
        .group_by(Move.game_id, Move.color)
    )
    for game_id, color, count in (await session.execute(query)).all():
        out[game_id][color] = int(count)
    return out


async def _with_players(session: AsyncSession, shape: Callable[[WithPlayers], WithPlayers]) -> list[GameWithPlayers]:
    return await rows_with_players(session, shape(with_players()))


LIVE_STATUSES = ("playing", "scoring")


async def live_game_of(session: AsyncSession, user_id: int) -> str | None:
    """The id of a game ``user_id`` is playing right now (playing or scoring, practice and correspondence games
    aside: a correspondence player has many at once), or None."""
    query = (
        select(Game.id, Game.time_control)
        .where((Game.black_id == user_id) | (Game.white_id == user_id))
        .where(Game.status.in_(LIVE_STATUSES), Game.black_id != Game.white_id)
        .order_by(Game.started_at.desc())
    )
    for game_id, time_control in await session.execute(query):
        if not (time_control or {}).get("correspondence"):
            return str(game_id)
    return None


async def started_since(session: AsyncSession, user_id: int, since: datetime) -> str | None:
    """The id of the newest game ``user_id`` began playing at or after ``since`` (practice aside), or None."""
    query = (
        select(Game.id)
        .where((Game.black_id == user_id) | (Game.white_id == user_id))
        .where(Game.started_at >= since, Game.black_id != Game.white_id)
        .order_by(Game.started_at.desc())
        .limit(1)
    )
    return (await session.execute(query)).scalar_one_or_none()


async def count_unfinished_of(session: AsyncSession, user_id: int) -> int:
    """How many games the user is playing now."""
    query = select(func.count()).where((Game.black_id == user_id) | (Game.white_id == user_id), Game.status != FINISHED)
    return int((await session.execute(query)).scalar_one())


def _untimed(time_control: dict[str, Any] | None) -> bool:
    return not time_control or time_control.get("kind", "none") == "none"


async def unfinished_with_deadlines(session: AsyncSession) -> list[str]:
    """Unfinished games that may have a clock deadline: those with a clock, and any being scored."""
    rows = await session.execute(select(Game.id, Game.status, Game.time_control).where(Game.status != FINISHED))
    return sorted(row.id for row in rows if row.status == "scoring" or not _untimed(row.time_control))


async def overdue_untouched(session: AsyncSession, before: float, limit: int = 500) -> list[str]:
    """Games nobody has acted on yet (version 0: no room has committed anything) whose first deadline, stored with
    the row, is earlier than ``before``: due, and still not settled. Read through the status index."""
    query = (
        select(Game.id)
        .where(Game.status == "playing", Game.version == 0, Game.turn_deadline.is_not(None), Game.turn_deadline < before)
        .order_by(Game.turn_deadline)
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())


async def count_unfinished_untimed(session: AsyncSession, user_id: int) -> tuple[int, int]:
    """(unfinished games without a clock, of which practice games) of ``user_id``."""
    rows = await session.execute(
        select(Game.black_id, Game.white_id, Game.time_control).where(
            Game.status != FINISHED, (Game.black_id == user_id) | (Game.white_id == user_id)
        )
    )
    untimed = [row for row in rows if _untimed(row.time_control)]
    return len(untimed), sum(1 for row in untimed if row.black_id == row.white_id)


async def abandoned_untimed(session: AsyncSession, idle_since: datetime, limit: int = 100) -> list[str]:
    """Unfinished games without a clock where nothing has happened since ``idle_since``."""
    rows = await session.execute(
        select(Game.id, Game.time_control)
        .where(Game.status != FINISHED, Game.updated_at < idle_since)
        .order_by(Game.updated_at)
        .limit(limit * 4)
    )
    return [row.id for row in rows if _untimed(row.time_control)][:limit]
