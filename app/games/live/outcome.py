"""What a room decided for one client message: acknowledged at a version, or refused with a code.

The room returns an :class:`Outcome`; the socket endpoint encodes it (``encode``) and counts it (``code``)
without reading its own reply back.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from app.games.messages import NOT_A_PLAYER_MESSAGE
from app.transport.messages import CHAT_RATE_LIMITED_MESSAGE, RATE_LIMITED_MESSAGE, ErrorMessage, encode


def _prebuilt(code: str, message: str) -> tuple[str, bytes, bytes, bytes]:
    """The ``error`` frame of a refusal a flood repeats, built once around its ``id``: (message, the frame
    without an id, the bytes before the id, the bytes after it)."""
    marker = "\x00id\x00"
    bare = encode(ErrorMessage(code=code, message=message))
    before, after = encode(ErrorMessage(id=marker, code=code, message=message)).split(orjson.dumps(marker))
    return message, bare, before, after


# The refusals a flood of refused messages repeats (a spectator's moves, chat past the limit, over the rate):
# their frames are written around the client's id, without building the model each time
# (tests/games/live/test_outcome.py holds them to the model's bytes).
_PREBUILT = {
    code: _prebuilt(code, message)
    for code, message in (
        ("not_a_player", NOT_A_PLAYER_MESSAGE),
        ("chat_rate_limited", CHAT_RATE_LIMITED_MESSAGE),
        ("rate_limited", RATE_LIMITED_MESSAGE),
    )
}


@dataclass(frozen=True, slots=True)
class Outcome:
    client_id: str | None
    v: int | None = None  # the version acknowledged (None: refused)
    code: str | None = None  # the refusal's stable code (None: acknowledged)
    message: str = ""
    reason: str | None = None

    @classmethod
    def ack(cls, client_id: str | None, v: int) -> Outcome:
        return cls(client_id, v=v)

    @classmethod
    def refused(cls, client_id: str | None, code: str, message: str, reason: str | None = None) -> Outcome:
        return cls(client_id, code=code, message=message, reason=reason)

    @property
    def ok(self) -> bool:
        return self.code is None

    def encode(self) -> bytes:
        """The ``ack`` or ``error`` message (app/protocol.py)."""
        if self.code is None:
            # Every move's answer: the ``Ack`` model's wire form, written directly (tests/games/live/test_outcome.py
            # holds the two to the same bytes).
            return orjson.dumps({"t": "ack", "id": self.client_id or "", "v": self.v})
        prebuilt = _PREBUILT.get(self.code)
        if prebuilt is not None and prebuilt[0] == self.message and self.reason is None:
            if self.client_id is None:
                return prebuilt[1]
            return prebuilt[2] + orjson.dumps(self.client_id) + prebuilt[3]
        return encode(ErrorMessage(id=self.client_id, code=self.code, message=self.message, reason=self.reason))
