"""What a room decided for one client message: acknowledged at a version, or refused with a code.

The room returns an :class:`Outcome`; the socket endpoint encodes it (``encode``) and counts it (``code``)
without reading its own reply back.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from app.protocol import ErrorMessage, encode


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
            # Every move's answer: the ``Ack`` model's wire form, written directly (tests/live/test_outcome.py
            # holds the two to the same bytes).
            return orjson.dumps({"t": "ack", "id": self.client_id or "", "v": self.v})
        return encode(ErrorMessage(id=self.client_id, code=self.code, message=self.message, reason=self.reason))
