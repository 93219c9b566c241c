"""What the action handlers see of the game authority: the state they change and the steps they share.

The authority (:mod:`app.games.authority`) dispatches every action to its handler: offers
(:mod:`app.games.offers`), the scoring phase (:mod:`app.games.scoring_phase`), adjournment
(:mod:`app.games.adjournment`) and correspondence (:mod:`app.games.correspondence`). The handlers take this
narrow protocol instead of the class, so that none of them imports the authority back: the authority imports
them, they import this module, and no import circle remains (tests/test_dependencies.py checks that none
exists anywhere in ``app``). :class:`~app.games.authority.GameAuthority` satisfies it structurally; mypy
checks that where the authority passes itself to a handler.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.games.actions import Event, Facts, Point
from app.games.clock import ClockState, GameClock
from app.games.conditional import Tree
from app.games.config import GameConfig
from app.games.results import Result
from app.rules import Game


class AuthorityState(Protocol):
    """The fields and steps of :class:`~app.games.authority.GameAuthority` that its handlers use."""

    config: GameConfig
    game: Game
    clock: GameClock
    clock_history: list[ClockState]
    phase: str
    offers: dict[str, str | None]
    result: Result | None
    dead: set[Point]
    uncertain: set[Point]
    judge: str
    accepted: dict[str, bool]
    scoring_deadline: float | None
    sealed: dict[str, Any] | None
    resume_mark: int
    rematch: str | None
    conditional: dict[str, Tree]
    facts: Facts
    defer_proposals: bool
    resuming_sealed: bool

    def event(self, t: str, now: float, visibility: str = "all", others: Event | None = None, **fields: Any) -> Event: ...

    def finish(self, result: Result, now: float, **extra: Any) -> Event: ...

    def charge_turn(
        self, actor: str, p: Point | None, now: float, lag: float | None
    ) -> tuple[dict[str, Any] | None, list[Event]]: ...

    def charge(self, actor: str, now: float, lag: float | None) -> tuple[dict[str, Any] | None, list[Event]]: ...

    def place(
        self, actor: str, p: Point, now: float, charge: dict[str, Any] | None, conditional: bool = False
    ) -> list[Event]: ...

    def place_pass(self, actor: str, now: float, charge: dict[str, Any] | None) -> list[Event]: ...

    def illegal(self) -> list[list[int]]: ...

    def settle(self, now: float) -> list[Event]: ...
