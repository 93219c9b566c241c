"""Engines on PostgreSQL: pooled connections that die are replaced, with no ping per checkout."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.db import create_engine, create_sessionmaker, is_connection_lost
from tests.support.services import POSTGRES_URL


pytestmark = pytest.mark.parametrize("database_url", ["postgres"], indirect=True)


async def _backend_pid(session: AsyncSession) -> int:
    return int((await session.execute(text("SELECT pg_backend_pid()"))).scalar_one())


async def _terminate(pid: int) -> None:
    admin = await asyncpg.connect(POSTGRES_URL.replace("+asyncpg", ""))
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()


async def test_no_ping_on_checkout(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        assert engine.pool._pre_ping is False  # the setting this module chooses
    finally:
        await engine.dispose()


async def test_a_pooled_connection_closed_by_the_server_is_replaced_at_checkout(database_url: str) -> None:
    engine = create_engine(database_url)
    sessions = create_sessionmaker(engine)
    try:
        async with sessions() as session:
            first = await _backend_pid(session)
        await _terminate(first)
        await asyncio.sleep(0.2)  # the server's goodbye reaches the pooled connection
        async with sessions() as session:
            second = await _backend_pid(session)
        assert second != first
    finally:
        await engine.dispose()


async def test_a_statement_on_a_dead_connection_is_a_lost_connection_and_the_pool_recovers(database_url: str) -> None:
    engine = create_engine(database_url)
    sessions = create_sessionmaker(engine)
    try:
        async with engine.connect() as connection:
            pid = int((await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one())
            await connection.commit()
            await _terminate(pid)  # dies while checked out: only the next statement finds out
            with pytest.raises(DBAPIError) as caught:
                await connection.execute(text("SELECT 1"))
        assert is_connection_lost(caught.value)
        async with sessions() as session:
            assert await _backend_pid(session) != pid
    finally:
        await engine.dispose()


async def test_an_ordinary_error_is_not_a_lost_connection(database_url: str) -> None:
    engine = create_engine(database_url)
    sessions = create_sessionmaker(engine)
    try:
        async with sessions() as session:
            with pytest.raises(DBAPIError) as caught:
                await session.execute(text("SELECT 1/0"))
        assert not is_connection_lost(caught.value)
    finally:
        await engine.dispose()
