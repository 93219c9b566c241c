"""The dead-stone proposals against each other on stored finished positions: KataGo's (app/engines/dead_stones.py,
through the engine service), the rules engine's playouts (app/rules/dead.py) and GNU Go's ``final_status_list
dead`` (stored with each position in tests/rules/data/dead_<size>.txt, so GNU Go is not needed).

The truth: with ``--truths``, the adjudicated truths kept with the set (tests/rules/data/dead_truth_<size>.txt,
written by ``adjudicate_dead.py``: the play-out, and where any judge disputes it, KataGo's search on the disputed
chains), only the positions that have one; with ``--playout-level``, a fresh play-out by GNU Go at that level
(``playout_oracle.py``, not adjudicated). Without either, agreement with GNU Go's static judgement only.
Every position where any two of the judges (and the truth) differ is printed with all the lists. Printed per size:
identical dead lists with GNU Go (KataGo, the playouts), KataGo with the playouts, KataGo's uncertain chains, and
the time to a KataGo proposal (p50, p99) at the given visits; last, the same as ``key=value`` pairs::

    .venv/bin/python bench/dead_stone_oracle.py --size 9 --visits 2 [--truths | --playout-level 10] [--limit 30]
        [--budget 5] [--engines DIR]

KataGo's proposal is ``dead_stones.ask`` as the server runs it at counting, within ``--budget`` seconds (the
server's, ``proposals.BUDGET_SECONDS``): the two readings at ``--visits`` (default: what the measured speed gives),
then, a chain disputed, the side to move's deeper reading with what is left, and the rules engine's playouts (here
in a thread, in the server a worker process). The speed is measured at start with 4 evaluations, as the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from typing import Any
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from playout_oracle import played_out_dead

from app.engines import dead_stones
from app.engines.lane import Lane
from app.engines.layout import Layout, engines_dir
from app.engines.process import Launch
from app.engines.service import EngineService
from app.games.chains import expand_to_chains
from app.games.live.proposals import BUDGET_SECONDS
from app.rules import Game
from app.rules.coords import to_gtp
from app.settings import Settings
from tests.rules.dead_positions import load, load_truths

NICENESS = 19
MEASURE_VISITS = 4  # the server's default (TENGEN_KATAGO_MEASURE_VISITS)
Point = tuple[int, int]


def game_of(rows: list[str], to_move: str) -> Game:
    game = Game(len(rows))
    black = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "X"]
    white = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "O"]
    game.add_setup(black, white, to_move)
    return game


def labels(points: set[tuple[int, int]], size: int) -> str:
    return " ".join(sorted(to_gtp(p, size) for p in points)) or "-"


def explained(game: Game, read: dead_stones.Reckoning, katago: set[Point], truth: set[Point]) -> str:
    """KataGo's readings (Black to play, White to play, the side to move's deeper one) of each chain it judged
    other than the truth, with the rules engine's seki and playouts."""
    lines = []
    for chain in dead_stones.read_chains(game, read.readings):
        if (chain.stones[0] in katago) != (chain.stones[0] in truth):
            owned = " ".join(f"{o:+.2f}" for o in chain.owned)
            stdev = " ".join("-" if s is None else f"{s:.2f}" for s in chain.stdev)
            deeper = dead_stones.deeper_reading(chain, read.deeper)
            deep = "not asked" if deeper is None else f"{deeper[0]:+.2f} (stdev {deeper[1] or 0:.2f})"
            playouts = "not asked" if read.playouts is None else ("dead" if chain.stones[0] in read.playouts else "alive")
            lines.append(
                f"    {to_gtp(chain.stones[0], game.size)} ({chain.colour}, {len(chain.stones)} stones): truth"
                f" {'dead' if chain.stones[0] in truth else 'alive'},"
                f" KataGo {'dead' if chain.stones[0] in katago else 'not dead'};"
                f" owned (B, W to play) {owned}, stdev {stdev}; {game.to_move} to play deeper {deep};"
                f" playouts {playouts}; seki {'yes' if chain.stones[0] in read.seki else 'no'}"
            )
    return "\n".join(lines) or "    (KataGo agrees with the truth)"


def settle_in_thread(game: Game, seconds: float) -> Any:
    """The rules engine's playouts (``dead_stones.Settle``), in a thread here (a worker process in the server)."""

    async def settle() -> set[Point] | None:
        try:
            return await asyncio.wait_for(asyncio.to_thread(lambda: expand_to_chains(game, game.propose_dead())), seconds)
        except TimeoutError:
            return None

    return settle()


async def run(
    layout: Layout,
    size: int,
    visits: int | None,
    limit: int | None,
    playout_level: int,
    truths: bool,
    explain: bool = False,
    budget: float = BUDGET_SECONDS,
) -> None:
    stored = load_truths(size) if truths else {}
    positions = [p for p in load(size) if not truths or p.note in stored][:limit]
    if not positions:
        raise SystemExit(f"no position to judge (adjudicated truths: {len(stored)}; run adjudicate_dead.py --size {size})")
    lane = Lane(size, Launch.katago(layout, size, 1, 1, NICENESS), measure_visits=MEASURE_VISITS)
    service = EngineService([lane])
    service.start()
    try:
        await lane.started.wait()
        if lane.state != "ready":
            raise SystemExit(f"KataGo did not start: {lane.error}")
        speed = lane.evals_per_second or 0.0
        visits = visits or dead_stones.visits_for(speed, budget)
        print(
            f"measured at start: {speed:.2f} evals/s on {size}x{size}; {visits} visits per reading, {budget:g} s budget",
            flush=True,
        )
        same = dict.fromkeys(("katago_gnugo", "playouts_gnugo", "katago_playouts", "katago_uncertain"), 0)
        if playout_level or truths:
            same.update(dict.fromkeys(("katago_truth", "playouts_truth", "gnugo_truth"), 0))
        times: list[float] = []
        deepened = settled = over = 0
        for position in positions:
            game = game_of(position.rows, position.to_move)
            playouts = expand_to_chains(game, game.propose_dead())
            truth_task = (
                asyncio.create_task(asyncio.to_thread(played_out_dead, position.rows, position.to_move, playout_level))
                if playout_level
                else None
            )
            started = time.perf_counter()
            read = dead_stones.Reckoning([])
            try:
                judgement = await dead_stones.ask(service, game, budget, visits, settle_in_thread, reckoning=read)
            except TimeoutError:  # the server counts with the rules engine's proposal then: none from KataGo
                over += 1
                judgement = dead_stones.Judgement([], [])
            times.append(time.perf_counter() - started)
            deepened += judgement.deeper_visits > 0
            settled += judgement.settled
            katago = {(x, y) for x, y in judgement.dead}
            gnugo = position.dead
            same["katago_gnugo"] += katago == gnugo
            same["playouts_gnugo"] += playouts == gnugo
            same["katago_playouts"] += katago == playouts
            same["katago_uncertain"] += bool(judgement.uncertain)
            differ = not katago == playouts == gnugo
            truth_text = ""
            if truth_task is not None or truths:
                if truth_task is not None:
                    truth, moves = await truth_task
                    truth_text = f"played out ({moves} moves) {labels(truth, size)} | "
                else:
                    truth = stored[position.note].dead
                    truth_text = f"truth {labels(truth, size)} | "
                same["katago_truth"] += katago == truth
                same["playouts_truth"] += playouts == truth
                same["gnugo_truth"] += gnugo == truth
                differ = differ or truth != gnugo
            if differ:
                print(
                    f"{position.note}: {truth_text}GNU Go {labels(gnugo, size)} | KataGo {labels(katago, size)}"
                    f" (uncertain {labels({(x, y) for x, y in judgement.uncertain}, size)}) | playouts {labels(playouts, size)}",
                    flush=True,
                )
                if explain and truth_text:
                    print(explained(game, read, katago, truth), flush=True)
        n = len(positions)
        times.sort()
        p50, p99 = statistics.median(times), times[min(n - 1, int(n * 0.99))]
        print(
            f"{size}x{size}: {n} positions, {visits} visits per reading; identical with GNU Go: KataGo {same['katago_gnugo']}"
            f" ({100 * same['katago_gnugo'] / n:.1f} %), playouts {same['playouts_gnugo']}"
            f" ({100 * same['playouts_gnugo'] / n:.1f} %); KataGo with the playouts {same['katago_playouts']};"
            f" KataGo unsure somewhere on {same['katago_uncertain']}; a deeper reading on {deepened}, the playouts asked on"
            f" {settled}, over the budget {over}; time to a KataGo proposal p50 {p50:.2f} s, p99 {p99:.2f} s"
        )
        if truths:
            print(
                f"identical with the adjudicated truths (tests/rules/data/dead_truth_{size}.txt):"
                f" KataGo {same['katago_truth']}, playouts {same['playouts_truth']}, GNU Go {same['gnugo_truth']} of {n}"
            )
        elif playout_level:
            print(
                f"identical with the play-out (GNU Go level {playout_level}, area rules, capturing the dead):"
                f" KataGo {same['katago_truth']}, playouts {same['playouts_truth']}, GNU Go {same['gnugo_truth']} of {n}"
            )
        same.update(deeper=deepened, settled=settled, over_budget=over)
        pairs = " ".join(f"{key}={value}" for key, value in same.items())
        print(f"positions={n} {pairs} proposal_p50_s={p50:.2f} proposal_p99_s={p99:.2f}", flush=True)
    finally:
        await service.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=9, choices=(9, 13, 19))
    parser.add_argument("--visits", type=int, default=None, help="visits per reading (default: from the measured speed)")
    parser.add_argument("--budget", type=float, default=BUDGET_SECONDS, help="seconds for a proposal (the server's)")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--engines", type=Path, default=None)
    parser.add_argument(
        "--playout-level", type=int, default=0, help="GNU Go's level for the play-out oracle (playout_oracle.py); 0: none"
    )
    parser.add_argument(
        "--truths", action="store_true", help="judge against the adjudicated truths kept with the set (adjudicate_dead.py)"
    )
    parser.add_argument(
        "--explain", action="store_true", help="with a truth: KataGo's readings of each chain it judged otherwise"
    )
    args = parser.parse_args()
    if args.truths and args.playout_level:
        parser.error("--truths or --playout-level, not both")
    layout = Layout.under(args.engines or engines_dir(Settings()))
    asyncio.run(run(layout, args.size, args.visits, args.limit, args.playout_level, args.truths, args.explain, args.budget))


if __name__ == "__main__":
    main()
