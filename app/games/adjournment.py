"""Adjournment: agreeing to adjourn, the sealed move, and agreeing to resume.

After ``adjourn_offer`` / ``adjourn_accept`` the phase is ``adjourned`` and the player to move must seal a
move; their clock keeps running until they do. Sealing charges their clock like a move and stops both clocks;
the point is visible only to the sealer. After ``resume_offer`` / ``resume_accept`` the sealed move is played
(its ``move`` event, visible to all, follows the ``phase`` event) and the opponent's clock starts.
"""

from __future__ import annotations

from app.games.actions import Event, Point
from app.games.authority_state import AuthorityState
from app.games.errors import GameError
from app.games.events import build
from app.games.offers import decline, offer, take_offer


def adjourn_accept(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    take_offer(auth, "adjourn", actor)
    auth.phase = "adjourned"
    auth.sealed = None
    return [
        auth.event(
            "phase",
            now,
            phase="adjourned",
            sealer=auth.game.to_move,
            by=actor,
            clocks=auth.clock.view(now),
            offers=dict(auth.offers),
        )
    ]


def adjourn_offer(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    return offer(auth, "adjourn", actor, now, adjourn_accept)


def adjourn_decline(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    return decline(auth, "adjourn", actor, now)


def seal(auth: AuthorityState, actor: str, p: Point | None, now: float, lag: float | None) -> list[Event]:
    if auth.sealed is not None:
        raise GameError("already_sealed", "a move is already sealed")
    charge, flagged = auth.charge_turn(actor, p, now, lag)
    if flagged:
        return flagged
    auth.clock.pause(now, "adjourned")
    auth.sealed = {"color": actor, "p": p, "charge": charge}
    public = build("sealed", {"color": actor, "clocks": auth.clock.view(now), "server_time": now})
    return [
        auth.event(
            "sealed",
            now,
            color=actor,
            p=None if p is None else list(p),
            clocks=auth.clock.view(now),
            visibility=actor,
            others=public,
        )
    ]


def resume_accept(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    take_offer(auth, "resume", actor)
    sealed = auth.sealed
    assert sealed is not None  # the resume offer exists only while a move is sealed
    auth.sealed = None
    auth.phase = "playing"
    auth.clock.resume(now, "adjourned")
    events = [auth.event("phase", now, phase="playing", by=actor, clocks=auth.clock.view(now), offers=dict(auth.offers))]
    color, p = sealed["color"], sealed["p"]
    auth.resuming_sealed = True  # the move and whatever it brings about (scoring, an end) say they were sealed
    try:
        if p is None:
            events += auth.place_pass(color, now, sealed["charge"])
        else:
            events += auth.place(color, p, now, sealed["charge"])
    finally:
        auth.resuming_sealed = False
    return events


def resume_offer(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    if auth.sealed is None:
        raise GameError("not_sealed", f"{auth.game.to_move} must seal a move before play can resume")
    return offer(auth, "resume", actor, now, resume_accept)


def resume_decline(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    return decline(auth, "resume", actor, now)
