"""What the engine service refuses or fails with: each its own code, answered 503 where it reaches a client."""

from __future__ import annotations

from app.errors import ServiceError


class EngineUnavailable(ServiceError):
    """No engine for this: KataGo not installed or turned off, not able to start, or the board too large for it."""

    def __init__(self, message: str) -> None:
        super().__init__("engine_unavailable", message, 503)


class EngineBusy(ServiceError):
    """The queue is full: as many questions wait as the instance allows (``TENGEN_KATAGO_QUEUE``)."""

    def __init__(self, waiting: int) -> None:
        super().__init__("engine_busy", f"The engine has {waiting} positions waiting already; try again in a moment.", 503)


class EngineFailed(ServiceError):
    """KataGo stopped while it had the question (it is started again), refused it, or answered nonsense."""

    def __init__(self, message: str) -> None:
        super().__init__("engine_failed", message, 503)
