"""A cap on HTTP request bodies, checked as they stream in: 413 ``too_large`` beyond ``max_bytes``.

A declared ``Content-Length`` over the cap is refused before anything is read. A body without one (chunked)
is counted as it arrives; the moment it passes the cap the application gets no more of it, and whatever it
would have answered is replaced by the 413. Nothing in Tengen takes a body anywhere near the cap, except an
analysis board's tree or SGF record, whose paths have a larger cap of their own (``larger``).
"""

from __future__ import annotations

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(Exception):
    pass


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, max_bytes: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = larger or {}  # path prefix -> its own cap (an analysis board's tree, an SGF upload)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.max_bytes <= 0:
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        cap = next((size for prefix, size in self.larger.items() if path.startswith(prefix)), self.max_bytes)
        for key, value in scope["headers"]:
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > cap:
                    await self._refuse(send, cap)
                    return
        received = 0
        over = False
        started = False

        async def limited_receive() -> Message:
            nonlocal received, over
            if over:
                raise BodyTooLarge()
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > cap:
                    over = True
                    raise BodyTooLarge()
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if over:  # the application's own answer (often a 400 for the broken read) becomes the 413
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await self._refuse(send, cap)
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send, cap)
        if over and not started:
            await self._refuse(send, cap)

    async def _refuse(self, send: Send, cap: int) -> None:
        body = orjson.dumps({"error": {"code": "too_large", "message": f"Request bodies are limited to {cap} bytes."}})
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
