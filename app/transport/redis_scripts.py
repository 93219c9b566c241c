"""Lua scripts run atomically inside Redis by ``RedisHub``.

The recent log of a channel is a list of payloads (``log``) plus the newest version (``head``); the list is
contiguous, so the oldest kept version is ``head - LLEN(log) + 1``. The rules mirror ``RecentLog``.
"""

# KEYS: log, head.  ARGV: v, data, log size, ttl seconds, pubsub channel.
# Returns 1 when logged and published, 0 for a duplicate (nothing done).
APPEND_AND_PUBLISH = """
local v = tonumber(ARGV[1])
local head = redis.call('GET', KEYS[2])
if head then
  head = tonumber(head)
  if v <= head then return 0 end
  if v ~= head + 1 then redis.call('DEL', KEYS[1]) end
else
  redis.call('DEL', KEYS[1])
end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[2])
return 1
"""

# KEYS: log, head.  ARGV: after_v, latest (or -1).  Returns the payloads, or nil when the log cannot cover.
REPLAY = """
local head = redis.call('GET', KEYS[2])
if not head then return false end
head = tonumber(head)
local after_v = tonumber(ARGV[1])
local latest = tonumber(ARGV[2])
local len = redis.call('LLEN', KEYS[1])
if len == 0 or after_v > head or (latest >= 0 and head < latest) then return false end
local first = head - len + 1
if after_v + 1 < first then return false end
return redis.call('LRANGE', KEYS[1], after_v + 1 - first, -1)
"""

# KEYS: deadlines (sorted set).  ARGV: now, limit, now + lease.  Returns the claimed keys.
CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, key in ipairs(due) do
  redis.call('ZADD', KEYS[1], ARGV[3], key)
end
return due
"""

# KEYS: deadlines (sorted set), deadline versions (hash).  ARGV: key, deadline ('' to clear), version
# ('' for none). A deadline computed at an older version than the one recorded is ignored. Returns 1 if applied.
SET_DEADLINE = """
if ARGV[3] ~= '' then
  local known = redis.call('HGET', KEYS[2], ARGV[1])
  if known and tonumber(known) > tonumber(ARGV[3]) then return 0 end
end
if ARGV[2] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
end
return 1
"""
