"""What a game socket's chat filter (app/moderation/chat_filter.py) costs per message, against sending the same
texts unfiltered, in one run on one machine.

Every socket of a signed-in user sends through its filter. For a viewer who blocks nobody the filter returns
each text at once; for one who blocks someone, chat lines and snapshots are read (moves and everything else
still pass untouched). The bench pushes a game's stream (``--moves`` moves, a chat line every
``--chat-every`` moves, then a snapshot carrying 50 chat lines) through three senders many times:
unfiltered, a viewer with no blocks, a viewer with blocks. Prints the time per message of each and, last,
``filter_ratio=<with blocks / unfiltered>``.

    .venv/bin/python bench/chat_filter_bench.py [--moves 200] [--chat-every 5] [--rounds 200]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable

import orjson

from app.moderation.chat_filter import ChatFilter


def stream(moves: int, chat_every: int) -> list[str]:
    out = []
    v = 0
    for n in range(moves):
        v += 1
        out.append(
            orjson.dumps(
                {
                    "t": "move",
                    "v": v,
                    "color": "BW"[n % 2],
                    "p": [n % 19, n // 19],
                    "captured": [],
                    "move_number": n + 1,
                    "to_move": "WB"[n % 2],
                    "server_time": 1.0e9 + n,
                }
            ).decode()
        )
        if n % chat_every == 0:
            v += 1
            out.append(
                orjson.dumps(
                    {
                        "t": "chat",
                        "v": v,
                        "channel": "players",
                        "at": 1.0e9 + n,
                        "text": "nice move",
                        "from": {"id": 7 + n % 3, "name": "someone", "rank": "3k"},
                    }
                ).decode()
            )
    chat = [
        {"v": i, "channel": "players", "from": {"id": 7 + i % 3, "name": "someone"}, "text": "gl hf", "at": 1.0}
        for i in range(50)
    ]
    board = [["." * 19] for _ in range(19)]
    # The snapshot as the wire carries it ("t" first, docs/protocol.md §4.3), cut down to what the filter reads.
    out.append(
        orjson.dumps({"t": "snapshot", "v": v, "you": {"role": "spectator"}, "game": {"chat": chat, "board": board}}).decode()
    )
    return out


async def run(texts: list[str], send: Callable[[str], Awaitable[None]], rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for text in texts:
            await send(text)
    return (time.perf_counter() - start) / (rounds * len(texts))


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--chat-every", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    texts = stream(args.moves, args.chat_every)
    sent: list[str] = []

    async def plain(text: str) -> None:  # stands in for the socket's send_text
        sent.append(text)
        if len(sent) > 1000:
            sent.clear()

    results = {}
    for label, send in (
        ("unfiltered", plain),
        ("no_blocks", ChatFilter(1, frozenset()).wrap(plain)),
        ("with_blocks", ChatFilter(1, frozenset({7})).wrap(plain)),
    ):
        await run(texts, send, max(1, args.rounds // 10))  # warm up
        results[label] = await run(texts, send, args.rounds)
        print(f"{label}: {results[label] * 1e6:.2f} us per message ({len(texts)} messages x {args.rounds} rounds)")
    print(f"no_blocks_ratio={results['no_blocks'] / results['unfiltered']:.2f}")
    print(f"filter_ratio={results['with_blocks'] / results['unfiltered']:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
