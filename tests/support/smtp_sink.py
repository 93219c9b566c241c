"""A real SMTP server for tests (aiosmtpd, on its own thread) that keeps every message it is given."""

from __future__ import annotations

import re
import socket
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class _Keeper:
    def __init__(self, sink: "SmtpSink") -> None:
        self.sink = sink

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address in self.sink.refused:
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # aiosmtpd's name
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        with self.sink.lock:
            self.sink.messages.append(parsed)
            self.sink.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"


class SmtpSink:
    """``start()`` listens on ``port`` (a free one unless given); ``stop()`` stops listening (the server is
    "down" until started again on the same port)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self.refused: set[str] = set()  # addresses answered "550 no such mailbox"
        self.lock = threading.Lock()
        self._controller: Controller | None = None

    def start(self) -> "SmtpSink":
        self._controller = Controller(_Keeper(self), hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m, rcpt in zip(self.messages, self.recipients) if address in rcpt]

    def wait_for(self, address: str, count: int, timeout: float = 10.0) -> list[EmailMessage]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.to(address)
            if len(found) >= count:
                return found
            time.sleep(0.02)
        raise AssertionError(f"{count} messages to {address} expected, {len(self.to(address))} arrived")


def body_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def link_token(message: EmailMessage, route: str) -> str:
    """The token of the first ``#/<route>/<token>`` link in a message."""
    found = re.search(rf"#/{re.escape(route)}/(\S+)", body_of(message))
    assert found, body_of(message)
    return found.group(1)
