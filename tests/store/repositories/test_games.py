"""The games repository: the compare-and-set ``append`` (one contract on SQLite and PostgreSQL, through a session
and through a sessionmaker), its rows, and the loaders."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.store.repositories import games, users
from app.store.repositories.games import NewChat, NewEvent, NewMove, VersionConflict


async def _new_game(sessionmaker: async_sessionmaker[AsyncSession]) -> tuple[str, int, int]:
    async with sessionmaker() as session:
        black = await users.add_guest(session, "Guest-aaaa", "guest-aaaa")
        white = await users.add_guest(session, "Guest-bbbb", "guest-bbbb")
        game = await games.add(
            session,
            board_size=9,
            rules="chinese",
            rules_params={"preset": "chinese"},
            komi=7.5,
            handicap=0,
            time_control={"kind": "none"},
            config={"size": 9, "rules": {"preset": "chinese"}},
            rated=False,
            black_id=black.id,
            white_id=white.id,
        )
        await session.commit()
        return game.id, black.id, white.id


async def test_append_writes_event_move_and_chat(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    game_id, black_id, _ = await _new_game(db_sessionmaker)
    async with db_sessionmaker() as session:
        v1 = await games.append(
            session,
            game_id,
            0,
            [NewEvent("move", {"p": [2, 3]}, move=NewMove(1, "B", (2, 3), time_taken=4.5, clock_after={"main": 55.5}))],
        )
        v2 = await games.append(session, game_id, 1, [NewEvent("pass", {}, move=NewMove(2, "W", None))])
        v3 = await games.append(
            session,
            game_id,
            2,
            [
                NewEvent(
                    "chat",
                    {"text": "gg"},
                    chat=NewChat("players", black_id, "gg"),
                    updates={"state": {"phase": "playing", "n": 3}},
                )
            ],
        )
    assert (v1, v2, v3) == (1, 2, 3)

    async with db_sessionmaker() as session:
        game = await games.get(session, game_id)
        assert game is not None and game.version == 3 and game.move_count == 2
        assert game.state == {"phase": "playing", "n": 3}
        events = await games.events_after(session, game_id, 0)
        assert [(e.v, e.type, e.payload) for e in events] == [
            (1, "move", {"p": [2, 3]}),
            (2, "pass", {}),
            (3, "chat", {"text": "gg"}),
        ]
        assert [e.v for e in await games.events_after(session, game_id, 2)] == [3]
        moves = await games.moves(session, game_id)
        assert [(m.number, m.color, m.x, m.y) for m in moves] == [(1, "B", 2, 3), (2, "W", None, None)]
        assert moves[0].time_taken == 4.5 and moves[0].clock_after == {"main": 55.5}
        chat = await games.chat(session, game_id)
        assert [(c.channel, c.user_id, c.text) for c in chat] == [("players", black_id, "gg")]


async def test_stale_version_conflicts_and_writes_nothing(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    game_id, black_id, _ = await _new_game(db_sessionmaker)
    async with db_sessionmaker() as session:
        await games.append(session, game_id, 0, [NewEvent("move", {}, move=NewMove(1, "B", (0, 0)))])
        with pytest.raises(VersionConflict):
            await games.append(
                session,
                game_id,
                0,
                [NewEvent("move", {"late": True}, move=NewMove(2, "W", (1, 1)), chat=NewChat("players", black_id, "x"))],
            )
        # The session is usable after the conflict and the game is unchanged.
        game = await games.get(session, game_id)
        assert game is not None and game.version == 1
        assert len(await games.events_after(session, game_id, 0)) == 1
        assert len(await games.moves(session, game_id)) == 1
        assert await games.chat(session, game_id) == []


async def test_undo_drops_later_moves(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    game_id, _, _ = await _new_game(db_sessionmaker)
    async with db_sessionmaker() as session:
        await games.append(session, game_id, 0, [NewEvent("move", {}, move=NewMove(1, "B", (0, 0)))])
        await games.append(session, game_id, 1, [NewEvent("move", {}, move=NewMove(2, "W", (1, 0)))])
        await games.append(session, game_id, 2, [NewEvent("undo", {}, updates={"move_count": 1}, drop_moves_from=2)])
        await games.append(session, game_id, 3, [NewEvent("move", {}, move=NewMove(2, "W", (5, 5)))])
        assert [(m.number, m.x) for m in await games.moves(session, game_id)] == [(1, 0), (2, 5)]


async def test_unknown_update_column_is_refused(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    game_id, _, _ = await _new_game(db_sessionmaker)
    async with db_sessionmaker() as session:
        with pytest.raises(ValueError):
            await games.append(session, game_id, 0, [NewEvent("x", {}, updates={"black_id": 1})])


async def test_concurrent_appends_with_the_same_version_exactly_one_wins(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game_id, _, _ = await _new_game(db_sessionmaker)
    for round_ in range(5):
        async with db_sessionmaker() as first, db_sessionmaker() as second:

            async def attempt(session: AsyncSession, name: str, round_: int = round_) -> int | None:
                try:
                    return await games.append(session, game_id, round_, [NewEvent("move", {"by": name})])
                except VersionConflict:
                    return None

            results = await asyncio.gather(attempt(first, "a"), attempt(second, "b"))
        assert [r for r in results if r is not None] == [round_ + 1]
        assert results.count(None) == 1, results
    async with db_sessionmaker() as session:
        events = await games.events_after(session, game_id, 0)
        assert [e.v for e in events] == [1, 2, 3, 4, 5]
        game = await games.get(session, game_id)
        assert game is not None and game.version == 5


async def test_append_through_a_sessionmaker_writes_the_same_rows_and_refuses_a_stale_version(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    game_id, black_id, _ = await _new_game(db_sessionmaker)
    move = NewEvent("move", {"p": [2, 3]}, move=NewMove(1, "B", (2, 3), time_taken=1.5, clock_after={"main": 9.0}))
    chat = NewEvent("chat", {"text": "hi"}, chat=NewChat("players", black_id, "hi"), updates={"state": {"n": 2}})
    assert await games.append(db_sessionmaker, game_id, 0, [move, chat]) == 2
    with pytest.raises(VersionConflict):
        await games.append(db_sessionmaker, game_id, 1, [NewEvent("pass", {}, move=NewMove(2, "W", None))])
    undo = NewEvent("undo", {}, updates={"move_count": 0}, drop_moves_from=1)
    assert await games.append(db_sessionmaker, game_id, 2, [undo]) == 3
    async with db_sessionmaker() as session:
        game = await games.get(session, game_id)
        assert game is not None and game.version == 3 and game.move_count == 0 and game.state == {"n": 2}
        events = await games.events_after(session, game_id, 0)
        assert [(e.v, e.type, e.payload) for e in events] == [
            (1, "move", {"p": [2, 3]}),
            (2, "chat", {"text": "hi"}),
            (3, "undo", {}),
        ]
        assert await games.moves(session, game_id) == []
        assert [(c.channel, c.user_id, c.text) for c in await games.chat(session, game_id)] == [("players", black_id, "hi")]


async def _stored(sessionmaker: async_sessionmaker[AsyncSession], game_id: str) -> tuple[object, ...]:
    """Everything an append writes, as plain values (ids and timestamps left out)."""
    async with sessionmaker() as session:
        game = await games.get(session, game_id)
        assert game is not None
        return (
            (game.version, game.move_count, game.state, game.status, game.result),
            [(e.v, e.type, e.payload) for e in await games.events_after(session, game_id, 0)],
            [(m.number, m.color, m.x, m.y, m.time_taken, m.clock_after) for m in await games.moves(session, game_id)],
            [(c.channel, c.text) for c in await games.chat(session, game_id)],
        )


async def test_the_contract_is_the_same_through_a_session_and_a_sessionmaker(
    db_sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    """One script of appends (moves, a pass, chat, an undo, several events at once, a stale version, the end)
    through either form of ``append`` leaves the same rows; run on SQLite and PostgreSQL."""
    stored = []
    first_id, black_id, white_id = await _new_game(db_sessionmaker)
    for through_session in (True, False):
        game_id = first_id if through_session else (await _new_game_for(db_sessionmaker, black_id, white_id))[0]
        script = [
            (0, [NewEvent("move", {"p": [2, 3]}, move=NewMove(1, "B", (2, 3), 1.5, {"main": 9.0}))]),
            (
                1,
                [
                    NewEvent("pass", {}, move=NewMove(2, "W", None)),
                    NewEvent("chat", {"text": "hi"}, chat=NewChat("players", black_id, "hi"), updates={"state": {"n": 3}}),
                ],
            ),
            (3, [NewEvent("undo", {}, updates={"move_count": 1}, drop_moves_from=2)]),
            (3, [NewEvent("move", {"late": True}, move=NewMove(2, "W", (0, 0)))]),  # stale: refused
            (
                4,
                [
                    NewEvent("move", {"p": [4, 4]}, move=NewMove(2, "W", (4, 4))),
                    NewEvent("game_over", {}, updates={"status": "finished", "result": "W+R"}),
                ],
            ),
        ]
        answers: list[object] = []
        for expected, events in script:
            try:
                if through_session:
                    async with db_sessionmaker() as session:
                        answers.append(await games.append(session, game_id, expected, events))
                else:
                    answers.append(await games.append(db_sessionmaker, game_id, expected, events))
            except VersionConflict:
                answers.append("conflict")
        assert answers == [1, 3, 4, "conflict", 6]
        stored.append(await _stored(db_sessionmaker, game_id))
    assert stored[0] == stored[1]
    assert stored[0][0] == (6, 2, {"n": 3}, "finished", "W+R")


async def test_lists_live_and_per_user(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    game_id, black_id, white_id = await _new_game(db_sessionmaker)
    other_id, _, _ = await _new_game_for(db_sessionmaker, black_id, white_id)
    async with db_sessionmaker() as session:
        await games.append(session, other_id, 0, [NewEvent("game_over", {}, updates={"status": "finished", "result": "B+R"})])
    async with db_sessionmaker() as session:
        assert [row.game.id for row in await games.list_live(session)] == [game_id]
        active = await games.list_for_user(session, white_id, finished=False)
        finished = await games.list_for_user(session, white_id, finished=True)
        assert [row.game.id for row in active] == [game_id]
        assert [(row.game.id, row.game.result) for row in finished] == [(other_id, "B+R")]
        assert active[0].black.id == black_id and active[0].white.name == "Guest-bbbb"
        assert await games.list_for_user(session, 999999, finished=False) == []


async def _new_game_for(sessionmaker: async_sessionmaker[AsyncSession], black_id: int, white_id: int) -> tuple[str, int, int]:
    async with sessionmaker() as session:
        game = await games.add(
            session,
            board_size=19,
            rules="japanese",
            rules_params={},
            komi=6.5,
            handicap=0,
            time_control={"kind": "none"},
            config={"size": 19, "rules": {"preset": "japanese"}},
            rated=False,
            black_id=black_id,
            white_id=white_id,
        )
        await session.commit()
        return game.id, black_id, white_id
