"""A cap on HTTP request bodies, checked as they stream in: 413 ``too_large`` beyond ``max_bytes``.

A declared ``Content-Length`` over the cap is refused before anything is read. A body without one (chunked)
is counted as it arrives; the moment it passes the cap the application gets no more of it, and whatever it
would have answered is replaced by the 413. Nothing in Tengen takes a body anywhere near the cap.
"""

from __future__ import annotations

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(Exception):
    pass


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.max_bytes <= 0:
            await self.app(scope, receive, send)
            return
        for key, value in scope["headers"]:
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_bytes:
                    await self._refuse(send)
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
                if received > self.max_bytes:
                    over = True
                    raise BodyTooLarge()
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if over:  # the application's own answer (often a 400 for the broken read) becomes the 413
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await self._refuse(send)
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)
        if over and not started:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = orjson.dumps({"error": {"code": "too_large",
                                       "message": f"Request bodies are limited to {self.max_bytes} bytes."}})
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
