"""The chat limits every room shares: lines per user in a window, and no repeated line in one room."""

from __future__ import annotations

from app.limits.chat import chat_refusal
from app.limits.counters import MemoryCounters
from app.limits.rules import Limiter


async def test_lines_over_the_window_and_repeats_are_refused() -> None:
    now = [100.0]
    limiter = Limiter(MemoryCounters(clock=lambda: now[0]))
    assert await chat_refusal(limiter, 3, 10, 1, "game:a", "hello") is None
    repeated = await chat_refusal(limiter, 3, 10, 1, "game:a", "  HELLO ")
    assert repeated is not None and repeated.code == "chat_repeated"
    assert await chat_refusal(limiter, 3, 10, 1, "review:b", "hello") is None  # another room: not a repeat
    over = await chat_refusal(limiter, 3, 10, 1, "game:a", "something else")
    assert over is not None and over.code == "chat_rate_limited"
    assert await chat_refusal(limiter, 3, 10, 2, "game:a", "hello") is None  # another user
    now[0] += 10
    assert await chat_refusal(limiter, 3, 10, 1, "game:a", "a new window") is None
