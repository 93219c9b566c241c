"""The objects a game's messages carry inside them, typed: GAME's moves (and, with them, the protocol's CLOCKS,
SCORE, RESULT and offers as they are added here).

They are ``TypedDict``s rather than models: the authority builds these objects as plain data once, and the
same data goes into every message, so a type that describes them without wrapping them is enough. The schema
in docs/protocol.schema.json declares their fields from these, so the frontend's tests can check what the
client reads inside them (tests/frontend/test_fixtures_schema.py).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

Color = Literal["B", "W"]
WirePoint = Annotated[list[int], Field(min_length=2, max_length=2)]  # [x, y], as the server sends a point


class GameMove(TypedDict):
    """One of GAME's ``moves``: ``p`` null for a pass; ``captured``, the stones the move removed (the mover's
    own for a multi-stone suicide), as the engine recorded them when the move was played."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]  # pydantic reads a TypedDict's config here
    color: Color
    p: WirePoint | None
    captured: list[WirePoint]
