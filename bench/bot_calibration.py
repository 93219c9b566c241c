"""Calibrate the KataGo house bots' steps on 9x9: each step against its neighbours and against GNU Go's levels.

Each game is played here, in one process: KataGo through the engine service (app/engines, the one the server
runs, with its 9x9 process), the steps' moves chosen by ``app/bots/rank_pick`` exactly as the house bots choose
them, GNU Go through GTP, and the rules engine (``app.rules``) as the referee. Colours alternate; the game ends
on two passes (or ``--max-moves``) and is counted under Chinese rules, komi 7, the dead stones proposed by the
rules engine's play-outs. Each pairing prints its score with a 95% Wilson interval, and the last line is
key=value.

    TENGEN_ENGINES_DIR=~/.cache/tengen-tests/engines python -m bench.bot_calibration --games 2
    # a bigger machine: more games, every neighbour pair and GNU Go level, more search
    python -m bench.bot_calibration --games 40 --gnugo-levels 1,5,10 --search-visits 64 --parallel 4
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from app.bots.gtp import Engine
from app.bots.rank_pick import STEPS, Step, choose
from app.engines.analysis import Question
from app.engines.lane import Priority
from app.engines.rules import position_of
from app.engines.service import EngineService
from app.rules import Game, rules_for
from app.rules.coords import from_gtp, to_gtp
from app.settings import Settings

SIZE = 9
KOMI = 7.0
Z = 1.96  # 95%


def wilson(wins: float, games: int) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + Z * Z / (2 * games)) / (1 + Z * Z / games)
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / (1 + Z * Z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Player:
    name: str
    step: Step | None = None  # a KataGo step
    gnugo_level: int | None = None


class Match:
    def __init__(self, engines: EngineService, gnugo: str | None, search_visits: int, max_moves: int, seed: int) -> None:
        self.engines = engines
        self.gnugo = gnugo
        self.search_visits = search_visits
        self.max_moves = max_moves
        self.rng = random.Random(seed)
        self.evaluations = 0

    async def move(self, player: Player, game: Game, gnu: Engine | None) -> tuple[int, int] | None:
        if player.step is not None:
            visits = self.search_visits if player.step.search else 1
            answer = await self.engines.analyze(Question(position_of(game), visits, policy=True, pv_length=1), Priority.ESTIMATE)
            self.evaluations += answer.visits
            if player.step.search:
                return answer.candidates[0].point if answer.candidates else None
            assert answer.policy is not None
            return choose(answer.policy, game, player.step.kyu, self.rng)
        assert gnu is not None
        label = (await gnu.send(f"genmove {'black' if game.to_move == 'B' else 'white'}", timeout=60)).upper()
        return None if label in ("PASS", "RESIGN") else from_gtp(label, SIZE)

    async def game(self, black: Player, white: Player) -> float:
        """Black's result: 1 a win, 0 a loss, 0.5 a jigo."""
        game = Game(SIZE, rules_for("chinese", komi=KOMI))
        gnus: dict[str, Engine] = {}
        try:
            for colour, player in (("B", black), ("W", white)):
                if player.gnugo_level is not None:
                    assert self.gnugo is not None
                    gnus[colour] = engine = await Engine.start(f"{self.gnugo} --mode gtp --level {player.gnugo_level}")
                    for command in (f"boardsize {SIZE}", "clear_board", f"komi {KOMI}"):
                        await engine.send(command)
            passes = 0
            while passes < 2 and len(game.moves) < self.max_moves:
                colour = game.to_move
                player = black if colour == "B" else white
                point = await self.move(player, game, gnus.get(colour))
                if point is not None and not game.is_legal(colour, point):
                    point = None  # the rules engine's rules forbid what GNU Go's allow (superko): a pass
                if point is None:
                    game.pass_turn(colour)
                    passes += 1
                else:
                    game.play(colour, point)
                    passes = 0
                vertex = "pass" if point is None else to_gtp(point, SIZE)
                for other_colour, engine in gnus.items():
                    if other_colour != colour:  # GNU Go's own genmove played its move on its board
                        await engine.send(f"play {'black' if colour == 'B' else 'white'} {vertex}")
        finally:
            for engine in gnus.values():
                await engine.close()
        winner = game.score(game.propose_dead()).winner
        return 1.0 if winner == "B" else 0.0 if winner == "W" else 0.5


def pairings(levels: list[int], only: set[str] | None, first: set[str] | None = None) -> list[tuple[Player, Player]]:
    players = [Player(step.name, step=step) for step in STEPS]
    out = [(players[i], players[i + 1]) for i in range(len(players) - 1)]
    gnugo = [Player(f"GnuGo-{level}", gnugo_level=level) for level in levels]
    out += [(player, gnu) for player in players for gnu in gnugo]
    if only:
        out = [pair for pair in out if pair[0].name in only or pair[1].name in only]
    if first:  # a share of the table, so that each run fits a slot on a shared machine
        out = [pair for pair in out if pair[0].name in first]
    return out


async def main(args: argparse.Namespace) -> None:
    engines_dir = Path(os.environ.get("TENGEN_ENGINES_DIR", Path.home() / ".cache" / "tengen-tests" / "engines"))
    settings = Settings(
        env="test",
        katago=True,
        engines_dir=engines_dir,
        katago_buffers=[SIZE],
        katago_parallel=args.parallel,
        katago_measure_visits=2,
    )
    engines = EngineService.from_settings(settings)
    engines.start()
    while engines.state not in ("ready", "failed", "missing", "off"):
        await asyncio.sleep(0.2)
    if engines.state != "ready":
        raise SystemExit(f"KataGo is not ready: {engines.status()}")
    gnugo = shutil.which(args.gnugo) or shutil.which("/usr/games/gnugo")
    levels = [int(level) for level in args.gnugo_levels.split(",") if level] if gnugo else []
    only = set(args.only.split(",")) if args.only else None
    firsts = set(args.first.split(",")) if args.first else None
    match = Match(engines, gnugo, args.search_visits, args.max_moves, args.seed)
    began = time.monotonic()
    played = 0
    print(f"{'pairing':<28} {'first wins':>10} {'games':>5} {'score':>6}  95% interval")
    try:
        for first, second in pairings(levels, only, firsts):
            wins = 0.0
            for n in range(args.games):
                if n % 2 == 0:
                    wins += await match.game(first, second)
                else:
                    wins += 1 - await match.game(second, first)
                played += 1
            low, high = wilson(wins, args.games)
            name = f"{first.name} v {second.name}"
            print(f"{name:<28} {wins:>10g} {args.games:>5} {wins / args.games:>6.2f}  {low:.2f}-{high:.2f}", flush=True)
    finally:
        await engines.close()
    seconds = time.monotonic() - began
    print(f"games={played} evaluations={match.evaluations} seconds={seconds:.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="games per pairing (colours alternate)")
    parser.add_argument("--gnugo-levels", default="1,10", help="GNU Go levels each step meets (comma-separated; empty: none)")
    parser.add_argument("--gnugo", default="gnugo")
    parser.add_argument("--only", default="", help="only the pairings with these players (comma-separated names)")
    parser.add_argument("--first", default="", help="only the pairings whose first player is one of these (comma-separated)")
    parser.add_argument("--search-visits", type=int, default=8, help="the search step's visits a move")
    parser.add_argument("--max-moves", type=int, default=150)
    parser.add_argument("--parallel", type=int, default=1, help="KataGo's analysis threads")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main(parser.parse_args()))
