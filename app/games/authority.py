"""The game authority: the one place that decides what happens in a live game.

A :class:`GameAuthority` holds the rules engine's :class:`~app.rules.Game`, the clocks, the phase
(``playing``, ``scoring``, ``adjourned``, ``finished``), the pending offers and the result. It is pure:
no I/O, and time is the ``now`` the caller passes (the server receive time of the action).

``apply(actor, action, now, facts)`` applies one action and returns the durable events to commit and
broadcast (dicts shaped like the protocol, without ``v``), or raises :class:`GameError` having changed
nothing. ``actor`` is ``"B"``, ``"W"`` or ``None`` (a spectator or stranger); ``facts`` are inputs the
room measured itself (never taken from the client's message): ``lag`` for moves, ``absent_since`` for an
abandonment claim.

Replay: every applied action is appended to :attr:`GameAuthority.log` as ``{"actor", "action", "now",
"facts"}`` with the facts it used. The room stores these records with the events they produced and rebuilds
the authority with :meth:`GameAuthority.replay`, which re-applies them in order and reaches the identical
state. Presence changes (:meth:`player_left` / :meth:`player_returned`) are not logged: they decide nothing
by themselves, and a claim logs the absence it relied on.

Behaviour worth knowing (also in ``docs/clocks.md``):

- The clock of the first player to move starts when the authority is created.
- Two consecutive passes start the scoring phase: clocks pause, dead stones are proposed by the engine.
  ``resume_play`` from scoring clears the marks and restarts the clock of the side to move, which is the
  opponent of the last passer; from then, two new consecutive passes are needed to score again.
- A move or pass clears pending undo, draw and adjourn offers.
- An accepted undo takes back the last move or pass and restores both clocks to the instant just before
  it was charged: the mover's turn runs again with the time it had already used, and the time that passed
  between the move and the acceptance is charged to nobody.
- Adjournment: after ``adjourn_offer`` / ``adjourn_accept`` the phase is ``adjourned`` and the player to
  move must seal a move; their clock keeps running until they do. Sealing charges their clock like a move
  and stops both clocks; the point is visible only to the sealer. After ``resume_offer`` /
  ``resume_accept`` the sealed move is played (its ``move`` event, visible to all, follows the ``phase``
  event) and the opponent's clock starts.
- Offers of the same kind by the other player count as acceptance (a crossed draw offer is a draw).
- Rematch: after the game, ``rematch_offer`` / ``rematch_accept`` (or two crossed offers) agree on a new game
  whose id the room decides and passes as the fact ``game_id``; the ``rematch`` event names it. A game has at
  most one rematch.
"""

from __future__ import annotations

from typing import Any

from app.games.chains import expand_to_chains, propose_dead_chains
from app.games.clock import GameClock, other
from app.games.config import GameConfig, parse_config
from app.games.errors import GameError, ProposalNeeded
from app.games.results import Result, by_score, drawn, void, win
from app.games.visibility import event_for
from app.rules import Game, IllegalMove

PHASES = ("playing", "scoring", "adjourned", "finished")
OFFER_KINDS = ("undo", "draw", "adjourn", "resume", "rematch")
SYSTEM = "system"  # the actor of actions the room takes on its own (tick, server_restart, abandoned)

# action -> phases in which it is allowed
_PHASES_FOR = {
    "play": ("playing",),
    "pass": ("playing",),
    "resign": ("playing", "scoring", "adjourned"),
    "abort": ("playing",),
    "undo_request": ("playing",),
    "undo_accept": ("playing",),
    "undo_decline": ("playing",),
    "draw_offer": ("playing",),
    "draw_accept": ("playing",),
    "draw_decline": ("playing",),
    "toggle_dead": ("scoring",),
    "accept_score": ("scoring",),
    "resume_play": ("scoring",),
    "adjourn_offer": ("playing",),
    "adjourn_accept": ("playing",),
    "adjourn_decline": ("playing",),
    "seal": ("adjourned",),
    "resume_offer": ("adjourned",),
    "resume_accept": ("adjourned",),
    "resume_decline": ("adjourned",),
    "claim_victory": ("playing", "scoring"),
    "rematch_offer": ("finished",),
    "rematch_accept": ("finished",),
    "rematch_decline": ("finished",),
    "tick": PHASES,
    "server_restart": PHASES,
    "abandoned": ("playing", "scoring", "adjourned"),
}
ACTIONS = tuple(_PHASES_FOR)
_SYSTEM_ACTIONS = ("tick", "server_restart", "abandoned")


def _point(value: Any) -> tuple[int, int]:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise GameError("bad_request", "'p' must be a point [x, y] of two whole numbers")


def _number(value: Any, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GameError("bad_request", f"'{name}' must be a number")
    return float(value)


class GameAuthority:
    def __init__(self, config: GameConfig | dict | None, now: float) -> None:
        self.config = config if isinstance(config, GameConfig) else parse_config(config)
        cfg = self.config
        self.created_at = float(now)
        try:
            self.game = Game(cfg.size, cfg.rules, handicap=cfg.handicap,
                             handicap_points=list(cfg.handicap_points) or None)
        except ValueError as exc:
            raise GameError("invalid_config", str(exc)) from None
        self.clock = GameClock(cfg.time_control, cfg.lag)
        self.clock.start(self.game.to_move, now)
        self.phase = "playing"
        self.offers: dict[str, str | None] = {k: None for k in OFFER_KINDS}
        self.result: Result | None = None
        self.dead: set[tuple[int, int]] = set()
        self.accepted = {"B": False, "W": False}
        self.scoring_deadline: float | None = None
        self.sealed: dict | None = None  # {"color": c, "p": (x, y) | None}
        self.resume_mark = 0  # moves before the last resume from scoring
        self.clock_history: list[dict] = []  # clock state just before each move was charged (for undo)
        self.absent_since: dict[str, float | None] = {"B": None, "W": None}
        self.rematch: str | None = None  # the id of the game both players agreed to play next
        self.log: list[dict] = []
        self.last_now = float(now)  # time of the last applied action
        # Whether the dead-stone proposal is asked of the caller (ProposalNeeded) rather than computed here,
        # when an action starts the scoring phase without the fact ``dead``. A live room sets it: the proposal
        # is slow, so the room computes it away from its event loop and applies the action again with it.
        self.defer_proposals = False
        self._facts: dict = {}  # the facts of the action being applied

    # ================================================================= public interface
    def apply(self, actor: str | None, action: dict, now: float, facts: dict | None = None) -> list[dict]:
        """Apply one action; return its events, or raise :class:`GameError` with nothing changed.

        Anything due by ``now`` (a flag fall, automatic acceptance of the score) is settled first, in the
        same all-or-nothing step: if the game ends that way, the action is refused with ``game_over``.
        """
        if not isinstance(action, dict) or action.get("t") not in _PHASES_FOR:
            name = action.get("t") if isinstance(action, dict) else action
            raise GameError("unknown_action", f"unknown action {name!r}")
        kind = action["t"]
        if kind in _SYSTEM_ACTIONS:
            if actor != SYSTEM:
                raise GameError("not_allowed", f"'{kind}' is not a player action")
        elif actor not in ("B", "W"):
            raise GameError("not_a_player", "only the two players of this game can do that")
        facts = dict(facts or {})
        self._facts = facts
        saved = self._save()
        try:
            events = self._settle(now) if kind not in _SYSTEM_ACTIONS else []
            if events and self.phase == "finished":
                raise GameError("game_over", "the game is over: " + self._result_text())
            if self.phase not in _PHASES_FOR[kind]:
                raise self._out_of_phase(kind)
            parsed, events_from_action = self._dispatch(kind, actor, action, now, facts)
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
        if kind in _SYSTEM_ACTIONS and not events:
            return []  # nothing happened: nothing to log
        self.last_now = max(self.last_now, now)
        self.log.append({"actor": actor, "action": parsed, "now": now, "facts": facts})
        return events

    def tick(self, now: float) -> list[dict]:
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

    def server_restart(self, down_from: float, now: float) -> list[dict]:
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
    def replay(cls, config: GameConfig | dict, created_at: float, log: list[dict]) -> "GameAuthority":
        """Rebuild an authority by re-applying a recorded action log."""
        auth = cls(config, created_at)
        for rec in log:
            auth.apply(rec["actor"], rec["action"], rec["now"], rec.get("facts"))
        return auth

    # ================================================================= views
    def snapshot(self, viewer: str | None, now: float | None = None) -> dict:
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
        scoring = None
        if self.phase == "scoring":
            scoring = {
                "dead": sorted([list(p) for p in self.dead]),
                "accepted": dict(self.accepted),
                "score": g.score(self.dead).to_dict(),
                "deadline": self.scoring_deadline,
            }
        return {
            "size": g.size,
            "rules": self.config.rules.to_dict(),
            "handicap": g.handicap,
            "handicap_points": [list(p) for p in self.config.handicap_points],
            "board": g.board_rows(),
            "moves": [{"color": m.color, "p": None if m.point is None else list(m.point)} for m in g.moves],
            "move_number": len(g.moves),
            "prisoners": dict(g.prisoners),
            "to_move": g.to_move,
            "ko": None if g.ko_point is None else list(g.ko_point),
            "phase": self.phase,
            "offers": {k: v for k, v in self.offers.items()},
            "scoring": scoring,
            "sealed": sealed,
            "clocks": self.clock.view(now),
            "time_control": self.config.time_control.to_dict(),
            "result": None if self.result is None else self.result.to_dict(),
            "rematch": self.rematch,
            "deadline": self.deadline(),
            "server_time": now,
        }

    @staticmethod
    def event_for(event: dict, viewer: str | None) -> dict:
        return event_for(event, viewer)

    # ================================================================= dispatch
    def _dispatch(self, kind, actor, action, now, facts) -> tuple[dict, list[dict]]:
        if kind == "play":
            p = _point(action.get("p"))
            return {"t": kind, "p": list(p)}, self._play(actor, p, now, _number(facts.get("lag"), "lag"))
        if kind == "seal":
            raw = action.get("p")
            sealed_at = None if raw is None else _point(raw)
            parsed = {"t": kind, "p": None if sealed_at is None else list(sealed_at)}
            return parsed, self._seal(actor, sealed_at, now, _number(facts.get("lag"), "lag"))
        if kind == "toggle_dead":
            p = _point(action.get("p"))
            return {"t": kind, "p": list(p)}, self._toggle_dead(actor, p, now)
        if kind == "server_restart":
            down_from = _number(action.get("down_from"), "down_from")
            if down_from is None:
                raise GameError("bad_request", "'down_from' is required")
            return {"t": kind, "down_from": down_from}, self._server_restart(down_from, now)
        if kind == "claim_victory":
            if "absent_since" not in facts:
                facts["absent_since"] = self.absent_since.get(other(actor))
            return {"t": kind}, self._claim(actor, now, _number(facts["absent_since"], "absent_since"))
        if kind in ("rematch_offer", "rematch_accept"):
            game_id = facts.get("game_id")
            return {"t": kind}, self._rematch(kind, actor, now, game_id if isinstance(game_id, str) else None)
        if kind == "pass":
            return {"t": kind}, self._pass(actor, now, _number(facts.get("lag"), "lag"))
        handler = getattr(self, "_" + kind)
        return {"t": kind}, handler(actor, now)

    def _result_text(self) -> str:
        return self.result.text if self.result is not None else ""

    def _out_of_phase(self, kind: str) -> GameError:
        if self.phase == "finished":
            return GameError("game_over", f"the game is over ({self._result_text()})")
        allowed = " or ".join(_PHASES_FOR[kind])
        return GameError("wrong_phase", f"'{kind}' is only possible while the game is {allowed}, "
                                        f"not {self.phase}")

    # ================================================================= helpers
    def _save(self) -> dict:
        """What :meth:`_restore` needs to undo a refused action (the engine keeps its own checkpoint)."""
        game = self.game
        return {
            "game": (game, game.checkpoint()),
            "clock": self.clock.copy(),
            "phase": self.phase,
            "offers": dict(self.offers),
            "result": self.result,
            "dead": set(self.dead),
            "accepted": dict(self.accepted),
            "scoring_deadline": self.scoring_deadline,
            "sealed": None if self.sealed is None else dict(self.sealed),
            "resume_mark": self.resume_mark,
            "clock_history": list(self.clock_history),
            "rematch": self.rematch,
        }

    def _restore(self, saved: dict) -> None:
        game, mark = saved.pop("game")
        self.__dict__.update(saved)
        self.game = game
        game.rollback(mark)

    def _base(self, t: str, now: float, **fields) -> dict:
        ev = {"t": t, **fields}
        ev.setdefault("visibility", "all")
        ev["server_time"] = now
        return ev

    def _clocks(self, now: float) -> dict | None:
        return self.clock.view(now)

    def _finish(self, result: Result, now: float, **extra) -> dict:
        self.clock.pause(now, "finished")
        self.phase = "finished"
        self.result = result
        self.offers = {k: None for k in OFFER_KINDS}
        self.scoring_deadline = None
        self.game.end()
        return self._base("game_over", now, result=result.to_dict(), clocks=self._clocks(now), **extra)

    def _lapse_offers(self) -> None:
        for k in ("undo", "draw", "adjourn"):
            self.offers[k] = None

    def _require_turn(self, actor: str) -> None:
        if actor != self.game.to_move:
            raise GameError("not_your_turn", f"it is {self.game.to_move}'s turn")

    def _settle(self, now: float) -> list[dict]:
        """Everything due by ``now``: clock events while a clock runs, automatic score acceptance."""
        events: list[dict] = []
        if self.phase in ("playing", "adjourned"):
            for ev in self.clock.advance(now):
                if ev["t"] == "flag":
                    loser = ev["color"]
                    events.append(self._finish(win(other(loser), "timeout"), now))
                else:
                    events.append(self._base("period_used", now, color=ev["color"],
                                             periods_left=ev["periods_left"], clocks=self._clocks(now)))
        elif self.phase == "scoring" and self.scoring_deadline is not None and now >= self.scoring_deadline:
            score = self.game.score(self.dead)
            events.append(self._finish(by_score(score), now, auto_accepted=True))
        return events

    def _tick(self, actor: str, now: float) -> list[dict]:
        return self._settle(now)

    # ================================================================= moves
    def _charge(self, actor: str, now: float, lag: float | None) -> tuple[dict | None, list[dict]]:
        """Charge the mover's clock. Returns (charge info, events); a flag ends the game instead."""
        before = self.clock.to_dict(now)
        charge = self.clock.press(actor, now, lag)
        if charge.flagged:
            return None, [self._finish(win(other(actor), "timeout"), now)]
        self.clock_history.append(before)
        return charge.to_dict(), []

    def _play(self, actor: str, p: tuple[int, int], now: float, lag: float | None) -> list[dict]:
        self._require_turn(actor)
        reason = self.game.illegal_reason(actor, p)
        if reason is not None:
            raise IllegalMove(reason)
        charge, flagged = self._charge(actor, now, lag)
        if flagged:
            return flagged
        return self._place(actor, p, now, charge)

    def _place(self, actor: str, p: tuple[int, int], now: float, charge: dict | None) -> list[dict]:
        captured = self.game.play(actor, p)
        self._lapse_offers()
        ev = self._base("move", now, color=actor, p=list(p), captured=[list(q) for q in captured],
                        move_number=len(self.game.moves), prisoners=dict(self.game.prisoners),
                        to_move=self.game.to_move, clocks=self._clocks(now))
        if charge is not None and charge["periods_used"]:
            ev["periods_used"] = charge["periods_used"]
        events = [ev]
        if self.game.no_result:
            events.append(self._finish(void("no_result"), now))
        return events

    def _pass(self, actor: str, now: float, lag: float | None) -> list[dict]:
        self._require_turn(actor)
        charge, flagged = self._charge(actor, now, lag)
        if flagged:
            return flagged
        return self._place_pass(actor, now, charge)

    def _place_pass(self, actor: str, now: float, charge: dict | None) -> list[dict]:
        self.game.pass_turn(actor)
        self._lapse_offers()
        ev = self._base("pass", now, color=actor, move_number=len(self.game.moves), to_move=self.game.to_move,
                        clocks=self._clocks(now))
        if charge is not None and charge["periods_used"]:
            ev["periods_used"] = charge["periods_used"]
        events = [ev]
        passes_since_resume = len(self.game.moves) - self.resume_mark
        if self.game.consecutive_passes >= 2 and passes_since_resume >= 2:
            events.append(self._enter_scoring(now))
        return events

    # ================================================================= endings
    def _resign(self, actor: str, now: float) -> list[dict]:
        return [self._finish(win(other(actor), "resignation"), now, by=actor)]

    def _abort(self, actor: str, now: float) -> list[dict]:
        movers = {m.color for m in self.game.moves}
        if movers >= {"B", "W"}:
            raise GameError("too_late_to_abort", "both players have moved: the game can no longer be aborted")
        return [self._finish(void("abort"), now, by=actor)]

    def _abandoned(self, actor: str, now: float) -> list[dict]:
        """The server ends a game without a clock that nobody has touched for a long time: no result."""
        return [self._finish(void("no_result"), now, abandoned=True)]

    def _claim(self, actor: str, now: float, absent_since: float | None) -> list[dict]:
        opp = other(actor)
        if absent_since is None:
            raise GameError("opponent_present", "your opponent is connected")
        if now - absent_since < self.config.abandon_grace:
            wait = self.config.abandon_grace - (now - absent_since)
            raise GameError("too_early_to_claim",
                            f"your opponent may still come back: you can claim in {wait:.0f} s")
        return [self._finish(win(actor, "abandonment"), now, by=actor, absent=opp)]

    def _server_restart(self, down_from: float, now: float) -> list[dict]:
        if self.phase == "finished":
            raise GameError("game_over", "the game is over")
        if down_from > now:
            raise GameError("bad_request", "'down_from' is after now")
        events = self._settle(down_from)  # what was due before the downtime still happened
        if self.phase == "finished":
            return events
        fields: dict[str, Any] = {}
        if self.phase == "scoring" and self.scoring_deadline is not None:
            # the scoring timer, like the clocks, is not charged with the downtime
            self.scoring_deadline += now - down_from
            fields["deadline"] = self.scoring_deadline
        elif not (self.clock.timed and self.clock.running):
            return events  # no clock ran and no timer waited: the downtime changed nothing
        self.clock.pause(down_from, "server")
        self.clock.resume(now, "server")
        return events + [self._base("clock_restart", now, down_from=down_from, clocks=self._clocks(now), **fields)]

    # ================================================================= offers
    def _offer(self, kind: str, actor: str, now: float) -> list[dict]:
        current = self.offers[kind]
        if current == actor:
            raise GameError("offer_pending", f"you have already offered {kind}; wait for an answer")
        if current == other(actor) and kind != "undo":
            return getattr(self, f"_{kind}_accept")(actor, now)
        self.offers[kind] = actor
        return [self._base("offer", now, kind=kind, by=actor, offers=dict(self.offers))]

    def _take_offer(self, kind: str, actor: str) -> None:
        if self.offers[kind] != other(actor):
            raise GameError("no_offer", f"there is no {kind} offer from your opponent to answer")
        self.offers[kind] = None

    def _decline(self, kind: str, actor: str, now: float) -> list[dict]:
        self._take_offer(kind, actor)
        return [self._base("offer_declined", now, kind=kind, by=actor, offers=dict(self.offers))]

    # -- undo
    def _undo_request(self, actor: str, now: float) -> list[dict]:
        moves = self.game.moves
        if not moves or moves[-1].color != actor or len(self.clock_history) < 1:
            raise GameError("cannot_undo", "you can only ask to take back your own last move")
        return self._offer("undo", actor, now)

    def _undo_accept(self, actor: str, now: float) -> list[dict]:
        self._take_offer("undo", actor)
        undone = self.game.undo()
        self.clock = GameClock.from_dict(self.clock_history.pop(), now)
        return [self._base(
            "undo", now, color=undone.color, p=None if undone.point is None else list(undone.point),
            by=actor, move_number=len(self.game.moves), board=self.game.board_rows(),
            prisoners=dict(self.game.prisoners), to_move=self.game.to_move, clocks=self._clocks(now),
            offers=dict(self.offers),
        )]

    def _undo_decline(self, actor: str, now: float) -> list[dict]:
        return self._decline("undo", actor, now)

    # -- draw
    def _draw_offer(self, actor: str, now: float) -> list[dict]:
        return self._offer("draw", actor, now)

    def _draw_accept(self, actor: str, now: float) -> list[dict]:
        self._take_offer("draw", actor)
        return [self._finish(drawn(), now, by=actor)]

    def _draw_decline(self, actor: str, now: float) -> list[dict]:
        return self._decline("draw", actor, now)

    # -- adjournment and sealed move
    def _adjourn_offer(self, actor: str, now: float) -> list[dict]:
        return self._offer("adjourn", actor, now)

    def _adjourn_accept(self, actor: str, now: float) -> list[dict]:
        self._take_offer("adjourn", actor)
        self.phase = "adjourned"
        self.sealed = None
        return [self._base("phase", now, phase="adjourned", sealer=self.game.to_move, by=actor,
                           clocks=self._clocks(now), offers=dict(self.offers))]

    def _adjourn_decline(self, actor: str, now: float) -> list[dict]:
        return self._decline("adjourn", actor, now)

    def _seal(self, actor: str, p: tuple[int, int] | None, now: float, lag: float | None) -> list[dict]:
        if self.sealed is not None:
            raise GameError("already_sealed", "a move is already sealed")
        self._require_turn(actor)
        if p is not None:
            reason = self.game.illegal_reason(actor, p)
            if reason is not None:
                raise IllegalMove(reason)
        charge, flagged = self._charge(actor, now, lag)
        if flagged:
            return flagged
        self.clock.pause(now, "adjourned")
        self.sealed = {"color": actor, "p": p, "charge": charge}
        public = {"t": "sealed", "color": actor, "clocks": self._clocks(now), "server_time": now}
        return [self._base("sealed", now, color=actor, p=None if p is None else list(p),
                           clocks=self._clocks(now), visibility=actor, others=public)]

    def _resume_offer(self, actor: str, now: float) -> list[dict]:
        if self.sealed is None:
            raise GameError("not_sealed", f"{self.game.to_move} must seal a move before play can resume")
        return self._offer("resume", actor, now)

    def _resume_accept(self, actor: str, now: float) -> list[dict]:
        self._take_offer("resume", actor)
        sealed = self.sealed
        assert sealed is not None  # the resume offer exists only while a move is sealed
        self.sealed = None
        self.phase = "playing"
        self.clock.resume(now, "adjourned")
        events = [self._base("phase", now, phase="playing", by=actor, offers=dict(self.offers),
                             clocks=self._clocks(now))]
        color, p = sealed["color"], sealed["p"]
        if p is None:
            events += self._place_pass(color, now, sealed["charge"])
        else:
            events += self._place(color, p, now, sealed["charge"])
        for ev in events[1:]:
            ev["sealed"] = True
        return events

    def _resume_decline(self, actor: str, now: float) -> list[dict]:
        return self._decline("resume", actor, now)

    # -- rematch (after the game)
    def _rematch(self, kind: str, actor: str, now: float, game_id: str | None) -> list[dict]:
        if self.rematch is not None:
            raise GameError("rematch_exists", "this game already has a rematch")
        if kind == "rematch_offer" and self.offers["rematch"] != other(actor):
            return self._offer("rematch", actor, now)
        self._take_offer("rematch", actor)  # an accept, or an offer crossing the opponent's
        if game_id is None:
            raise GameError("bad_request", "the room must name the rematch's game")
        self.rematch = game_id
        return [self._base("rematch", now, game_id=game_id, by=actor, offers=dict(self.offers))]

    def _rematch_decline(self, actor: str, now: float) -> list[dict]:
        return self._decline("rematch", actor, now)

    # ================================================================= scoring
    def _score_fields(self) -> dict:
        return {
            "dead": sorted([list(p) for p in self.dead]),
            "accepted": dict(self.accepted),
            "score": self.game.score(self.dead).to_dict(),
            "deadline": self.scoring_deadline,
        }

    def _enter_scoring(self, now: float) -> dict:
        self.dead = self._proposal()
        self.phase = "scoring"
        self.clock.pause(now, "scoring")
        self.offers = {k: None for k in OFFER_KINDS}
        self.accepted = {"B": False, "W": False}
        self.scoring_deadline = now + self.config.scoring_timeout
        return self._base("phase", now, phase="scoring", clocks=self._clocks(now), **self._score_fields())

    def _proposal(self) -> set[tuple[int, int]]:
        """The dead stones proposed as scoring starts: the action's fact ``dead`` when it carries one (it is
        logged with the action, so a replay never computes it again), else the engine's proposal."""
        given = self._facts.get("dead")
        if given is not None:
            if not isinstance(given, list):
                raise GameError("bad_request", "'dead' must be a list of points")
            return expand_to_chains(self.game, [_point(p) for p in given])
        if self.defer_proposals:
            raise ProposalNeeded(self.game.copy())
        return propose_dead_chains(self.game)

    def _toggle_dead(self, actor: str, p: tuple[int, int], now: float) -> list[dict]:
        size = self.game.size
        if not (0 <= p[0] < size and 0 <= p[1] < size):  # the same answer as a move off the board
            raise GameError("illegal_move", f"{list(p)} is off the board", reason="off_board")
        chain = self.game.chain(p)
        if not chain:
            raise GameError("no_stone", "there is no stone there to mark")
        if chain & self.dead:
            self.dead -= chain
            now_dead = False
        else:
            self.dead |= chain
            now_dead = True
        self.accepted = {"B": False, "W": False}
        self.scoring_deadline = now + self.config.scoring_timeout
        return [self._base("dead_stones", now, by=actor, p=list(p), chain=sorted([list(q) for q in chain]),
                           marked_dead=now_dead, **self._score_fields())]

    def _accept_score(self, actor: str, now: float) -> list[dict]:
        if self.accepted[actor]:
            raise GameError("already_accepted", "you have already accepted these marks")
        self.accepted[actor] = True
        self.scoring_deadline = now + self.config.scoring_timeout
        events = [self._base("score_accepted", now, color=actor, accepted=dict(self.accepted),
                             deadline=self.scoring_deadline)]
        if all(self.accepted.values()):
            events.append(self._finish(by_score(self.game.score(self.dead)), now))
        return events

    def _resume_play(self, actor: str, now: float) -> list[dict]:
        self.phase = "playing"
        self.dead = set()
        self.accepted = {"B": False, "W": False}
        self.scoring_deadline = None
        self.resume_mark = len(self.game.moves)
        self.clock.resume(now, "scoring")
        return [self._base("phase", now, phase="playing", by=actor, to_move=self.game.to_move,
                           clocks=self._clocks(now))]
