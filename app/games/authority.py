"""The game authority: the one place that decides what happens in a live game.

A :class:`GameAuthority` holds the rules engine's :class:`~app.rules.Game`, the clocks, the phase
(``playing``, ``scoring``, ``adjourned``, ``finished``), the pending offers and the result. It is pure:
no I/O, and time is the ``now`` the caller passes (the server receive time of the action).

``apply(actor, action, now, facts)`` applies one action and returns the durable events to commit and
broadcast (each checked by its model in :mod:`app.games.events` and kept as its wire dict, without ``v``),
or raises :class:`GameError` having changed nothing. ``actor`` is ``"B"``, ``"W"`` or ``None`` (a spectator
or stranger); ``facts`` are inputs the room measured itself (never taken from the client's message): ``lag``
for moves, ``absent_since`` for an abandonment claim.

Replay: every applied action is appended to :attr:`GameAuthority.log` as ``{"actor", "action", "now",
"facts"}`` with the facts it used. The room stores these records with the events they produced and rebuilds
the authority with :meth:`GameAuthority.replay`, which re-applies them in order and reaches the identical
state. Presence changes (:meth:`player_left` / :meth:`player_returned`) are not logged: they decide nothing
by themselves, and a claim logs the absence it relied on.

One module over 400 lines: the state and the all-or-nothing step of :meth:`GameAuthority.apply` are one unit,
with the moves and endings; the parts that can stand apart already do: offers (:mod:`app.games.offers`), the
scoring phase (:mod:`app.games.scoring_phase`), adjournment (:mod:`app.games.adjournment`) and correspondence
(:mod:`app.games.correspondence`). Every action reaches its handler through one explicit table (``_HANDLERS``).
The handlers take the narrow protocol :class:`~app.games.authority_state.AuthorityState`, never this class, so
none of them imports this module back.

Behaviour worth knowing (also in ``docs/clocks.md``):

- The clock of the first player to move starts when the authority is created.
- Two consecutive passes start the scoring phase: clocks pause, dead stones are proposed by the engine.
  ``resume_play`` from scoring clears the marks and restarts the clock of the side to move, which is the
  opponent of the last passer; from then, two new consecutive passes are needed to score again.
- A move or pass clears pending undo, draw and adjourn offers.
- An accepted undo takes back the last move or pass and restores both clocks to the instant just before
  it was charged: the mover's turn runs again with the time it had already used, and the time that passed
  between the move and the acceptance is charged to nobody.
- Adjournment and the sealed move: :mod:`app.games.adjournment`.
- Offers of the same kind by the other player count as acceptance (a crossed draw offer is a draw).
- Correspondence (:mod:`app.games.correspondence`, docs/clocks.md): conditional moves answered at once, the
  system action ``vacation``, and a player who runs out of time before their first move cancels the game.
- Rematch: after the game, ``rematch_offer`` / ``rematch_accept`` (or two crossed offers) agree on a new game
  whose id the room decides and passes as the fact ``game_id``; the ``rematch`` event names it. A game has at
  most one rematch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games import adjournment, correspondence, offers, scoring_phase
from app.games.actions import (
    ACTIONS,
    OFFER_KINDS,
    PHASES,
    PHASES_FOR,
    SYSTEM,
    SYSTEM_ACTIONS,
    Action,
    Event,
    Facts,
    Point,
    number,
    point,
)
from app.games.clock import ClockState, GameClock, other
from app.games.config import GameConfig, parse_config
from app.games.errors import GameError
from app.games.events import build_from
from app.games.results import Result, by_score, void, win
from app.games.visibility import event_for
from app.rules import Checkpoint, Game, IllegalMove

__all__ = ["ACTIONS", "OFFER_KINDS", "PHASES", "SYSTEM", "GameAuthority"]


class GameAuthority:
    def __init__(self, config: GameConfig | dict[str, Any] | None, now: float) -> None:
        self.config = config if isinstance(config, GameConfig) else parse_config(config)
        cfg = self.config
        self.created_at = float(now)
        try:
            self.game = Game(cfg.size, cfg.rules, handicap=cfg.handicap, handicap_points=list(cfg.handicap_points) or None)
        except ValueError as exc:
            raise GameError("invalid_config", str(exc)) from None
        self.clock = GameClock(cfg.time_control, cfg.lag, cfg.weekend_zones())
        self.clock.start(self.game.to_move, now)
        for color in cfg.away:
            self.clock.set_away(color, True, now)
        self.conditional: dict[str, correspondence.Tree] = {"B": (), "W": ()}  # each player's conditional moves
        self.phase = "playing"
        self.offers: dict[str, str | None] = {k: None for k in OFFER_KINDS}
        self.result: Result | None = None
        self.dead: set[Point] = set()
        self.uncertain: set[Point] = set()  # the stones of the chains KataGo's proposal is unsure of (scoring)
        self.judge = "rules"  # whose proposal the marks started from: "katago" or "rules" (the rules engine's)
        self.accepted = {"B": False, "W": False}
        self.scoring_deadline: float | None = None
        self.sealed: dict[str, Any] | None = None  # {"color": c, "p": (x, y) | None, "charge": ...}
        self.resume_mark = 0  # moves before the last resume from scoring
        # the clock as it stood before each move (``GameClock.state``) with the instant the move was charged at
        # appended, for undo, which restores it as ``to_dict`` with that instant keeps it (the running stretch
        # folded in): one flat tuple per move, which the garbage collector stops watching at once
        self.clock_history: list[ClockState] = []
        # the state of the clock ``_save`` took for a refusal while the clock has not changed since: the first
        # charge of the action keeps it for undo instead of taking another (see ``charge``)
        self._saved_clock: ClockState | None = None
        self.absent_since: dict[str, float | None] = {"B": None, "W": None}
        self.rematch: str | None = None  # the id of the game both players agreed to play next
        self.log: list[dict[str, Any]] = []
        self.last_now = float(now)  # time of the last applied action
        # Whether the dead-stone proposal is asked of the caller (ProposalNeeded) rather than computed here,
        # when an action starts the scoring phase without the fact ``dead``. A live room sets it: the proposal
        # is slow, so the room computes it away from its event loop and applies the action again with it.
        self.defer_proposals = False
        self.facts: Facts = {}  # the facts of the action being applied
        self.resuming_sealed = False  # while the sealed move is played as the game resumes: its events say so

    # ================================================================= public interface
    def apply(self, actor: str | None, action: Action, now: float, facts: Facts | None = None) -> list[Event]:
        """Apply one action; return its events, or raise :class:`GameError` with nothing changed.

        Anything due by ``now`` (a flag fall, automatic acceptance of the score) is settled first, in the
        same all-or-nothing step: if the game ends that way, the action is refused with ``game_over``.
        """
        if not isinstance(action, dict) or action.get("t") not in PHASES_FOR:
            name = action.get("t") if isinstance(action, dict) else action
            raise GameError("unknown_action", f"unknown action {name!r}")
        kind = action["t"]
        if kind in SYSTEM_ACTIONS:
            if actor != SYSTEM:
                raise GameError("not_allowed", f"'{kind}' is not a player action")
        elif actor not in ("B", "W"):
            raise GameError("not_a_player", "only the two players of this game can do that")
        facts = dict(facts or {})
        self.facts = facts
        saved = self._save()
        try:
            events = self.settle(now) if kind not in SYSTEM_ACTIONS else []
            if events:  # settling only changes the clock when it reports something
                self._saved_clock = None
            if events and self.phase == "finished":
                raise GameError("game_over", "the game is over: " + self._result_text())
            if self.phase not in PHASES_FOR[kind]:
                raise self._out_of_phase(kind)
            parsed, events_from_action = _HANDLERS[kind](self, actor or SYSTEM, action, now, facts)
            events += events_from_action
        except GameError:
            self._restore(saved)
            raise
        except IllegalMove as exc:
            self._restore(saved)
            raise GameError("illegal_move", exc.message, reason=exc.reason) from None
        except Exception:
            self._restore(saved)
            raise
        if kind in SYSTEM_ACTIONS and not events:
            return []  # nothing happened: nothing to log
        self.last_now = max(self.last_now, now)
        self.log.append({"actor": actor, "action": parsed, "now": now, "facts": facts})
        return events

    def tick(self, now: float) -> list[Event]:
        """Settle whatever is due by ``now``: byo-yomi periods used up, a flag fall, automatic acceptance."""
        return self.apply(SYSTEM, {"t": "tick"}, now)

    def deadline(self) -> float | None:
        """The next moment something happens on its own (call :meth:`tick` then), or ``None``."""
        if self.phase == "finished":
            return None
        times = []
        if self.phase in ("playing", "adjourned"):
            t = self.clock.deadline()
            if t is not None:
                times.append(t)
        if self.phase == "scoring" and self.scoring_deadline is not None:
            times.append(self.scoring_deadline)
        return min(times) if times else None

    def server_restart(self, down_from: float, now: float) -> list[Event]:
        """After downtime: the running clock was charged up to ``down_from`` and restarts at ``now``.

        A scoring deadline moves later by the downtime. Nothing happens (no event) when no clock ran and no
        scoring timer waited.
        """
        return self.apply(SYSTEM, {"t": "server_restart", "down_from": down_from}, now)

    def player_left(self, color: str, now: float) -> None:
        if self.absent_since.get(color) is None:
            self.absent_since[color] = now

    def player_returned(self, color: str, now: float) -> None:
        self.absent_since[color] = None

    @classmethod
    def replay(cls, config: GameConfig | dict[str, Any], created_at: float, log: list[dict[str, Any]]) -> GameAuthority:
        """Rebuild an authority by re-applying a recorded action log."""
        auth = cls(config, created_at)
        for rec in log:
            auth.apply(rec["actor"], rec["action"], rec["now"], rec.get("facts"))
        return auth

    # ================================================================= views
    def snapshot(self, viewer: str | None, now: float | None = None) -> dict[str, Any]:
        """The protocol's GAME fields this authority owns, as ``viewer`` may see them (JSON-safe).

        Clocks are shown at ``now`` (default: the time of the last applied action).

        The room adds ``id``, ``players``, ``presence``, ``spectators`` and ``chat``.
        """
        if now is None:
            now = self.last_now
        g = self.game
        sealed = None
        if self.sealed is not None:
            sealed = {"color": self.sealed["color"]}
            if viewer == self.sealed["color"]:
                p = self.sealed["p"]
                sealed["p"] = None if p is None else list(p)
        return {
            "size": g.size,
            "rules": self.config.rules.to_dict(),
            "handicap": g.handicap,
            "handicap_points": [list(p) for p in self.config.handicap_points],
            "board": g.board_rows(),
            "moves": self._moves_view(),
            "move_number": len(g.moves),
            "prisoners": dict(g.prisoners),
            "to_move": g.to_move,
            "ko": None if g.ko_point is None else list(g.ko_point),
            "illegal": self.illegal(),
            "phase": self.phase,
            "offers": {k: v for k, v in self.offers.items()},
            "scoring": scoring_phase.score_fields(self) if self.phase == "scoring" else None,
            "sealed": sealed,
            "clocks": self.clock.view(now),
            "time_control": self.config.time_control.to_dict(),
            "result": None if self.result is None else self.result.to_dict(),
            "rematch": self.rematch,
            "conditional": correspondence.tree_for(self, viewer),
            "deadline": self.deadline(),
            "server_time": now,
        }

    def _moves_view(self) -> list[dict[str, Any]]:
        """GAME's ``moves``: each move or pass with the points it captured, as the engine kept them when it was
        played (nothing is replayed)."""
        moves: list[dict[str, Any]] = [
            {"color": m.color, "p": None if m.point is None else list(m.point), "captured": []} for m in self.game.moves
        ]
        for i, points in self.game.captures.items():  # few: most moves take nothing
            moves[i]["captured"] = [list(q) for q in points]
        return moves

    @staticmethod
    def event_for(event: Event, viewer: str | None) -> Event:
        return event_for(event, viewer)

    # ================================================================= for the handlers
    def event(self, t: str, now: float, visibility: str = "all", others: Event | None = None, **fields: Any) -> Event:
        """An event of type ``t`` at ``now``, built by its model (app/games/events.py), visible to all unless
        ``visibility`` says otherwise (``others``: what everybody else gets instead, app/games/visibility.py)."""
        if self.resuming_sealed:
            fields["sealed"] = True
        fields["server_time"] = now
        ev = build_from(t, fields)
        ev["visibility"] = visibility
        if others is not None:
            ev["others"] = others
        return ev

    def finish(self, result: Result, now: float, **extra: Any) -> Event:
        self.clock.pause(now, "finished")
        self.phase = "finished"
        self.result = result
        self.offers = {k: None for k in OFFER_KINDS}
        self.scoring_deadline = None
        self.game.end()
        return self.event("game_over", now, result=result.to_dict(), clocks=self.clock.view(now), **extra)

    def require_turn(self, actor: str) -> None:
        if actor != self.game.to_move:
            raise GameError("not_your_turn", f"it is {self.game.to_move}'s turn")

    def charge_turn(
        self, actor: str, p: Point | None, now: float, lag: float | None
    ) -> tuple[dict[str, Any] | None, list[Event]]:
        """``charge`` the turn of a move at ``p`` (None: a pass) once it is checked: refused, with nothing
        charged, when it is not ``actor``'s turn or the rules forbid the point."""
        self.require_turn(actor)
        if p is not None:
            reason = self.game.illegal_reason(actor, p)
            if reason is not None:
                raise IllegalMove(reason)
        return self.charge(actor, now, lag)

    def charge(self, actor: str, now: float, lag: float | None) -> tuple[dict[str, Any] | None, list[Event]]:
        """Charge the mover's clock. Returns (charge info, events); a flag ends the game instead.

        The clock as it stood is kept for undo with ``now``. That is the state :meth:`_save` took for a refusal
        when the clock has not changed since (the first charge of a move or pass: one per move); a refusal makes
        it the clock again and drops the history entry with the rest of the action. Only a second charge in one
        action (a conditional answer) or a charge after settling reported something takes a state of its own.
        """
        before = self._saved_clock
        if before is None:
            before = self.clock.state()
        else:
            self._saved_clock = None
        charge = self.clock.press(actor, now, lag)
        if charge.flagged:
            return None, [self.finish(correspondence.timeout(self, actor), now)]
        self.clock_history.append((*before, now))
        return charge.to_dict(), []

    def place(self, actor: str, p: Point, now: float, charge: dict[str, Any] | None, conditional: bool = False) -> list[Event]:
        """Play a checked and charged move (also a sealed one as play resumes; ``conditional``: a conditional
        answer, played for its owner)."""
        captured = self.game.play(actor, p)
        self._lapse_offers()
        answer: dict[str, Any] = {"conditional": True} if conditional else {}
        ev = self.event(
            "move",
            now,
            color=actor,
            p=list(p),
            captured=[list(q) for q in captured],
            move_number=len(self.game.moves),
            prisoners=dict(self.game.prisoners),
            to_move=self.game.to_move,
            ko=self._ko(),
            illegal=self.illegal(),
            clocks=self.clock.view(now),
            **_periods_used(charge),
            **answer,
        )
        events = [ev]
        if self.game.no_result:
            events.append(self.finish(void("no_result"), now))
        return events

    def illegal(self) -> list[list[int]]:
        """The empty points where the side to move may not play now, as the wire writes them: worked out once
        per position by the engine, so every event and snapshot of that position shares it."""
        return [list(p) for p in self.game.illegal_points()]

    def _ko(self) -> list[int] | None:
        """The point the side to move may not retake now (the engine's simple ko), as the wire writes it."""
        ko = self.game.ko_point
        return None if ko is None else list(ko)

    def place_pass(self, actor: str, now: float, charge: dict[str, Any] | None) -> list[Event]:
        """Pass after a charged turn; the second pass in a row starts the scoring phase."""
        self.game.pass_turn(actor)
        self._lapse_offers()
        ev = self.event(
            "pass",
            now,
            color=actor,
            move_number=len(self.game.moves),
            to_move=self.game.to_move,
            illegal=self.illegal(),
            clocks=self.clock.view(now),
            **_periods_used(charge),
        )
        events = [ev]
        passes_since_resume = len(self.game.moves) - self.resume_mark
        if self.game.consecutive_passes >= 2 and passes_since_resume >= 2:
            events.append(scoring_phase.enter_scoring(self, now))
        return events

    # ================================================================= helpers
    def _result_text(self) -> str:
        return self.result.text if self.result is not None else ""

    def _out_of_phase(self, kind: str) -> GameError:
        if self.phase == "finished":
            return GameError("game_over", f"the game is over ({self._result_text()})")
        allowed = " or ".join(PHASES_FOR[kind])
        return GameError("wrong_phase", f"'{kind}' is only possible while the game is {allowed}, not {self.phase}")

    def _save(self) -> dict[str, Any]:
        """What :meth:`_restore` needs to undo a refused action (the engine keeps its own checkpoint)."""
        game = self.game
        clock = self._saved_clock = self.clock.state()
        return {
            "game": (game, game.checkpoint()),
            "clock": clock,
            "phase": self.phase,
            "offers": dict(self.offers),
            "result": self.result,
            "dead": set(self.dead),
            "uncertain": set(self.uncertain),
            "judge": self.judge,
            "accepted": dict(self.accepted),
            "scoring_deadline": self.scoring_deadline,
            "sealed": None if self.sealed is None else dict(self.sealed),
            "resume_mark": self.resume_mark,
            "clock_history": list(self.clock_history),
            "rematch": self.rematch,
            "conditional": dict(self.conditional),
        }

    def _restore(self, saved: dict[str, Any]) -> None:
        game: Game
        mark: Checkpoint
        game, mark = saved.pop("game")
        clock = self.clock.restored(saved.pop("clock"))
        self.__dict__.update(saved)
        self.clock = clock
        self._saved_clock = None  # it is the clock again
        self.game = game
        game.rollback(mark)

    def _lapse_offers(self) -> None:
        for k in ("undo", "draw", "adjourn"):
            self.offers[k] = None

    def settle(self, now: float) -> list[Event]:
        """Everything due by ``now``: clock events while a clock runs, automatic score acceptance."""
        events: list[Event] = []
        if self.phase in ("playing", "adjourned"):
            for ev in self.clock.advance(now):
                if ev["t"] == "flag":
                    events.append(self.finish(correspondence.timeout(self, ev["color"]), now))
                else:
                    events.append(
                        self.event(
                            "period_used", now, color=ev["color"], periods_left=ev["periods_left"], clocks=self.clock.view(now)
                        )
                    )
        elif self.phase == "scoring" and self.scoring_deadline is not None and now >= self.scoring_deadline:
            score = self.game.score(self.dead)
            events.append(self.finish(by_score(score), now, auto_accepted=True))
        return events


def _periods_used(charge: dict[str, Any] | None) -> dict[str, Any]:
    """The byo-yomi periods a charged turn used up, as its event says them (nothing when none)."""
    return {"periods_used": charge["periods_used"]} if charge is not None and charge["periods_used"] else {}


# ===================================================================== moves and endings
def _play(auth: GameAuthority, actor: str, p: Point, now: float, lag: float | None) -> list[Event]:
    charge, flagged = auth.charge_turn(actor, p, now, lag)
    if flagged:
        return flagged
    return auth.place(actor, p, now, charge) + correspondence.answer(auth, actor, p, now)


def _pass(auth: GameAuthority, actor: str, now: float, lag: float | None) -> list[Event]:
    charge, flagged = auth.charge_turn(actor, None, now, lag)
    if flagged:
        return flagged
    return auth.place_pass(actor, now, charge) + correspondence.answer(auth, actor, None, now)


def _resign(auth: GameAuthority, actor: str, now: float) -> list[Event]:
    return [auth.finish(win(other(actor), "resignation"), now, by=actor)]


def _abort(auth: GameAuthority, actor: str, now: float) -> list[Event]:
    movers = {m.color for m in auth.game.moves}
    if movers >= {"B", "W"}:
        raise GameError("too_late_to_abort", "both players have moved: the game can no longer be aborted")
    return [auth.finish(void("abort"), now, by=actor)]


def _abandoned(auth: GameAuthority, actor: str, now: float, color: str | None = None) -> list[Event]:
    """The server ends a game without a clock that nobody has touched for a long time: no result. With
    ``color``, that player left for good (suspended or banned): the opponent wins by abandonment, as a claim
    would have given them."""
    if color is not None:
        return [auth.finish(win(other(color), "abandonment"), now, absent=color, abandoned=True)]
    return [auth.finish(void("no_result"), now, abandoned=True)]


def _tick(auth: GameAuthority, actor: str, now: float) -> list[Event]:
    return auth.settle(now)


def _claim(auth: GameAuthority, actor: str, now: float, absent_since: float | None) -> list[Event]:
    opp = other(actor)
    if absent_since is None:
        raise GameError("opponent_present", "your opponent is connected")
    if now - absent_since < auth.config.abandon_grace:
        wait = auth.config.abandon_grace - (now - absent_since)
        raise GameError("too_early_to_claim", f"your opponent may still come back: you can claim in {wait:.0f} s")
    return [auth.finish(win(actor, "abandonment"), now, by=actor, absent=opp)]


def _server_restart(auth: GameAuthority, down_from: float, now: float) -> list[Event]:
    if auth.phase == "finished":
        raise GameError("game_over", "the game is over")
    if down_from > now:
        raise GameError("bad_request", "'down_from' is after now")
    events = auth.settle(down_from)  # what was due before the downtime still happened
    if auth.phase == "finished":
        return events
    fields: dict[str, Any] = {}
    if auth.phase == "scoring" and auth.scoring_deadline is not None:
        # the scoring timer, like the clocks, is not charged with the downtime
        auth.scoring_deadline += now - down_from
        fields["deadline"] = auth.scoring_deadline
    elif not (auth.clock.timed and auth.clock.running):
        return events  # no clock ran and no timer waited: the downtime changed nothing
    auth.clock.pause(down_from, "server")
    auth.clock.resume(now, "server")
    return events + [auth.event("clock_restart", now, down_from=down_from, clocks=auth.clock.view(now), **fields)]


# ===================================================================== dispatch
# (authority, actor, action, now, facts) -> (the action as logged, its events)
Handler = Callable[[GameAuthority, str, Action, float, Facts], tuple[Action, list[Event]]]
Simple = Callable[[GameAuthority, str, float], list[Event]]


def _simple(kind: str, handler: Simple) -> Handler:
    """A handler for an action with no fields of its own."""

    def run(auth: GameAuthority, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
        return {"t": kind}, handler(auth, actor, now)

    return run


def _do_play(auth: GameAuthority, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
    p = point(action.get("p"))
    return {"t": "play", "p": list(p)}, _play(auth, actor, p, now, number(facts.get("lag"), "lag"))


def _do_pass(auth: GameAuthority, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
    return {"t": "pass"}, _pass(auth, actor, now, number(facts.get("lag"), "lag"))


def _do_seal(auth: GameAuthority, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
    raw = action.get("p")
    sealed_at = None if raw is None else point(raw)
    parsed = {"t": "seal", "p": None if sealed_at is None else list(sealed_at)}
    return parsed, adjournment.seal(auth, actor, sealed_at, now, number(facts.get("lag"), "lag"))


def _do_toggle_dead(auth: GameAuthority, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
    p = point(action.get("p"))
    return {"t": "toggle_dead", "p": list(p)}, scoring_phase.toggle_dead(auth, actor, p, now)


def _do_server_restart(auth: GameAuthority, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
    down_from = number(action.get("down_from"), "down_from")
    if down_from is None:
        raise GameError("bad_request", "'down_from' is required")
    return {"t": "server_restart", "down_from": down_from}, _server_restart(auth, down_from, now)


def _do_claim(auth: GameAuthority, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
    if "absent_since" not in facts:
        facts["absent_since"] = auth.absent_since.get(other(actor))
    return {"t": "claim_victory"}, _claim(auth, actor, now, number(facts["absent_since"], "absent_since"))


def _do_abandoned(auth: GameAuthority, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
    color = action.get("color")
    if color not in (None, "B", "W"):
        raise GameError("bad_request", '\'color\' must be "B" or "W"')
    parsed: Action = {"t": "abandoned"} if color is None else {"t": "abandoned", "color": color}
    return parsed, _abandoned(auth, actor, now, color)


def _rematch(kind: str) -> Handler:
    def run(auth: GameAuthority, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
        game_id = facts.get("game_id")
        return {"t": kind}, offers.rematch(auth, kind, actor, now, game_id if isinstance(game_id, str) else None)

    return run


_HANDLERS: dict[str, Handler] = {
    "play": _do_play,
    "pass": _do_pass,
    "resign": _simple("resign", _resign),
    "abort": _simple("abort", _abort),
    "undo_request": _simple("undo_request", offers.undo_request),
    "undo_accept": _simple("undo_accept", offers.undo_accept),
    "undo_decline": _simple("undo_decline", offers.undo_decline),
    "draw_offer": _simple("draw_offer", offers.draw_offer),
    "draw_accept": _simple("draw_accept", offers.draw_accept),
    "draw_decline": _simple("draw_decline", offers.draw_decline),
    "toggle_dead": _do_toggle_dead,
    "accept_score": _simple("accept_score", scoring_phase.accept_score),
    "resume_play": _simple("resume_play", scoring_phase.resume_play),
    "ask_engine": _simple("ask_engine", scoring_phase.ask_engine),
    "adjourn_offer": _simple("adjourn_offer", adjournment.adjourn_offer),
    "adjourn_accept": _simple("adjourn_accept", adjournment.adjourn_accept),
    "adjourn_decline": _simple("adjourn_decline", adjournment.adjourn_decline),
    "seal": _do_seal,
    "resume_offer": _simple("resume_offer", adjournment.resume_offer),
    "resume_accept": _simple("resume_accept", adjournment.resume_accept),
    "resume_decline": _simple("resume_decline", adjournment.resume_decline),
    "claim_victory": _do_claim,
    "rematch_offer": _rematch("rematch_offer"),
    "rematch_accept": _rematch("rematch_accept"),
    "rematch_decline": _simple("rematch_decline", offers.rematch_decline),
    "tick": _simple("tick", _tick),
    "server_restart": _do_server_restart,
    "abandoned": _do_abandoned,
    "conditional": correspondence.do_conditional,
    "vacation": correspondence.do_vacation,
}
assert set(_HANDLERS) == set(PHASES_FOR), "every action has exactly one handler"
