"""The adjudicated truths of the dead-stone set (issue 33), kept beside it in tests/rules/data/dead_truth_<size>.txt.

For each stored finished position (tests/rules/data/dead_<size>.txt) the play-out oracle (``playout_oracle.py``:
GNU Go plays it out under area rules, capturing the dead) and the three judges (KataGo's proposal at
``--judge-visits``, the rules engine's playouts, GNU Go's stored ``final_status_list dead``) each give a dead
list. Where all four agree, that list is the truth ("by play-out ..., every judge agrees"). Where any differs,
the **disputed chains** (those not every list puts on the same side) are adjudicated by the strongest judge here:
KataGo searching the position with the side to move to play (``--visits`` visits, area rules, the position's
komi), a chain dead when its stones' mean ownership is its opponent's (below 0 from its own side). A play-out of
a position that is not really finished is where GNU Go most often errs: the side to move wins a fight in the
play-out that a static judge leaves alone, or misplays one; the search reads the same fights far better than a
level-10 GNU Go. The chains every list agrees on keep that agreement. Each truth is written with how it was
settled, the disputed chains' ownership and what each list had, so a later reader can re-judge it.

Positions already in the file are kept and skipped, so the set is adjudicated in short runs (``--limit``)::

    .venv/bin/python bench/adjudicate_dead.py --size 9 [--visits 96] [--judge-visits 2] [--level 10]
        [--limit N] [--engines DIR] [--out FILE]

The last line: ``positions=<n> adjudicated=<m> playout_overruled=<k>`` (this run's). ``dead_stone_oracle.py
--truths`` then prints the three judges against the stored truths.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dead_stone_oracle import NICENESS, game_of, labels
from playout_oracle import played_out_dead

from app.engines import dead_stones
from app.engines.analysis import Colour, Question
from app.engines.lane import Lane, Priority
from app.engines.layout import Layout, engines_dir
from app.engines.process import Launch
from app.engines.rules import board_position
from app.engines.service import EngineService
from app.games.chains import expand_to_chains
from app.rules import Game
from app.rules.coords import to_gtp
from app.settings import Settings
from tests.rules.dead_positions import DATA, Truth, load, parse_truths

Point = tuple[int, int]


def disputed(game: Game, lists: dict[str, set[Point]]) -> list[list[Point]]:
    """The chains of ``game`` that the lists do not all put on the same side (dead or not)."""
    return [chain for _, chain in dead_stones.chains(game) if len({chain[0] in dead for dead in lists.values()}) > 1]


async def adjudicate(
    service: EngineService, game: Game, to_move: str, lists: dict[str, set[Point]], visits: int
) -> tuple[set[Point], str, bool]:
    """The truth of a position the lists disagree on, how it was found, and whether the play-out was overruled."""
    chains = disputed(game, lists)
    colour: Colour = "B" if to_move == "B" else "W"
    answer = await service.analyze(
        Question(board_position(game, colour), visits, ownership=True, pv_length=1), Priority.BACKGROUND
    )
    assert answer.ownership is not None
    agreed = set.intersection(*lists.values())  # dead in every list (the disputed chains are in none of these)
    truth = set(agreed)
    readings: list[str] = []
    for chain in chains:
        sign = 1.0 if game.stone_at(chain[0]) == "B" else -1.0
        owned = sign * sum(answer.ownership[y][x] for x, y in chain) / len(chain)
        if owned < 0:
            truth.update(chain)
        had = ",".join(name for name, dead in lists.items() if chain[0] in dead) or "none"
        readings.append(
            f"{to_gtp(chain[0], game.size)}({len(chain)}) {owned:+.2f} {'dead' if owned < 0 else 'alive'} [dead in: {had}]"
        )
    how = (
        f"KataGo {answer.visits} visits, {colour} to play, area rules: disputed chain (stones) mean ownership from its"
        f" side: {'; '.join(readings)}"
    )
    return truth, how, truth != lists["play-out"]


async def run(args: argparse.Namespace, layout: Layout) -> None:
    size = args.size
    out: Path = args.out or DATA / f"dead_truth_{size}.txt"
    kept = parse_truths(out.read_text(), size) if out.exists() else {}
    positions = [p for p in load(size) if p.note not in kept][: args.limit]
    lane = Lane(size, Launch.katago(layout, size, 1, 1, NICENESS), measure_visits=1)
    service = EngineService([lane])
    service.start()
    adjudicated = overruled = 0
    try:
        await lane.started.wait()
        if lane.state != "ready":
            raise SystemExit(f"KataGo did not start: {lane.error}")
        for position in positions:
            game = game_of(position.rows, position.to_move)
            playing = asyncio.create_task(asyncio.to_thread(played_out_dead, position.rows, position.to_move, args.level))
            katago = {(x, y) for x, y in (await dead_stones.ask(service, game, 600.0, args.judge_visits)).dead}
            played, moves = await playing
            lists = {
                "play-out": played,
                "KataGo": katago,
                "playouts": expand_to_chains(game, game.propose_dead()),
                "GNU Go": position.dead,
            }
            source = f"play-out (GNU Go level {args.level}, area rules, {moves} moves)"
            if all(dead == played for dead in lists.values()):
                truth = Truth(position.note, played, f"{source}; every judge agrees")
            else:
                dead, how, changed = await adjudicate(service, game, position.to_move, lists, args.visits)
                truth = Truth(position.note, dead, f"{how}; {source}")
                adjudicated += 1
                overruled += changed
                print(f"{position.note}: truth {labels(dead, size)} | {truth.how}", flush=True)
            kept[position.note] = truth
            write(out, size, kept)
    finally:
        await service.close()
    print(f"positions={len(positions)} adjudicated={adjudicated} playout_overruled={overruled}", flush=True)


def write(out: Path, size: int, truths: dict[str, Truth]) -> None:
    """The truths in the order of the stored positions (written after each one: a run cut short keeps its work)."""
    order = {p.note: i for i, p in enumerate(load(size))}
    ordered = sorted(truths.values(), key=lambda t: order.get(t.note, len(order)))
    out.write_text("".join(t.to_text(size) for t in ordered))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=9, choices=(9, 13, 19))
    parser.add_argument("--visits", type=int, default=96, help="KataGo's visits for an adjudication (default 96)")
    parser.add_argument("--judge-visits", type=int, default=2, help="KataGo's visits per reading as a judge (default 2)")
    parser.add_argument("--level", type=int, default=10, help="GNU Go's level for the play-out (default 10)")
    parser.add_argument("--limit", type=int, default=None, help="at most this many positions not yet in the file")
    parser.add_argument("--engines", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="default: tests/rules/data/dead_truth_<size>.txt")
    args = parser.parse_args()
    asyncio.run(run(args, Layout.under(args.engines or engines_dir(Settings()))))


if __name__ == "__main__":
    main()
