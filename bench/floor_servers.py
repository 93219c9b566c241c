"""The two floors ``room_bench.py`` measures Tengen against, each a bare ``websockets`` server in its own process.

    persist-echo  every message is parsed, one row is committed to PostgreSQL (an asyncpg pool, one INSERT in
                  autocommit), then an ack ``{"t": "ack", "id": ..., "v": n}`` is sent back to the sender:
                  the least a server can do that persists a move before acknowledging it.
    broadcast     every message from a sender is stamped with a version and sent to every other socket with
                  ``websockets.broadcast()``, then acked to the sender: the least a server can do to fan one
                  move out to its listeners.

    python bench/floor_servers.py persist-echo --port P --dsn postgresql://...
    python bench/floor_servers.py broadcast --port P

Each prints ``ready`` on stdout once it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys

import orjson
from websockets.asyncio.server import ServerConnection, broadcast, serve

TABLE = "bench_floor_events"


async def persist_echo(port: int, dsn: str) -> None:
    import asyncpg

    pool = await asyncpg.create_pool(dsn, min_size=5, max_size=15)
    await pool.execute(
        f"CREATE TABLE IF NOT EXISTS {TABLE} (id bigserial PRIMARY KEY, game_id text NOT NULL, v integer NOT NULL,"
        " payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
    )
    conn_ids = itertools.count(1)

    async def handler(ws: ServerConnection) -> None:
        game_id = f"floor-{next(conn_ids)}"
        v = 0
        async for raw in ws:
            message = orjson.loads(raw)
            v += 1
            await pool.execute(
                f"INSERT INTO {TABLE} (game_id, v, payload) VALUES ($1, $2, $3::jsonb)",
                game_id,
                v,
                raw if isinstance(raw, str) else raw.decode(),
            )
            await ws.send(orjson.dumps({"t": "ack", "id": message.get("id"), "v": v}).decode())

    async with serve(handler, "127.0.0.1", port, ping_interval=None):
        print("ready", flush=True)
        await asyncio.Future()


async def broadcaster(port: int) -> None:
    listeners: set[ServerConnection] = set()
    versions = itertools.count(1)

    async def handler(ws: ServerConnection) -> None:
        listeners.add(ws)
        try:
            async for raw in ws:
                message = orjson.loads(raw)
                v = next(versions)
                out = dict(message)
                out["v"] = v
                out["t"] = "move"
                broadcast([c for c in listeners if c is not ws], orjson.dumps(out).decode())
                await ws.send(orjson.dumps({"t": "ack", "id": message.get("id"), "v": v}).decode())
        finally:
            listeners.discard(ws)

    async with serve(handler, "127.0.0.1", port, ping_interval=None):
        print("ready", flush=True)
        await asyncio.Future()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["persist-echo", "broadcast"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dsn", default="")
    args = parser.parse_args(argv)
    try:
        if args.kind == "persist-echo":
            asyncio.run(persist_echo(args.port, args.dsn))
        else:
            asyncio.run(broadcaster(args.port))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
