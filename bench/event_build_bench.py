"""What building a move's messages with their typed models costs, against building the same wire objects as
plain dicts, in one run on one machine.

Each move a player makes gives the server two messages to build: the ``move`` event (app/games/events.py's
``build``, which checks its fields against the model) and the player's ``ack`` (``Outcome.encode``). Each is
built once per move and serialised once, whoever receives it. The bench takes the events of a random 19x19 game
(``--moves`` moves through the game authority), then builds and serialises each move's messages ``--rounds``
times: with the models, and as the plain dicts that were built before, from the same fields. Prints the time
per move of each, what the models add per move in microseconds and, last,
``build_ratio=<models / plain dicts>``.

    .venv/bin/python bench/event_build_bench.py [--moves 200] [--rounds 200]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import orjson

from app.games.authority import GameAuthority
from app.games.events import build
from app.games.live.outcome import Outcome
from app.games.visibility import split


def move_fields(moves: int, seed: int = 1) -> list[dict[str, Any]]:
    """The fields of each ``move`` event of a random game, as the authority gave them to ``build``."""
    rng = random.Random(seed)
    auth = GameAuthority({"size": 19, "time_control": {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30}}, 0.0)
    points = [[x, y] for x in range(19) for y in range(19)]
    rng.shuffle(points)
    out: list[dict[str, Any]] = []
    now = 1.0
    for p in points:
        if len(out) == moves:
            break
        if auth.game.illegal_reason(auth.game.to_move, (p[0], p[1])) is not None:
            continue
        for event in auth.apply(auth.game.to_move, {"t": "play", "p": p}, now, {"lag": 0.05}):
            if event["t"] == "move":
                out.append({k: v for k, v in event.items() if k not in ("t", "visibility")})
        now += 1.0
    return out


def with_models(fields: list[dict[str, Any]]) -> None:
    for v, f in enumerate(fields, 1):
        event = build("move", f)
        event["visibility"] = "all"
        split(event, v)
        Outcome.ack(f"m{v}", v).encode()


def as_dicts(fields: list[dict[str, Any]]) -> None:
    for v, f in enumerate(fields, 1):
        event = {"t": "move", **f}
        event["visibility"] = "all"
        split(event, v)
        orjson.dumps({"t": "ack", "id": f"m{v}", "v": v})


def per_move(run: Any, fields: list[dict[str, Any]], rounds: int) -> float:
    """Microseconds per move: the fastest of five batches of ``rounds`` games (the least disturbed)."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(rounds):
            run(fields)
        best = min(best, (time.perf_counter() - start) / (rounds * len(fields)))
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    fields = move_fields(args.moves)
    # Alternated, so that both see the same machine.
    models, dicts = [], []
    for _ in range(3):
        dicts.append(per_move(as_dicts, fields, args.rounds))
        models.append(per_move(with_models, fields, args.rounds))
    plain, typed = min(dicts), min(models)
    print(f"moves {len(fields)}, rounds {args.rounds}")
    print(f"plain dicts: {plain:.2f} us per move (event + split + ack)")
    print(f"models:      {typed:.2f} us per move (event + split + ack), {typed - plain:+.2f} us")
    print(f"build_ratio={typed / plain:.2f}")


if __name__ == "__main__":
    main()
