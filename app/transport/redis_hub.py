"""The Redis hub: live rooms shared by any number of server instances.

Keys, all under ``prefix``:

- ``log:<channel>`` (list) and ``head:<channel>`` (string): the recent log, see ``redis_scripts.py``;
- ``pres:<channel>:<instance>`` (hash conn_id -> [role, user_id]) with a TTL this instance refreshes, and
  ``presi:<channel>`` (set of those hash keys): presence, which vanishes when an instance dies;
- ``deadlines`` (sorted set key -> epoch seconds): deadlines; ``deadline_versions`` (hash key -> the row
  version each was computed at, so an older one never replaces a newer one). A key is stored exactly as the
  caller gave it, so a key format a domain once chose stays readable by every later version of the hub;
- ``alive``: a marker whose disappearance reveals a flush or restart;
- Pub/Sub channel ``ch:<channel>``: fan-out.

One Pub/Sub connection per instance subscribes to exactly the channels with local subscribers. A reader
task owns it; when it breaks, the reader reconnects with backoff, resubscribes and resets every local
subscriber (they may have missed messages). Versioned publishes log and PUBLISH in one script, so the log
order and the delivery order are the same on every instance.

One module over 400 lines: it implements the whole ``Hub`` interface (hub.py) on one connection and one
subscription task, which every part of it shares.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import uuid
from collections import deque
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from app.transport import redis_scripts
from app.transport.fanout import DEFAULT_MAX_PENDING, LocalFanout
from app.transport.hub import (
    DEFAULT_LEASE,
    DEFAULT_LOG_SIZE,
    Hub,
    LostCallback,
    MessageCallback,
    ResetCallback,
    Unsubscribe,
    check_role,
)

log = logging.getLogger(__name__)

DEFAULT_PRESENCE_TTL = 30.0
DEFAULT_KEY_TTL = 86_400  # seconds a quiet channel's log and state are kept
# The commands' connections: redis-py's own pool fails at once past 100 (MaxConnectionsError), which a burst of
# actions on one instance reached, losing the messages they published. This pool makes a command wait for a connection
# instead, up to POOL_WAIT seconds (a Redis that answers nothing for that long is down: the caller's usual
# handling of a lost Redis applies).
POOL_CONNECTIONS = 100
POOL_WAIT = 10.0
SUBSCRIBE_TIMEOUT = 5.0


class RedisHub(Hub):
    def __init__(
        self,
        url: str,
        prefix: str = "tengen:",
        *,
        log_size: int = DEFAULT_LOG_SIZE,
        max_pending: int = DEFAULT_MAX_PENDING,
        presence_ttl: float = DEFAULT_PRESENCE_TTL,
        key_ttl: int = DEFAULT_KEY_TTL,
    ) -> None:
        if log_size < 1:
            raise ValueError("the log must keep at least one event")
        self.url = url
        self.prefix = prefix
        self.log_size = log_size
        self.presence_ttl = presence_ttl
        self.key_ttl = key_ttl
        self.instance = uuid.uuid4().hex
        self._fanout = LocalFanout(max_pending)
        self._redis: aioredis.Redis | None = None
        self._ps_redis: aioredis.Redis | None = None
        self._pubsub: aioredis.client.PubSub | None = None
        self._sub_lock = asyncio.Lock()
        self._remote: set[str] = set()  # channels subscribed (or being subscribed) on the Pub/Sub connection
        self._pending: dict[str, deque[list[asyncio.Future[None]]]] = {}  # awaiting SUBSCRIBE confirmation
        self._resetting: set[str] = set()  # resubscribed after a reconnect: reset once confirmed
        self._presence_lock = asyncio.Lock()
        self._joined: dict[str, dict[str, tuple[str, int | str | None]]] = {}  # this instance's presence
        self._lost_callbacks: list[LostCallback] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False

    # -- keys --------------------------------------------------------------------------------------------

    def _key(self, kind: str, channel: str) -> str:
        return f"{self.prefix}{kind}:{channel}"

    def _presence_key(self, channel: str) -> str:
        return f"{self.prefix}pres:{channel}:{self.instance}"

    @property
    def _ps_prefix(self) -> str:
        return f"{self.prefix}ch:"

    @property
    def _alive_key(self) -> str:
        return f"{self.prefix}alive"

    @property
    def _deadlines_key(self) -> str:
        return f"{self.prefix}deadlines"

    @property
    def _deadline_versions_key(self) -> str:
        return f"{self.prefix}deadline_versions"

    @property
    def client_name(self) -> str:
        """The Redis client name of this instance's Pub/Sub connection."""
        return f"{self.prefix}{self.instance}:pubsub"

    @property
    def redis(self) -> aioredis.Redis:
        if self._redis is None:
            raise RuntimeError("the hub is not started")
        return self._redis

    # -- lifecycle ---------------------------------------------------------------------------------------

    async def start(self) -> None:
        pool = aioredis.BlockingConnectionPool.from_url(
            self.url, max_connections=POOL_CONNECTIONS, timeout=POOL_WAIT, socket_connect_timeout=5, socket_keepalive=True
        )
        self._redis = aioredis.Redis.from_pool(pool)  # closed with the client
        # The Pub/Sub client never retries by itself: the reader task reconnects and resets subscribers.
        self._ps_redis = aioredis.Redis.from_url(
            self.url,
            socket_connect_timeout=5,
            socket_keepalive=True,
            health_check_interval=10,
            retry=Retry(NoBackoff(), 0),
            client_name=self.client_name,
        )
        self._append = self._redis.register_script(redis_scripts.APPEND_AND_PUBLISH)
        self._replay = self._redis.register_script(redis_scripts.REPLAY)
        self._claim = self._redis.register_script(redis_scripts.CLAIM_DUE)
        self._set_deadline_script = self._redis.register_script(redis_scripts.SET_DEADLINE)
        await self._redis.set(self._alive_key, self.instance, nx=True)
        await self._connect_pubsub()
        self._tasks = [
            asyncio.create_task(self._read_loop(), name="redis-hub-reader"),
            asyncio.create_task(self._heartbeat_loop(), name="redis-hub-heartbeat"),
        ]

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            try:
                await task
            except asyncio.CancelledError:
                pass
        await self._fanout.close()
        for futures in self._pending.values():
            for group in futures:
                for future in group:
                    future.cancel()
        self._pending.clear()
        if self._redis is not None and self._joined:
            try:
                async with self._presence_lock:
                    pipe = self._redis.pipeline(transaction=False)
                    for channel in self._joined:
                        pipe.delete(self._presence_key(channel))
                        pipe.srem(self._key("presi", channel), self._presence_key(channel))
                    await pipe.execute()
            except aioredis.RedisError:
                log.warning("could not withdraw presence from Redis; it expires by itself")
            self._joined.clear()
        await self._drop_pubsub()
        for client in (self._ps_redis, self._redis):
            if client is not None:
                await client.aclose()

    # -- Pub/Sub connection ------------------------------------------------------------------------------

    async def _connect_pubsub(self) -> None:
        """Open a Pub/Sub connection and subscribe it to every channel with local subscribers."""
        assert self._ps_redis is not None
        pubsub = self._ps_redis.pubsub()
        try:
            await pubsub.connect()
            async with self._sub_lock:
                channels = sorted(self._remote)
                # Whatever was awaiting a confirmation on the old connection is confirmed by the new one.
                for channel in list(self._pending):
                    groups = self._pending.pop(channel)
                    merged = [future for group in groups for future in group]
                    if channel in self._remote:
                        self._pending[channel] = deque([merged])
                    else:
                        _resolve(merged)
                for channel in channels:
                    self._pending.setdefault(channel, deque([[]]))
                self._resetting = set(channels)
                if channels:
                    await pubsub.subscribe(*(self._ps_prefix + channel for channel in channels))
                self._pubsub = pubsub
        except BaseException:
            await pubsub.aclose()
            raise

    async def _drop_pubsub(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            try:
                await pubsub.aclose()
            except Exception:  # the connection is already broken; nothing more to release
                log.debug("closing a broken Pub/Sub connection failed", exc_info=True)

    async def _read_loop(self) -> None:
        backoff = 0.05
        while True:
            try:
                if self._pubsub is None:
                    await self._connect_pubsub()
                    log.info("Redis Pub/Sub connection re-established")
                pubsub = self._pubsub
                assert pubsub is not None  # _connect_pubsub sets it or raises
                message = await pubsub.get_message(timeout=1.0)
                backoff = 0.05
                if message is not None:
                    self._handle(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("Redis Pub/Sub connection lost (%s); reconnecting", exc)
                await self._drop_pubsub()
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)

    def _handle(self, message: dict) -> None:
        name = message.get("channel")
        if isinstance(name, bytes):
            name = name.decode()
        if not isinstance(name, str) or not name.startswith(self._ps_prefix):
            return
        channel = name[len(self._ps_prefix) :]
        kind = message["type"]
        if kind == "message":
            self._fanout.deliver(channel, message["data"])
        elif kind == "subscribe":
            groups = self._pending.get(channel)
            if groups:
                _resolve(groups.popleft())
                if not groups:
                    del self._pending[channel]
            if channel in self._resetting:
                self._resetting.discard(channel)
                self._fanout.reset(channel)

    # -- fan-out and the recent log ----------------------------------------------------------------------

    async def publish(self, channel: str, data: bytes, v: int | None = None) -> bool:
        if v is None:
            await self.redis.publish(self._ps_prefix + channel, data)
            return True
        done = await self._append(
            keys=[self._key("log", channel), self._key("head", channel)],
            args=[int(v), data, self.log_size, self.key_ttl, self._ps_prefix + channel],
        )
        return bool(done)

    async def replay(self, channel: str, after_v: int, latest: int | None = None) -> list[bytes] | None:
        events = await self._replay(
            keys=[self._key("log", channel), self._key("head", channel)],
            args=[int(after_v), -1 if latest is None else int(latest)],
        )
        return None if events is None else list(events)

    async def newest(self, channel: str) -> int | None:
        head = await self.redis.get(self._key("head", channel))
        return None if head is None else int(head)

    async def subscribe(self, channel: str, callback: MessageCallback, on_reset: ResetCallback | None = None) -> Unsubscribe:
        subscriber = self._fanout.add(channel, callback, on_reset)
        waiting: asyncio.Future[None] | None = None
        async with self._sub_lock:
            groups = self._pending.get(channel)
            if channel not in self._remote:
                self._remote.add(channel)
                waiting = asyncio.get_running_loop().create_future()
                self._pending.setdefault(channel, deque()).append([waiting])
                if self._pubsub is not None:
                    try:
                        await self._pubsub.subscribe(self._ps_prefix + channel)
                    except Exception as exc:  # the reader reconnects and resubscribes everything
                        log.warning("SUBSCRIBE %s failed (%s); it is retried on reconnect", channel, exc)
            elif groups:  # subscribed, but not yet confirmed: wait for that confirmation too
                waiting = asyncio.get_running_loop().create_future()
                groups[-1].append(waiting)
        if waiting is not None:
            try:
                await asyncio.wait_for(asyncio.shield(waiting), SUBSCRIBE_TIMEOUT)
            except TimeoutError:
                log.warning("SUBSCRIBE %s not confirmed yet; delivery starts when Redis answers", channel)

        async def unsubscribe() -> None:
            if not await self._fanout.remove(subscriber):
                return
            async with self._sub_lock:
                if self._fanout.has(channel) or channel not in self._remote:
                    return
                self._remote.discard(channel)
                if self._pubsub is not None:
                    try:
                        await self._pubsub.unsubscribe(self._ps_prefix + channel)
                    except Exception as exc:  # a reconnect subscribes only to channels still wanted
                        log.warning("UNSUBSCRIBE %s failed (%s)", channel, exc)

        return unsubscribe

    # -- presence ----------------------------------------------------------------------------------------

    async def join(self, channel: str, conn_id: str, role: str, user_id: int | str | None) -> None:
        check_role(role)
        async with self._presence_lock:
            self._joined.setdefault(channel, {})[conn_id] = (role, user_id)
            key = self._presence_key(channel)
            pipe = self.redis.pipeline(transaction=True)
            pipe.hset(key, conn_id, orjson.dumps([role, user_id]))
            pipe.pexpire(key, self._presence_ttl_ms)
            pipe.sadd(self._key("presi", channel), key)
            pipe.pexpire(self._key("presi", channel), self._presence_ttl_ms)
            await pipe.execute()

    async def leave(self, channel: str, conn_id: str) -> None:
        async with self._presence_lock:
            entries = self._joined.get(channel)
            if entries is None or entries.pop(conn_id, None) is None:
                return
            key = self._presence_key(channel)
            if entries:
                await self.redis.hdel(key, conn_id)
            else:
                del self._joined[channel]
                pipe = self.redis.pipeline(transaction=True)
                pipe.delete(key)
                pipe.srem(self._key("presi", channel), key)
                await pipe.execute()

    async def members(self, channel: str) -> list[tuple[str, int | str | None]]:
        members = sorted(await self.redis.smembers(self._key("presi", channel)))
        if not members:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for member in members:
            pipe.hvals(member)
        results = await pipe.execute()
        entries: list[tuple[Any, ...]] = []
        gone = []
        for member, values in zip(members, results):
            if not values:
                gone.append(member)
            entries.extend(tuple(orjson.loads(value)) for value in values)
        if gone:  # instances that died or left: their hashes expired
            await self.redis.srem(self._key("presi", channel), *gone)
        return [(str(role), user_id) for role, user_id in entries]

    @property
    def _presence_ttl_ms(self) -> int:
        return max(int(self.presence_ttl * 1000), 1)

    async def _refresh_presence(self) -> None:
        """Rewrite this instance's presence and push its expiry forward (also restores it after a flush)."""
        async with self._presence_lock:
            if not self._joined:
                return
            pipe = self.redis.pipeline(transaction=True)
            for channel, entries in self._joined.items():
                key = self._presence_key(channel)
                pipe.delete(key)
                pipe.hset(key, mapping={conn: orjson.dumps([r, u]) for conn, (r, u) in entries.items()})
                pipe.pexpire(key, self._presence_ttl_ms)
                pipe.sadd(self._key("presi", channel), key)
                pipe.pexpire(self._key("presi", channel), self._presence_ttl_ms)
            await pipe.execute()

    async def _heartbeat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.presence_ttl / 3)
            try:
                lost = await self.redis.set(self._alive_key, self.instance, nx=True)
                await self._refresh_presence()
                if lost:
                    log.warning("Redis lost the hub's shared state (flushed or restarted)")
                    for callback in list(self._lost_callbacks):
                        try:
                            result = callback()
                            if inspect.isawaitable(result):
                                await result
                        except Exception:
                            log.exception("hub state-lost callback failed")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("hub heartbeat failed (%s)", exc)

    # -- deadlines ---------------------------------------------------------------------------------------

    async def set_deadline(self, key: str, at: float, v: int | None = None) -> None:
        await self._set_deadline_script(
            keys=[self._deadlines_key, self._deadline_versions_key],
            args=[str(key), repr(float(at)), "" if v is None else int(v)],
        )

    async def clear_deadline(self, key: str, v: int | None = None) -> None:
        await self._set_deadline_script(
            keys=[self._deadlines_key, self._deadline_versions_key], args=[str(key), "", "" if v is None else int(v)]
        )

    async def get_deadline(self, key: str) -> float | None:
        return await self.redis.zscore(self._deadlines_key, str(key))

    async def claim_due(self, now: float, limit: int = 100, lease: float = DEFAULT_LEASE) -> list[str]:
        if limit <= 0:
            return []
        claimed = await self._claim(keys=[self._deadlines_key], args=[repr(float(now)), int(limit), repr(now + lease)])
        return [key.decode() for key in claimed]

    def on_state_lost(self, callback: LostCallback) -> None:
        self._lost_callbacks.append(callback)


def _resolve(futures: list[asyncio.Future[None]]) -> None:
    for future in futures:
        if not future.done():
            future.set_result(None)
