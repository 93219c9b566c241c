"""The names a game has on the hub: its room's channel and its clock's deadline key.

Both are byte-for-byte what they were when the hub itself named them (``game:<id>``, and the bare id as the
member of the Redis ``deadlines`` sorted set and ``deadline_versions`` hash): a running deployment's logs,
presence and clock deadlines are read by the upgraded one, so it upgrades in place. Change neither without a
migration of the keys Redis holds.
"""

from __future__ import annotations


def game_channel(game_id: str | int) -> str:
    """The channel of one game room."""
    return f"game:{game_id}"


def deadline_key(game_id: str | int) -> str:
    """The hub's deadline key of one game's clock: its id, unchanged (see above)."""
    return str(game_id)


def game_of_deadline(key: str) -> str:
    """The game a claimed deadline key names (``deadline_key`` read back)."""
    return key
