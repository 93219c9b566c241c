"""What the authority does for correspondence games (docs/clocks.md, "Correspondence").

- Conditional moves (:mod:`app.games.conditional` holds the tree): ``conditional`` replaces a player's tree;
  after each move or pass of their opponent the tree answers at once or is dropped (:func:`answer`). Every
  change of a tree is a ``conditional`` event only its owner sees.
- ``vacation`` (a system action, the room acts it for the player): their clock stops or runs again.
- Out of time before one's first move in a correspondence game: the game is cancelled, not lost.
"""

from __future__ import annotations

from typing import Any

from app.games.actions import Action, Event, Facts, Point
from app.games.authority_state import AuthorityState
from app.games.clock import other
from app.games.conditional import Tree, follow, parse_tree, to_wire
from app.games.errors import GameError
from app.games.results import Result, void, win

__all__ = ["Tree", "answer", "do_conditional", "do_vacation", "timeout", "tree_for"]


def timeout(auth: AuthorityState, loser: str) -> Result:
    """Out of time: a loss, except in a correspondence game the loser never moved in (cancelled)."""
    if auth.config.time_control.correspondence and not any(m.color == loser for m in auth.game.moves):
        return void("cancelled")
    return win(other(loser), "timeout")


def tree_for(auth: AuthorityState, viewer: str | None) -> list[Any] | None:
    """The viewer's own tree for the snapshot (None for a spectator)."""
    return to_wire(auth.conditional[viewer]) if viewer in ("B", "W") else None


def _tree_event(auth: AuthorityState, owner: str, now: float) -> Event:
    return auth.event("conditional", now, color=owner, tree=to_wire(auth.conditional[owner]), visibility=owner)


def answer(auth: AuthorityState, mover: str, played: Point | None, now: float) -> list[Event]:
    """The opponent's conditional answer to ``mover``'s move (None: a pass), played at once; or their tree
    dropped. An answer may itself be answered by ``mover``'s own tree."""
    owner = other(mover)
    tree = auth.conditional[owner]
    if not tree:
        return []
    found = follow(tree, played) if auth.phase == "playing" else None
    if found is None or auth.game.illegal_reason(owner, found[0]) is not None:
        auth.conditional[owner] = ()
        return [_tree_event(auth, owner, now)]
    reply, auth.conditional[owner] = found
    charge, flagged = auth.charge(owner, now, None)
    if flagged:
        return flagged
    events = auth.place(owner, reply, now, charge, conditional=True)
    return events + [_tree_event(auth, owner, now)] + answer(auth, owner, reply, now)


def do_conditional(auth: AuthorityState, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
    tree = parse_tree(action.get("tree"), auth.game.size)
    auth.conditional[actor] = tree
    return {"t": "conditional", "tree": to_wire(tree)}, [_tree_event(auth, actor, now)]


def do_vacation(auth: AuthorityState, actor: str, action: Action, now: float, facts: Facts) -> tuple[Action, list[Event]]:
    color, on = action.get("color"), action.get("on")
    if color not in ("B", "W") or not isinstance(on, bool):
        raise GameError("bad_request", "'vacation' takes a colour and on: true or false")
    parsed: Action = {"t": "vacation", "color": color, "on": on}
    events = auth.settle(now)  # what fell due before still happened
    if auth.phase == "finished" or (color in auth.clock.away) == on:
        return parsed, events
    auth.clock.set_away(color, on, now)
    return parsed, events + [auth.event("vacation", now, color=color, on=on, clocks=auth.clock.view(now))]
