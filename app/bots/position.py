"""The bridge's copy of one game, kept from the snapshot and the versioned events of docs/protocol.md.

Only what the bridge needs to decide: the move list (to replay into the engine), the phase, whose turn it
is, the clocks, the pending offers, the scoring marks and the result. ``apply`` follows the client rules of
§2: an event is applied only when its ``v`` is the next one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from app.rules import PRESETS

Point = tuple[int, int]
GameMove = tuple[str, Point | None]  # colour, point (None: pass)

# Events that add a move to the record.
_MOVES = ("move", "pass")


def preset_and_params(rules: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A game's rules as the snapshot gives them (every parameter of its ``RuleSet``) as a preset and the
    parameters that differ from it, komi apart: what a KataGo house bot sends the server with each question, so
    that KataGo is told the game's own rules (ko, scoring, tax, suicide...), not only its preset's. Rules named
    after no preset start from Chinese."""
    name = str(rules.get("name") or "chinese")
    base = PRESETS.get(name, PRESETS["chinese"]).to_dict()
    params = {key: value for key, value in rules.items() if key in base and key not in ("name", "komi") and base[key] != value}
    return (name if name in PRESETS else "chinese"), params


class Gap(Exception):
    """An event came after a hole in the versions: reconnect with ``?v=`` the last applied version."""


@dataclass
class Position:
    game_id: str
    me: str = ""  # "B" or "W"
    opponent_name: str = ""
    v: int = 0
    size: int = 19
    komi: float = 7.5
    rules: str = "chinese"  # the preset the game's rules start from...
    rules_params: dict[str, Any] = field(default_factory=dict)  # ... and what differs from it (komi apart)
    handicap_points: list[Point] = field(default_factory=list)
    time_control: dict[str, Any] = field(default_factory=dict)
    moves: list[GameMove] = field(default_factory=list)
    to_move: str = "B"
    phase: str = "playing"
    clocks: dict[str, Any] | None = None
    clocks_at: float = 0.0  # time.monotonic() when `clocks` arrived
    clocks_server_time: float | None = None  # the server's time the clocks are given at
    offers: dict[str, Any] = field(default_factory=dict)
    dead: set[Point] = field(default_factory=set)
    accepted: dict[str, bool] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    rematch: str | None = None
    opponent_present: bool = True
    absent_since: float | None = None  # time.monotonic() since when the opponent has had no connection
    opponent_toggled: bool = False  # the opponent changed the marks in this scoring phase
    loaded: bool = False

    @property
    def opponent(self) -> str:
        return "W" if self.me == "B" else "B"

    def snapshot(self, message: dict[str, Any], my_user_id: int) -> None:
        game = message["game"]
        self.v = int(message["v"])
        self.size = int(game["size"])
        rules = game.get("rules") or {}
        self.komi = float(rules.get("komi", game.get("komi", 7.5)))
        self.rules, self.rules_params = preset_and_params(rules)
        self.handicap_points = [tuple(p) for p in game.get("handicap_points") or []]
        self.time_control = game.get("time_control") or {}
        players = game["players"]
        self.me = "B" if players["B"]["id"] == my_user_id else "W"
        self.opponent_name = str((players[self.opponent] or {}).get("name") or "")
        self.moves = [(m["color"], tuple(m["p"]) if m.get("p") is not None else None) for m in game["moves"]]
        self.to_move = game.get("to_move") or "B"
        self.phase = game["phase"]
        self._clocks(game.get("clocks"), game.get("server_time"))
        self.offers = dict(game.get("offers") or {})
        scoring = game.get("scoring") or None
        self.dead = {tuple(p) for p in scoring["dead"]} if scoring else set()
        self.accepted = dict(scoring["accepted"]) if scoring else {}
        self.result = game.get("result")
        self.rematch = game.get("rematch")
        presence = game.get("presence") or {}
        self._presence(bool(presence.get(self.opponent, True)))
        self.opponent_toggled = False
        self.loaded = True

    def _presence(self, here: bool) -> None:
        if not here and self.absent_since is None:
            self.absent_since = time.monotonic()
        elif here:
            self.absent_since = None
        self.opponent_present = here

    def _clocks(self, clocks: dict[str, Any] | None, server_time: Any = None) -> None:
        if clocks is not None:
            self.clocks = clocks
            self.clocks_at = time.monotonic()
            self.clocks_server_time = float(server_time) if isinstance(server_time, int | float) else None

    def apply(self, event: dict[str, Any]) -> bool:
        """Apply a message. True when it changed the game (a versioned event); raises ``Gap`` on a hole."""
        kind = event.get("t")
        if kind == "presence":
            self._presence(bool(event.get("players", {}).get(self.opponent, True)))
            return True
        if kind == "clock":
            self._clocks(event.get("clocks"), event.get("server_time"))
            return False
        if "v" not in event:
            return False
        v = int(event["v"])
        if v <= self.v:
            return False
        if v != self.v + 1:
            raise Gap(f"got v={v} after v={self.v}")
        self.v = v
        handler = _HANDLERS.get(str(kind))
        if handler is not None:
            handler(self, event)
        self._clocks(event.get("clocks"), event.get("server_time"))
        if "offers" in event:
            self.offers = dict(event["offers"])
        return True

    # ---- event handlers (dispatched through _HANDLERS)

    def _move(self, event: dict[str, Any]) -> None:
        point = event.get("p")
        self.moves.append((event["color"], tuple(point) if point is not None else None))
        self.to_move = event.get("to_move") or ("W" if event["color"] == "B" else "B")
        for kind in ("undo", "draw", "adjourn"):
            self.offers[kind] = None

    def _undo(self, event: dict[str, Any]) -> None:
        if self.moves:
            self.moves.pop()
        self.to_move = event.get("to_move") or self.to_move

    def _phase(self, event: dict[str, Any]) -> None:
        self.phase = event["phase"]
        if self.phase == "scoring":
            self.dead = {tuple(p) for p in event.get("dead") or []}
            self.accepted = dict(event.get("accepted") or {})
            self.opponent_toggled = False
        if event.get("to_move"):
            self.to_move = event["to_move"]

    def _dead_stones(self, event: dict[str, Any]) -> None:
        self.dead = {tuple(p) for p in event.get("dead") or []}
        self.accepted = dict(event.get("accepted") or {})
        if event.get("by") == self.opponent:
            self.opponent_toggled = True

    def _score_accepted(self, event: dict[str, Any]) -> None:
        self.accepted = dict(event.get("accepted") or self.accepted)

    def _game_over(self, event: dict[str, Any]) -> None:
        self.phase = "finished"
        self.result = event.get("result")

    def _rematch(self, event: dict[str, Any]) -> None:
        self.rematch = event.get("game_id")


_HANDLERS = {
    "move": Position._move,
    "pass": Position._move,
    "undo": Position._undo,
    "phase": Position._phase,
    "dead_stones": Position._dead_stones,
    "engine_opinion": Position._dead_stones,  # a player asked KataGo: the marks are its proposal
    "score_accepted": Position._score_accepted,
    "game_over": Position._game_over,
    "rematch": Position._rematch,
}
