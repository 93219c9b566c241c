"""What the application knows of the WebSocket protocol it is served with, and which versions the lean one was
tested with.

The server serves sockets with ``LeanWebSocketProtocol`` (``app/lean_ws_protocol.py``: about 8 KB less per open
socket, and a text written straight to the transport) only when uvicorn and ``websockets`` are installed at
the versions it was tested with (``TESTED_WITH``, the pins of constraints.txt; a test holds the two equal),
because it reaches into their private internals; with any other version the server serves with uvicorn's own
protocol and says so once in its log (``app.server.websocket_protocol``). The application works with either:
it finds ``send_text_now`` in the socket's scope only under the lean protocol (``text_sender``), and sends
through ASGI otherwise. Nothing here imports uvicorn's or ``websockets``' internals.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import metadata

from starlette.websockets import WebSocket

FRAME_EXTENSION = "tengen.websocket.frame"

# The versions LeanWebSocketProtocol was tested with: the pins of constraints.txt (tests/test_ws_protocol.py).
TESTED_WITH = {"uvicorn": "0.54.0", "websockets": "17.4"}
# uvicorn's own choice of WebSocket protocol, served with when the installed versions are not those.
STOCK_PROTOCOL = "auto"


def untested_versions(installed: Callable[[str], str] = metadata.version) -> dict[str, str | None]:
    """The distributions of ``TESTED_WITH`` installed at another version (None: not installed), by name."""
    found: dict[str, str | None] = {}
    for name, tested in TESTED_WITH.items():
        try:
            version: str | None = installed(name)
        except metadata.PackageNotFoundError:
            version = None
        if version != tested:
            found[name] = version
    return found


def text_sender_now(websocket: WebSocket) -> Callable[[str], bool] | None:
    """The server's ``send_text_now`` for this socket (None when the server does not offer it)."""
    extension = websocket.scope.get("extensions", {}).get(FRAME_EXTENSION)
    return None if extension is None else extension["send_text_now"]


def text_sender(websocket: WebSocket) -> Callable[[str], Awaitable[None]]:
    """``websocket.send_text``, taking the shorter way (``send_text_now``) whenever the server offers it."""
    send_now = text_sender_now(websocket)
    if send_now is None:
        return websocket.send_text
    send_text = websocket.send_text

    async def send(text: str) -> None:
        if not send_now(text):
            await send_text(text)

    return send
