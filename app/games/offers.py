"""Offers between the two players: undo, draw and rematch, and the offer mechanics adjournment shares.

An offer of the same kind by the other player counts as acceptance (a crossed draw offer is a draw); an undo
offer never crosses (each player can only take back their own move).
"""

from __future__ import annotations

from collections.abc import Callable

from app.games.actions import Event
from app.games.authority_state import AuthorityState
from app.games.clock import GameClock, other
from app.games.errors import GameError
from app.games.results import drawn

# (authority, actor, now) -> events: what accepting an offer does
Accept = Callable[[AuthorityState, str, float], list[Event]]


def offer(auth: AuthorityState, kind: str, actor: str, now: float, accept: Accept | None = None) -> list[Event]:
    """Record ``actor``'s offer of ``kind``; with the opponent's own offer pending, ``accept`` it instead."""
    current = auth.offers[kind]
    if current == actor:
        raise GameError("offer_pending", f"you have already offered {kind}; wait for an answer")
    if current == other(actor) and accept is not None:
        return accept(auth, actor, now)
    auth.offers[kind] = actor
    return [auth.event("offer", now, kind=kind, by=actor, offers=dict(auth.offers))]


def take_offer(auth: AuthorityState, kind: str, actor: str) -> None:
    if auth.offers[kind] != other(actor):
        raise GameError("no_offer", f"there is no {kind} offer from your opponent to answer")
    auth.offers[kind] = None


def decline(auth: AuthorityState, kind: str, actor: str, now: float) -> list[Event]:
    take_offer(auth, kind, actor)
    return [auth.event("offer_declined", now, kind=kind, by=actor, offers=dict(auth.offers))]


# -- undo
def undo_request(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    moves = auth.game.moves
    if not moves or moves[-1].color != actor or len(auth.clock_history) < 1:
        raise GameError("cannot_undo", "you can only ask to take back your own last move")
    return offer(auth, "undo", actor, now)


def undo_accept(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    take_offer(auth, "undo", actor)
    game = auth.game
    undone = game.undo()
    away = set(auth.clock.away)  # a vacation taken since the move still holds
    kept = auth.clock_history.pop()  # the clock's state before the move, then the instant it was charged at
    auth.clock = GameClock.from_dict(auth.clock.restored(kept[:-1]).to_dict(kept[-1]), now)
    for color in ("B", "W"):
        auth.clock.set_away(color, color in away, now)
    return [
        auth.event(
            "undo",
            now,
            color=undone.color,
            p=None if undone.point is None else list(undone.point),
            by=actor,
            move_number=len(game.moves),
            board=game.board_rows(),
            prisoners=dict(game.prisoners),
            to_move=game.to_move,
            ko=None if game.ko_point is None else list(game.ko_point),
            illegal=auth.illegal(),
            clocks=auth.clock.view(now),
            offers=dict(auth.offers),
        )
    ]


def undo_decline(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    return decline(auth, "undo", actor, now)


# -- draw
def draw_accept(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    take_offer(auth, "draw", actor)
    return [auth.finish(drawn(), now, by=actor)]


def draw_offer(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    return offer(auth, "draw", actor, now, draw_accept)


def draw_decline(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    return decline(auth, "draw", actor, now)


# -- rematch (after the game)
def rematch(auth: AuthorityState, kind: str, actor: str, now: float, game_id: str | None) -> list[Event]:
    """``rematch_offer`` or ``rematch_accept``: the room names the new game (the fact ``game_id``)."""
    if auth.rematch is not None:
        raise GameError("rematch_exists", "this game already has a rematch")
    if kind == "rematch_offer" and auth.offers["rematch"] != other(actor):
        return offer(auth, "rematch", actor, now)
    take_offer(auth, "rematch", actor)  # an accept, or an offer crossing the opponent's
    if game_id is None:
        raise GameError("bad_request", "the room must name the rematch's game")
    auth.rematch = game_id
    return [auth.event("rematch", now, game_id=game_id, by=actor, offers=dict(auth.offers))]


def rematch_decline(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    return decline(auth, "rematch", actor, now)
