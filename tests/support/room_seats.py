"""Acting on a Room directly (no socket): the two players' connections, which write nowhere."""

from __future__ import annotations

from collections.abc import Callable

from app.transport.connection import Connection
from tests.support.players import Player


async def _nothing(*_args: object) -> None:
    return None


def seats(black: Player, white: Player) -> Callable[[str], Connection]:
    """A function from a colour ("B" or "W") to a new connection of that player, seated at that colour."""

    def seat(color: str) -> Connection:
        user = (black if color == "B" else white).user
        return Connection(_nothing, _nothing, user_id=user["id"], user_name=user["name"], role=color)

    return seat
