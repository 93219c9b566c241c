"""Game clocks for both players: accounting for every time system, pauses, flag deadlines.

(Over 400 lines as one module: the accounting, the deadlines and the CLOCKS view of every system read and
write the same per-player state, and each deadline is the inverse of its accounting; apart, one formula would
live in two files.)

Pure: every operation takes the server time ``now`` (float seconds). The clock of the player to move runs
from the start of their turn; a move (or pass) is charged from the server receive time, less the lag credit
of :mod:`app.games.lag`. Accounting per system (``t`` = charged seconds of the move):

- absolute:  ``main -= t``; the player flags if ``t >= main``.
- simple:    every move has ``per_move`` (kept in ``main``); the player flags if ``t >= per_move``.
- fischer:   flags if ``t >= main``; otherwise ``main = main - t + increment`` (at most ``cap`` if set).
- byoyomi (and chinese_countdown): time comes out of ``main`` first; the overflow ``o`` past ``main``
  costs ``floor(o / period_time)`` periods (a move made within a period keeps it); the player flags when
  no period is left.
- canadian:  time comes out of ``main`` first, then out of the current period (``period_time`` for
  ``stones`` stones); each move made in overtime uses one stone, and after the last stone the period
  starts again full. The player flags when the period runs out before its stones are played.

In every system a player flags exactly when ``t >= remaining`` (the total they could still use).

Correspondence (docs/clocks.md): a player with a weekend time zone in ``weekends`` is not charged for the
weekend hours of their turns (Saturday and Sunday in that zone, :mod:`app.games.weekends`), and a player in
``away`` (on vacation) is charged nothing at all: their clock stands still while it is their turn.

Self-triggered moments (a flag, a byo-yomi period running out) come ``quota`` seconds after the raw
instant, ``quota`` being the player's unused lag quota: a move arriving in that window could still be
credited, so nothing is decided before it has had its chance (see :meth:`GameClock.deadline`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from app.games.errors import GameError
from app.games.lag import LagPolicy
from app.games.shapes import ClockSide, ClocksView
from app.games.timecontrol import TimeControl, parse_time_control
from app.games.weekends import counted_until, in_weekend, weekend_seconds

COLORS = ("B", "W")
PAUSE_REASONS = ("scoring", "adjourned", "server", "finished")


# ``GameClock.state()``: both players' clocks (main, periods, period_left, stones, quota, black's then white's),
# then turn, turn_started, turn_elapsed, paused (the reasons, sorted, joined by spaces), flagged, announced, away
# (the colours, sorted, joined). Flat: a tuple holding a tuple leaves the collector's watch a collection later.
ClockState = tuple[Any, ...]


def other(color: str) -> str:
    return "W" if color == "B" else "B"


@dataclass
class PlayerClock:
    main: float
    periods: int  # byo-yomi periods left (0 for other systems)
    period_left: float  # canadian: time left in the current overtime period
    stones: int | None  # canadian: stones left in the current overtime period
    quota: float  # lag quota

    def to_dict(self) -> dict[str, Any]:
        return {
            "main": self.main,
            "periods": self.periods,
            "period_left": self.period_left,
            "stones": self.stones,
            "quota": self.quota,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "PlayerClock":
        return cls(
            main=float(d["main"]),
            periods=int(d["periods"]),
            period_left=float(d["period_left"]),
            stones=None if d["stones"] is None else int(d["stones"]),
            quota=float(d["quota"]),
        )


@dataclass(frozen=True)
class Charge:
    """What one move cost: returned by :meth:`GameClock.press`."""

    color: str
    elapsed: float  # server-measured time of the turn (pauses excluded)
    credited: float  # lag credit given back
    charged: float  # elapsed - credited
    periods_used: int  # byo-yomi periods lost on this move
    flagged: bool  # the move came too late: the player lost on time and the move does not count

    def to_dict(self) -> dict[str, Any]:
        return {
            "elapsed": round(self.elapsed, 6),
            "credited": round(self.credited, 6),
            "charged": round(self.charged, 6),
            "periods_used": self.periods_used,
            "flagged": self.flagged,
        }


class GameClock:
    """Both players' clocks. ``turn`` is the colour whose clock runs (when not paused)."""

    def __init__(
        self,
        time_control: TimeControl | dict[str, Any] | None,
        lag: LagPolicy | None = None,
        weekends: dict[str, str | None] | None = None,
    ) -> None:
        self.tc = parse_time_control(time_control)
        self.lag = lag or LagPolicy()
        # Per colour, the time zone whose weekends that player's clock skips (None: weekends count).
        self.weekends: dict[str, str | None] = {c: (weekends or {}).get(c) for c in COLORS}
        self.away: set[str] = set()  # players on vacation: their clock stands still on their turn
        tc = self.tc
        self.players = {
            c: PlayerClock(
                main=tc.main,
                periods=tc.periods if tc.system == "byoyomi" else 0,
                period_left=tc.period_time if tc.system in ("byoyomi", "canadian") else 0.0,
                stones=tc.stones if tc.system == "canadian" else None,
                quota=self.lag.initial,
            )
            for c in COLORS
        }
        self.turn: str | None = None
        self.turn_started: float | None = None  # start of the current running stretch
        self.turn_elapsed = 0.0  # time of the current turn before that stretch
        self.paused: set[str] = set()
        self.flagged: str | None = None
        self.announced = 0  # byo-yomi periods already announced as used in the current turn

    # ----------------------------------------------------------------- running state
    @property
    def timed(self) -> bool:
        return self.tc.timed

    @property
    def running(self) -> bool:
        return self.turn is not None and not self.paused and self.flagged is None and self.turn not in self.away

    def _counted(self, color: str, start: float, end: float) -> float:
        """The time between two instants that counts on ``color``'s clock (their weekends left out)."""
        span = max(0.0, end - start)
        tz = self.weekends.get(color)
        if tz is not None and span > 0:
            span -= weekend_seconds(tz, start, end)
        return span

    def elapsed(self, now: float) -> float:
        """Time used so far in the current turn."""
        if self.running and self.turn_started is not None:
            assert self.turn is not None
            return self.turn_elapsed + self._counted(self.turn, self.turn_started, now)
        return self.turn_elapsed

    def set_away(self, color: str, away: bool, now: float) -> None:
        """``color`` goes on vacation (their clock stops where it is) or comes back (it runs again from ``now``)."""
        if away and color not in self.away:
            if self.running and self.turn == color:
                self.turn_elapsed = self.elapsed(now)
                self.turn_started = None
            self.away.add(color)
        elif not away and color in self.away:
            self.away.discard(color)
            if self.running:
                self.turn_started = now

    def start(self, color: str, now: float) -> None:
        """Start ``color``'s turn (at the beginning of a game or when play resumes)."""
        self.turn = color
        self.turn_elapsed = 0.0
        self.turn_started = now
        self.announced = 0

    def pause(self, now: float, reason: str) -> None:
        """Stop the running clock for ``reason`` (``scoring``, ``adjourned``, ``server`` or ``finished``).

        The time of the turn so far is kept; the clock runs again when every reason is resumed.
        """
        if reason not in PAUSE_REASONS:
            raise ValueError(f"unknown pause reason {reason!r}")
        if self.running:
            self.turn_elapsed = self.elapsed(now)
            self.turn_started = None
        self.paused.add(reason)

    def resume(self, now: float, reason: str) -> None:
        self.paused.discard(reason)
        if self.running:
            self.turn_started = now

    # ----------------------------------------------------------------- accounting
    def remaining_bank(self, color: str) -> float:
        """Total time ``color`` had at the start of their turn (``inf`` without a clock)."""
        p, tc = self.players[color], self.tc
        if tc.system == "none":
            return math.inf
        if tc.system == "byoyomi":
            return p.main + p.periods * tc.period_time
        if tc.system == "canadian":
            return p.main + p.period_left
        return p.main

    def remaining(self, color: str, now: float) -> float:
        """Total time ``color`` can still use at ``now`` (lag credit not included)."""
        bank = self.remaining_bank(color)
        if color == self.turn:
            bank -= self.elapsed(now)
        return max(0.0, bank)

    def press(self, color: str, now: float, lag: float | None = None) -> Charge:
        """End ``color``'s turn at ``now`` (a move or a pass) and start the opponent's.

        ``lag`` is the room's current one-way lag estimate for that player. If the charged time reaches
        the player's remaining time they have flagged: the clock stops with ``flagged`` set and the move
        must not be played.
        """
        if color != self.turn:
            raise GameError("not_your_turn", "it is not your turn on the clock")
        if self.flagged is not None:
            raise GameError("flagged", "time has already run out")
        p, tc = self.players[color], self.tc
        elapsed = self.elapsed(now)
        credit, quota = self.lag.credit(p.quota, elapsed, lag)
        if not tc.timed:
            credit, quota = 0.0, p.quota
        t = elapsed - credit
        periods_used = 0
        if tc.timed and t >= self.remaining_bank(color):
            if tc.system == "byoyomi":
                periods_used = p.periods
            self._flag(color, now)
            return Charge(color, elapsed, credit, t, periods_used, True)
        p.quota = quota
        if tc.system == "simple":
            pass  # the next move has the whole per-move time again
        elif tc.system in ("absolute", "fischer"):
            p.main -= t
            if tc.system == "fischer":
                p.main += tc.increment
                if tc.cap is not None:
                    p.main = min(p.main, tc.cap)
        elif tc.system == "byoyomi":
            if t < p.main:
                p.main -= t
            else:
                periods_used = int((t - p.main) // tc.period_time)
                p.main = 0.0
                p.periods -= periods_used
        elif tc.system == "canadian":
            if t < p.main:
                p.main -= t
            else:
                p.period_left -= t - p.main
                p.main = 0.0
                assert p.stones is not None  # canadian clocks count stones
                p.stones -= 1
                if p.stones <= 0:
                    p.stones = tc.stones
                    p.period_left = tc.period_time
        self.start(other(color), now)
        return Charge(color, elapsed, credit, t, periods_used, False)

    def _flag(self, color: str, now: float) -> None:
        self.turn_elapsed = self.elapsed(now)
        self.turn_started = None
        self.flagged = color

    # ----------------------------------------------------------------- deadlines
    def _moving(self) -> str:
        """The colour whose turn is timed; only called while a deadline exists (the clock runs)."""
        assert self.turn is not None
        return self.turn

    def _when_used(self, seconds: float) -> float | None:
        """The instant the player to move will have used ``seconds`` of this turn (``None`` if the clock is
        stopped); their weekends, when they skip them, are not counted."""
        if not self.running or not self.timed or self.turn_started is None:
            return None
        turn = self._moving()
        left = seconds - self.turn_elapsed
        tz = self.weekends.get(turn)
        if tz is None or left <= 0:
            return self.turn_started + left
        return counted_until(tz, self.turn_started, max(0.0, left))

    def flag_deadline(self) -> float | None:
        """When the player to move loses on time if they do not move (``None`` if the clock is stopped)."""
        if not self.running:
            return None
        turn = self._moving()
        return self._when_used(self.remaining_bank(turn) + self.players[turn].quota)

    def period_deadline(self) -> float | None:
        """When the player to move uses up their next byo-yomi period (the last one is the flag)."""
        if not self.running or self.tc.system != "byoyomi":
            return None
        p = self.players[self._moving()]
        k = self.announced + 1
        if k >= p.periods:
            return None
        return self._when_used(p.main + k * self.tc.period_time + p.quota)

    def deadline(self) -> float | None:
        """The next moment :meth:`advance` has something to report, or ``None``."""
        times = [t for t in (self.flag_deadline(), self.period_deadline()) if t is not None]
        return min(times) if times else None

    def advance(self, now: float) -> list[dict[str, Any]]:
        """Report what happened on its own by ``now``: periods used up and a flag fall.

        Returns event dicts: ``{"t": "period_used", "color", "periods_left"}`` for each byo-yomi period the
        player to move has used up in this turn (each reported once), then ``{"t": "flag", "color"}`` if
        they ran out of time (the clock then stops). Nothing changes when nothing is due.
        """
        events: list[dict[str, Any]] = []
        while True:
            due = self.period_deadline()
            if due is None or now < due:
                break
            self.announced += 1
            periods_left = self.players[self._moving()].periods - self.announced
            events.append({"t": "period_used", "color": self.turn, "periods_left": periods_left})
        due = self.flag_deadline()
        if due is not None and now >= due:
            color = self._moving()
            self._flag(color, now)
            events.append({"t": "flag", "color": color})
        return events

    # ----------------------------------------------------------------- views and storage
    def view(self, now: float) -> ClocksView | None:
        """The protocol's CLOCKS object at ``now``: what each player has left, and whose clock runs.

        Per player: ``main`` (main time left), ``periods`` (byo-yomi periods left, counting the current
        one), ``period_time``, ``period_left`` (seconds left in the current period), ``stones`` (canadian:
        stones left in the period), ``running``. ``None`` for untimed games.
        """
        if not self.timed:
            return None
        tc = self.tc
        system = tc.system
        overtime = system in ("byoyomi", "canadian")
        turn = self.turn
        running = self.running
        turn_elapsed = self.elapsed(now) if turn is not None else 0.0
        out: dict[str, ClockSide] = {}
        for c in COLORS:
            p = self.players[c]
            e = turn_elapsed if c == turn else 0.0
            main, periods, period_left, stones = p.main, p.periods, p.period_left, p.stones
            if system in ("absolute", "fischer", "simple"):
                main = max(0.0, main - e)
            elif system == "byoyomi":
                period_left = tc.period_time
                if e < main:
                    main -= e
                else:
                    over = e - main
                    used = int(over // tc.period_time)
                    main, periods = 0.0, max(0, periods - used)
                    period_left = 0.0 if periods == 0 else tc.period_time - (over - used * tc.period_time)
            elif system == "canadian":
                if e < main:
                    main -= e
                else:
                    period_left = max(0.0, period_left - (e - main))
                    main = 0.0
            out[c] = {
                "main": round(main, 3),
                "periods": periods if system == "byoyomi" else None,
                "period_time": tc.period_time if overtime else None,
                "period_left": round(period_left, 3) if overtime else None,
                "stones": stones,
                "running": running and c == turn and not self._weekend_now(c, now),
            }
        return {"B": out["B"], "W": out["W"]}

    def _weekend_now(self, color: str, now: float) -> bool:
        tz = self.weekends.get(color)
        return tz is not None and in_weekend(tz, now)

    def to_dict(self, now: float | None = None) -> dict[str, Any]:
        """JSON-safe state. With ``now``, the running stretch is folded in so that :meth:`from_dict` with a
        later ``now`` restarts the clock then (time in between, e.g. server downtime, is not charged)."""
        elapsed = self.turn_elapsed if now is None else self.elapsed(now)
        return {
            "time_control": self.tc.to_dict(),
            "lag": self.lag.to_dict(),
            "players": {c: self.players[c].to_dict() for c in COLORS},
            "turn": self.turn,
            "turn_started": None if now is not None else self.turn_started,
            "turn_elapsed": elapsed,
            "paused": sorted(self.paused),
            "flagged": self.flagged,
            "announced": self.announced,
            "weekends": dict(self.weekends),
            "away": sorted(self.away),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], now: float | None = None) -> "GameClock":
        clock = cls(d["time_control"], LagPolicy.from_dict(d.get("lag")), d.get("weekends"))
        clock.away = set(d.get("away", ()))
        clock.players = {c: PlayerClock.from_dict(d["players"][c]) for c in COLORS}
        clock.turn = d["turn"]
        clock.turn_elapsed = float(d["turn_elapsed"])
        clock.turn_started = d["turn_started"]
        clock.paused = set(d["paused"])
        clock.flagged = d["flagged"]
        clock.announced = int(d["announced"])
        if clock.turn_started is None and now is not None and clock.running:
            clock.turn_started = now
        return clock

    def state(self) -> ClockState:
        """What changes in the clock (all but the time control, the lag policy and the weekend zones, fixed when
        the game is created) as one flat tuple of numbers, strings and None (``ClockState``); :meth:`restored`
        rebuilds it.

        The authority keeps one per move for undo. A tuple of such values leaves the garbage collector's watch
        at the first young collection that sees it, where a copy of the clock (nine containers) stayed watched
        for the game's life and was walked by the collections of the middle generation that stall the event
        loop (docs/performance.md, "The eighth round")."""
        b, w = self.players["B"], self.players["W"]
        return (
            b.main, b.periods, b.period_left, b.stones, b.quota,
            w.main, w.periods, w.period_left, w.stones, w.quota,
            self.turn, self.turn_started, self.turn_elapsed, " ".join(sorted(self.paused)), self.flagged,
            self.announced, "".join(sorted(self.away)),
        )  # fmt: skip

    def restored(self, state: ClockState) -> "GameClock":
        """A clock with this one's time control, lag policy and weekend zones, in ``state`` (from :meth:`state`)."""
        clock = GameClock.__new__(GameClock)
        clock.tc, clock.lag, clock.weekends = self.tc, self.lag, dict(self.weekends)
        (bm, bp, bl, bs, bq, wm, wp, wl, ws, wq, turn, started, elapsed, paused, flagged, announced, away) = state
        clock.players = {"B": PlayerClock(bm, bp, bl, bs, bq), "W": PlayerClock(wm, wp, wl, ws, wq)}
        clock.turn, clock.turn_started, clock.turn_elapsed = turn, started, elapsed
        clock.paused, clock.flagged, clock.announced, clock.away = set(paused.split()), flagged, announced, set(away)
        return clock
