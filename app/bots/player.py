"""One game of a bot: its game socket, its engine, and every decision the bot takes in it.

The socket is read all the time (pings are answered while the engine thinks); decisions run one at a time
in a task of their own. The engine's board is rebuilt from the game's move list whenever it may differ
(a new engine, an undo, a resync snapshot, a move the server refused), so a reconnect or a server restart
mid-game only means reading the snapshot or the missed events again.

One module over 400 lines: the socket reader and the decisions share one game's state (the board, the clocks,
the pending action) and its ordering rules; apart they would each need the other's internals.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.bots import clocks
from app.bots.backoff import Backoff
from app.bots.engine_game import fallback_move, load_game
from app.bots.gtp import Engine, GtpEngine, GtpError
from app.bots.position import GameMove, Gap, Point, Position
from app.protocol import client_frame
from app.rules.coords import from_gtp, to_gtp

log = logging.getLogger("tengen.bot")

DECLINED = ("undo", "draw", "adjourn")
REMATCH_LINGER = 120.0  # seconds the bot stays in a finished game for a rematch offer
ABANDON_WAIT = 60.0  # seconds the opponent is away before the first claim (the server's default grace)
CLAIM_EVERY = 15.0  # seconds between victory claims while the opponent is away
# Refusals that mean the game moved on (an event is on its way): no point deciding again before it comes.
WAIT_FOR_EVENTS = frozenset({"game_over", "not_your_turn", "wrong_phase"})
MAX_OVERHEAD = 5.0  # seconds: the most measured overhead added to the margin
ANSWER_WAIT = 15.0  # seconds to wait for the ack or error of an action


@dataclass(frozen=True)
class PlayerOptions:
    engine: str  # the engine's command line
    ws_url: str  # ws://host:port
    token: str
    user_id: int
    margin: float = 1.0  # seconds of overhead kept back from every clock
    untimed_limit: float = 30.0  # seconds an engine may think in an untimed or correspondence game
    max_think: float | None = None  # seconds a move may take at most, whatever the clock allows
    fallback: str | None = None  # a faster engine's command line, asked when the engine overruns its budget
    random_share: float = 0.0  # the share of moves chosen at random among the legal ones (weaker bots)
    scoring: str = "engine"  # "engine": mark what the engine says is dead; "accept": accept the proposal
    rematch: Callable[[str], bool] | None = None  # asked before accepting a rematch; False declines
    # An engine answered in process (a KataGo house bot: app/bots/kata_engine.py) instead of ``engine``'s process.
    engine_factory: Callable[[Position], GtpEngine] | None = None


class GamePlayer:
    def __init__(self, game_id: str, options: PlayerOptions, on_new_game: Callable[[str], Awaitable[None]]) -> None:
        self.game_id = game_id
        self.options = options
        self.position = Position(game_id)
        self.engine: GtpEngine | None = None
        self.engine_moves: list[GameMove] | None = None  # what the engine's board holds (None: unknown)
        self._ids = itertools.count(1)
        self._run_id = secrets.token_hex(4)
        self._ws: ClientConnection | None = None
        self._decider: asyncio.Task[None] | None = None
        self._dirty = asyncio.Event()
        self._pending: str | None = None  # id of the action sent and not yet answered
        self._sent_for_v = -1  # the version the last action was decided on
        self._last_claim = 0.0
        self._finished_at: float | None = None
        self._on_new_game = on_new_game
        self._stopped = False
        # The smallest (local wall clock - server_time) seen: the clock offset plus the quickest delivery. The
        # server's clock for a turn started at server_time + skew on our clock, however late the event came.
        self._skew: float | None = None
        self._sent_at = 0.0
        self._overhead = 0.0  # a decaying maximum of action -> ack round trips (seconds)
        self._random = random.Random()
        self._board: dict[Point, str] = {}  # the stones, read from the engine (only for random moves)
        self._refused: str | None = None  # the code of the last refused action

    def logline(self, message: str, *args: Any) -> None:
        log.info("game %s: " + message, self.game_id, *args)

    # ------------------------------------------------------------------ the socket

    async def run(self) -> None:
        """Play the game to its end (and a short while after, for a rematch), reconnecting as needed."""
        self.logline("joining")
        self._decider = asyncio.create_task(self._decide_loop())
        backoff = Backoff()
        try:
            while not self._done():
                url = f"{self.options.ws_url}/ws/games/{self.game_id}"
                if self.position.loaded:
                    url += f"?v={self.position.v}"
                try:
                    async with connect(
                        url,
                        additional_headers={"Authorization": f"Bearer {self.options.token}"},
                        open_timeout=10,
                        ping_interval=20,
                        max_size=2**22,
                    ) as ws:
                        self._ws = ws
                        backoff.reset()
                        await self._read(ws)
                except (OSError, ConnectionClosed, InvalidStatus, TimeoutError) as exc:
                    if isinstance(exc, ConnectionClosed) and exc.rcvd is not None and exc.rcvd.code in (4404, 4401):
                        self.logline("the server refused the game socket (%s); giving up", exc.rcvd.code)
                        return
                    if self._done():
                        break
                    delay = backoff.next()
                    self.logline("connection lost (%s); reconnecting in %.1f s", type(exc).__name__, delay)
                    await asyncio.sleep(delay)
                finally:
                    self._ws = None
                    self._pending = None
        finally:
            if self._decider is not None:
                self._decider.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._decider
            await self._close_engine()
            self.logline("left (%s)", (self.position.result or {}).get("text", "unfinished"))

    async def stop(self) -> None:
        """Leave the game (it goes on on the server): no reconnect, the socket closed, the engine told to quit."""
        self._stopped = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()

    def _done(self) -> bool:
        if self._stopped:
            return True
        if self.position.phase != "finished":
            return False
        if self.position.rematch is not None or self.options.rematch is None:
            return True
        assert self._finished_at is not None
        return time.monotonic() - self._finished_at > REMATCH_LINGER

    async def _read(self, ws: ClientConnection) -> None:
        while True:
            timeout = None
            if self.position.phase == "finished" and self._finished_at is not None:
                timeout = max(0.1, REMATCH_LINGER - (time.monotonic() - self._finished_at))
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                return
            message = json.loads(raw)
            kind = message.get("t")
            server_time = message.get("server_time")
            if isinstance(server_time, int | float):
                offset = time.time() - server_time
                self._skew = offset if self._skew is None else min(self._skew, offset)
            if kind == "ping":
                await ws.send(client_frame({"t": "pong", "id": message.get("id")}))
                continue
            if kind in ("ack", "error"):
                self._answered(message)
                continue
            if kind == "snapshot":
                self.position.snapshot(message, self.options.user_id)
                self.engine_moves = None if self.engine_moves != self.position.moves else self.engine_moves
                self.logline(
                    "snapshot at v%d: %d moves, %s, playing %s",
                    self.position.v,
                    len(self.position.moves),
                    self.position.phase,
                    self.position.me,
                )
            else:
                try:
                    changed = self.position.apply(message)
                except Gap as gap:
                    self.logline("%s: catching up", gap)
                    return  # reconnect with ?v=
                if not changed:
                    continue
                self._log_event(message)
            if self.position.phase == "finished" and self._finished_at is None:
                self._finished_at = time.monotonic()
                self.logline("game over: %s", (self.position.result or {}).get("text"))
                await self._close_engine()
            if self.position.rematch is not None:
                await self._on_new_game(self.position.rematch)
                return
            self._dirty.set()

    def _log_event(self, event: dict[str, Any]) -> None:
        kind = event.get("t")
        if kind in ("move", "pass"):
            label = "pass" if event.get("p") is None else to_gtp(tuple(event["p"]), self.position.size)
            self.logline("v%d %s %s", event["v"], event["color"], label)
        elif kind not in ("chat", "hidden"):
            self.logline("v%s %s", event.get("v"), kind)

    def _answered(self, message: dict[str, Any]) -> None:
        if message.get("id") != self._pending:
            return
        self._pending = None
        self._overhead = max(0.9 * self._overhead, time.monotonic() - self._sent_at)
        if message["t"] == "error":
            code = message.get("code")
            self.logline("refused: %s (%s)", code, message.get("message"))
            self.engine_moves = None  # the engine may hold a move the server did not take
            self._refused = code
            if code in WAIT_FOR_EVENTS:
                # The event that explains it is on its way: decide again when it comes (or, at the latest,
                # after a while, should it never come).
                asyncio.get_running_loop().call_later(ANSWER_WAIT, self._wake)
                return
            self._sent_for_v = -1
        self._dirty.set()

    async def _send(self, action: dict[str, Any]) -> None:
        ws = self._ws
        if ws is None:
            return
        # Unique across runs of the bridge: the server takes a repeated id for a retry of the same action.
        action_id = f"{self._run_id}-{next(self._ids)}"
        self._pending = action_id
        self._sent_for_v = self.position.v
        self._sent_at = time.monotonic()
        await ws.send(client_frame({**action, "id": action_id}))
        asyncio.get_running_loop().call_later(ANSWER_WAIT, self._unanswered, action_id)

    def _unanswered(self, action_id: str) -> None:
        if self._pending == action_id:  # no ack or error: decide again (a reconnect usually came first)
            self.logline("no answer to %s; deciding again", action_id)
            self._pending = None
            self._wake()

    # ------------------------------------------------------------------ decisions

    async def _decide_loop(self) -> None:
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            if self._ws is None or self._pending is not None or not self.position.loaded:
                log.debug("game %s: waiting (socket %s, pending %s)", self.game_id, self._ws is not None, self._pending)
                continue
            if self._sent_for_v == self.position.v:
                continue  # already acted on this version; wait for its effect
            try:
                await self._decide()
            except (ConnectionClosed, OSError):
                pass  # the reader reconnects
            except GtpError as exc:
                self.logline("engine failed: %s", exc)
                await self._close_engine()
                self._wake()
                await asyncio.sleep(0.5)
            except Exception:  # a bug must not silence the game: log it, start afresh, decide again
                log.exception("game %s: deciding failed", self.game_id)
                await self._close_engine()
                self._wake()
                await asyncio.sleep(1.0)

    async def _decide(self) -> None:
        pos = self.position
        log.debug("game %s: deciding at v%d (%s, %s to move)", self.game_id, pos.v, pos.phase, pos.to_move)
        if pos.phase == "finished":
            offer = pos.offers.get("rematch")
            if offer == pos.opponent:
                accept = self.options.rematch is not None and self.options.rematch(self.game_id)
                self.logline("rematch offered: %s", "accepting" if accept else "declining")
                await self._send({"t": "rematch_accept" if accept else "rematch_decline"})
            return
        for kind in DECLINED:
            if pos.offers.get(kind) == pos.opponent:
                self.logline("declining the %s offer", kind)
                await self._send({"t": f"{kind}_decline"})
                return
        if pos.absent_since is not None:
            # The opponent left: claim the game once the server's grace period may be over, then now and again.
            now = time.monotonic()
            if now - pos.absent_since >= ABANDON_WAIT and now - self._last_claim >= CLAIM_EVERY:
                self._last_claim = now
                asyncio.get_running_loop().call_later(CLAIM_EVERY + 0.1, self._wake)
                await self._send({"t": "claim_victory"})
                return
            asyncio.get_running_loop().call_later(max(0.1, ABANDON_WAIT - (now - pos.absent_since)) + 0.1, self._wake)
        if pos.phase == "playing" and pos.to_move == pos.me:
            await self._play()
        elif pos.phase == "scoring" and not pos.accepted.get(pos.me):
            await self._score()
        elif pos.phase == "adjourned":  # (never agreed to by the bot; a game may have been adjourned before)
            offered = pos.offers.get("resume")
            if offered == pos.opponent:
                await self._send({"t": "resume_accept"})
            elif offered is None:
                await self._send({"t": "resume_offer"})

    def _wake(self) -> None:
        self._sent_for_v = -1  # decide again even though nothing changed
        self._dirty.set()

    async def _play(self) -> None:
        pos = self.position
        started = time.monotonic()
        elapsed = started - pos.clocks_at if pos.clocks else 0.0
        if pos.clocks_server_time is not None and self._skew is not None:
            # Counted from when the server started the clock, not from when its message reached us.
            elapsed = max(elapsed, time.time() - (pos.clocks_server_time + self._skew))
        margin = self.options.margin + min(self._overhead, MAX_OVERHEAD)
        plan = clocks.budget(
            pos.time_control,
            (pos.clocks or {}).get(pos.me),
            pos.me,
            elapsed,
            margin,
            self.options.untimed_limit,
            board_size=pos.size,
            moves_played=len(pos.moves),
            max_think=self.options.max_think,
        )
        synced = await self._synced_engine()
        engine: GtpEngine | None = synced
        if plan.time_left:
            await synced.send(plan.time_left, timeout=5)
        colour = "black" if pos.me == "B" else "white"
        remaining = plan.wait - (time.monotonic() - started)
        try:
            answer = (await synced.send(f"genmove {colour}", timeout=max(clocks.MIN_THINK, remaining))).upper()
        except GtpError as exc:
            await self._close_engine()  # stopped (or dead): a fresh one plays the next move
            left = plan.deadline - (time.monotonic() - started)
            fallback = await fallback_move(self.options.fallback, pos, colour, left, plan.think, exc, self.logline)
            if fallback is None:
                await self._send({"t": "pass"})
                return
            answer, engine = fallback, None  # no engine holds the game now: the next move sets one up
        else:
            self.logline("%s in %.1f s (budget %.1f s)", answer, time.monotonic() - started, plan.think)
        if answer == "RESIGN":
            self.logline("resigning")
            await self._send({"t": "resign"})
            return
        point = None if answer == "PASS" else from_gtp(answer, pos.size)
        if point is not None and engine is not None and self.options.random_share > 0:
            if self._random.random() < self.options.random_share:
                point = await self._random_move(engine, colour, point)
        if engine is not None and self.engine_moves is not None:
            self.engine_moves.append((pos.me, point))
        if point is None:
            await self._send({"t": "pass"})
            return
        if self._refused == "illegal_move":  # the engine's rules let it play what the server's do not
            self._refused = None
            self.logline("the engine's move was refused before: passing instead")
            await self._send({"t": "pass"})
            return
        await self._send({"t": "play", "p": list(point)})

    async def _random_move(self, engine: GtpEngine, colour: str, chosen: Point) -> Point:
        """Undo the engine's move and play a random legal one that does not fill one of our own eyes."""
        pos = self.position
        await engine.send("undo", timeout=5)
        legal = await engine.send(f"all_legal {colour}", timeout=5)
        board = self._board
        mine = pos.me
        candidates = []
        for label in legal.split():
            p = from_gtp(label.upper(), pos.size)
            neighbours = [(p[0] + dx, p[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            inside = [n for n in neighbours if 0 <= n[0] < pos.size and 0 <= n[1] < pos.size]
            if inside and all(board.get(n) == mine for n in inside):
                continue  # our own eye
            candidates.append(p)
        if not candidates:
            candidates = [chosen]  # nothing else: the engine's own move goes back
        point = self._random.choice(candidates)
        await engine.send(f"play {colour} {to_gtp(point, pos.size)}", timeout=5)
        return point

    async def _score(self) -> None:
        pos = self.position
        if self.options.scoring == "engine" and not pos.opponent_toggled:
            engine = await self._synced_engine()
            answer = await engine.send("final_status_list dead", timeout=max(5.0, self.options.untimed_limit))
            wanted = {from_gtp(label.upper(), pos.size) for label in answer.split()}
            differ = sorted(wanted ^ pos.dead)
            if differ:
                self.logline("marking %s as the engine sees it", to_gtp(differ[0], pos.size))
                await self._send({"t": "toggle_dead", "p": list(differ[0])})
                return
        self.logline("accepting the score")
        await self._send({"t": "accept_score"})

    # ------------------------------------------------------------------ the engine

    async def _synced_engine(self) -> GtpEngine:
        """The engine, with exactly the game's moves on its board."""
        pos = self.position
        if self.engine is None or not self.engine.alive:
            factory = self.options.engine_factory
            self.engine = factory(pos) if factory is not None else await Engine.start(self.options.engine)
            self.engine_moves = None
        engine = self.engine
        held = self.engine_moves
        if held is None or held != pos.moves[: len(held)]:
            held = []
        await load_game(engine, pos, held, self.logline)
        self.engine_moves = list(pos.moves)
        self._board = await self._read_board(engine)
        return engine

    async def _read_board(self, engine: GtpEngine) -> dict[Point, str]:
        board: dict[Point, str] = {}
        if self.options.random_share <= 0:
            return board
        for colour, mark in (("black", "B"), ("white", "W")):
            for label in (await engine.send(f"list_stones {colour}", timeout=5)).split():
                board[from_gtp(label.upper(), self.position.size)] = mark
        return board

    async def _close_engine(self) -> None:
        engine, self.engine, self.engine_moves = self.engine, None, None
        if engine is not None:
            await engine.close()
