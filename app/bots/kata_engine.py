"""A KataGo house bot's engine: the GTP commands the bridge sends, answered in the bridge's own process, each
move asked of the server's KataGo (``POST /api/bots/katago``) and chosen by the bot's step (``rank_pick``).

There is one KataGo per machine, the server's engine service (app/engines): the house bots ask it like any
other caller, at the priority of a person waiting, and no bot starts a KataGo of its own (a process of about
half a gigabyte and every core it is given). The bridge, its clocks, its fallback engine and its game
handling are the same as for any GTP engine; only what answers ``genmove`` differs:

- a policy step asks for one evaluation with the policy and picks its move with ``rank_pick.choose``;
- the sparring partner first aims at its opponent (``app/bots/sparring.py``), then plays as the policy step
  or the search its aim names;
- the search step asks for ``SEARCH_VISITS`` at most, within the seconds its move's budget leaves (the server
  lowers the visits to what its measured speed does in them), and plays KataGo's best candidate.

A question the server cannot answer in time (KataGo busy, missing, or slower than the budget) is a GTP error,
and the bridge asks its fallback engine (GNU Go at level 0 where installed) for the move, as when any engine
overruns its budget.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import httpx

from app.bots.gtp import GtpError
from app.bots.position import Position
from app.bots.rank_pick import Step, choose
from app.bots.sparring import Aim, advantage, aim, kyu_of, outcomes
from app.rules import Game, IllegalMove, rules_for
from app.rules.coords import from_gtp, to_gtp

log = logging.getLogger("tengen.bot.katago")

SEARCH_VISITS = 200  # the search step's visits at most (the server lowers them to what its budget allows)
# What the server answers a house bot at most (POST /api/bots/katago refuses more, each with its code).
MAX_VISITS = 400
MAX_SECONDS = 30.0
ASK_SHARE = 0.7  # of genmove's time limit given to the server's KataGo; the rest is the round trip and the pick


class KataEngine:
    """Speaks GTP like ``gtp.Engine`` (``send``, ``close``, ``kill``, ``alive``), in process."""

    def __init__(self, http: httpx.AsyncClient, step: Step, game: Position, rng: random.Random | None = None) -> None:
        self.http = http
        self.step = step
        self.game = game  # the bridge's copy of the game: its rules, preset and parameters (GTP has no command for them)
        self.rng = rng or random.Random()
        self.size = game.size
        self.komi = game.komi
        self.handicap: list[tuple[int, int]] = []
        self.moves: list[tuple[str, tuple[int, int] | None]] = []
        self.alive = True
        self.aim: Aim | None = None if step.adaptive else Aim(step.kyu, step.search)

    async def send(self, command: str, timeout: float = 30.0) -> str:
        if not self.alive:
            raise GtpError("the engine is not running")
        try:
            return await asyncio.wait_for(self._answer(command.split(), timeout), timeout)
        except TimeoutError:
            raise GtpError(f"no move within {timeout:.1f} s over '{command}'") from None

    async def _answer(self, words: list[str], timeout: float) -> str:
        name, args = words[0], words[1:]
        if name == "boardsize":
            self.size = int(args[0])
        elif name == "clear_board":
            self.moves, self.handicap = [], []
        elif name == "komi":
            self.komi = float(args[0])
        elif name == "set_free_handicap":
            self.handicap = [from_gtp(label.upper(), self.size) for label in args]
        elif name == "play":
            colour = "B" if args[0].lower().startswith("b") else "W"
            self.moves.append((colour, None if args[1].lower() == "pass" else from_gtp(args[1].upper(), self.size)))
        elif name == "genmove":
            return await self._genmove("B" if args[0].lower().startswith("b") else "W", timeout)
        elif name in ("time_settings", "time_left", "quit"):
            pass
        else:
            raise GtpError(f"unknown command {name}")
        return ""

    def _board(self, colour: str) -> Game:
        rules = rules_for(self.game.rules, **self.game.rules_params, komi=self.komi)
        game = Game(self.size, rules, handicap_points=self.handicap or None)
        for mover, point in self.moves:
            if mover != game.to_move:
                game.set_to_move(mover)
            if point is None:
                game.pass_turn(mover)
            else:
                game.play(mover, point)
        if game.to_move != colour:
            game.set_to_move(colour)
        return game

    async def _genmove(self, colour: str, timeout: float) -> str:
        try:
            game = self._board(colour)
        except (IllegalMove, ValueError) as exc:
            raise GtpError(f"the game does not replay here: {exc}") from None
        began = asyncio.get_running_loop().time()
        if self.aim is None:
            self.aim = await self._aim()
        seconds = min(MAX_SECONDS, max(0.2, (timeout - (asyncio.get_running_loop().time() - began)) * ASK_SHARE))
        answer = await self._ask(SEARCH_VISITS if self.aim.search else self.step.evaluations, seconds)
        if self.aim.search:
            best = next(iter(answer["candidates"]), None)
            point = None if best is None or best["point"] is None else (best["point"][0], best["point"][1])
        else:
            point = choose(answer["policy"], game, self.aim.kyu, self.rng)
        if point is None:
            return "pass"
        self.moves.append((colour, point))
        return to_gtp(point, self.size)

    async def _aim(self) -> Aim:
        """The sparring partner's aim in this game, from the opponent's rank and its results against them."""
        fallback = Aim(kyu_of(self.step.strength))
        if not self.game.opponent_name:
            return fallback
        try:
            response = await self.http.get(f"/api/players/{self.game.opponent_name}", timeout=5)
            profile = response.json() if response.status_code == 200 else {}
            rank = (profile.get("player") or {}).get("rank")
            # A handicap game's stones and komi count: the partner plays as much stronger (or weaker).
            worth = advantage(len(self.handicap), self.komi, self.size, opponent_black=self.game.me == "W")
            chosen = aim(kyu_of(rank), outcomes(profile), worth) if rank else fallback
        except (httpx.HTTPError, ValueError) as exc:
            log.info("game %s: no profile of %s (%s)", self.game.game_id, self.game.opponent_name, exc)
            return fallback
        name = self.game.opponent_name
        log.info("game %s: sparring with %s (%s): aiming at %s", self.game.game_id, name, rank, chosen.describe())
        return chosen

    async def _ask(self, visits: int, seconds: float) -> dict[str, Any]:
        body = {
            "setup": {
                "size": self.size,
                "rules": self.game.rules,
                "rules_params": self.game.rules_params,  # the game's own rules, not only its preset's
                "komi": self.komi,
                "handicap": len(self.handicap),
                "black": [list(p) for p in self.handicap],
            },
            "line": [{"color": c, "point": None if p is None else list(p)} for c, p in self.moves],
            "visits": visits,
            "seconds": round(seconds, 2),
        }
        try:
            response = await self.http.post("/api/bots/katago", json=body, timeout=seconds + 2)
        except httpx.HTTPError as exc:
            raise GtpError(f"the server's KataGo did not answer: {type(exc).__name__}") from None
        if response.status_code != 200:
            raise GtpError(f"the server's KataGo: {response.status_code} {response.text[:200]}")
        data: dict[str, Any] = response.json()
        return data

    async def close(self) -> None:
        self.alive = False

    async def kill(self) -> None:
        self.alive = False
