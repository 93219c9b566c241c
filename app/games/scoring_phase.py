"""The scoring phase: the dead-stone proposal as it starts, marking chains, accepting, resuming play.

Two consecutive passes start it: clocks pause and the dead stones are proposed by the engine (or taken from
the action's fact ``dead``). ``resume_play`` clears the marks and restarts the clock of the side to move;
from then, two new consecutive passes are needed to score again.
"""

from __future__ import annotations

from typing import Any

from app.games.actions import OFFER_KINDS, Event, Point, point
from app.games.authority_state import AuthorityState
from app.games.chains import expand_to_chains, propose_dead_chains
from app.games.errors import GameError, ProposalNeeded
from app.games.results import by_score


def score_fields(auth: AuthorityState) -> dict[str, Any]:
    return {
        "dead": sorted([list(p) for p in auth.dead]),
        "uncertain": sorted([list(p) for p in auth.uncertain]),
        "judge": auth.judge,
        "accepted": dict(auth.accepted),
        "score": auth.game.score(auth.dead).to_dict(),
        "deadline": auth.scoring_deadline,
    }


def enter_scoring(auth: AuthorityState, now: float) -> Event:
    auth.dead = proposal(auth)
    auth.uncertain, auth.judge = engine_facts(auth)
    auth.phase = "scoring"
    auth.clock.pause(now, "scoring")
    auth.offers = {k: None for k in OFFER_KINDS}
    auth.accepted = {"B": False, "W": False}
    auth.scoring_deadline = now + auth.config.scoring_timeout
    return auth.event("phase", now, phase="scoring", clocks=auth.clock.view(now), **score_fields(auth))


def proposal(auth: AuthorityState) -> set[Point]:
    """The dead stones proposed as scoring starts: the action's fact ``dead`` when it carries one (it is
    logged with the action, so a replay never computes it again), else the engine's proposal."""
    given = auth.facts.get("dead")
    if given is not None:
        if not isinstance(given, list):
            raise GameError("bad_request", "'dead' must be a list of points")
        return expand_to_chains(auth.game, [point(p) for p in given])
    if auth.defer_proposals:
        raise ProposalNeeded(auth.game.copy())
    return propose_dead_chains(auth.game)


def engine_facts(auth: AuthorityState) -> tuple[set[Point], str]:
    """The chains the proposal is unsure of and whose proposal it is (``katago``, or ``rules``: the rules engine's),
    from the action's facts (a replay reads them as recorded)."""
    given = auth.facts.get("uncertain") or []
    if not isinstance(given, list):
        raise GameError("bad_request", "'uncertain' must be a list of points")
    judge = auth.facts.get("judge")
    return expand_to_chains(auth.game, [point(p) for p in given]), judge if judge == "katago" else "rules"


def ask_engine(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    """A player asks KataGo for its proposal (a second opinion): the marks become KataGo's, both acceptances are
    cleared. The room computes it and applies the action again with it as facts, recorded with the action."""
    if auth.judge == "katago":
        raise GameError("engine_already_judged", "the marks started from KataGo's proposal already")
    if auth.facts.get("dead") is None:
        if auth.defer_proposals:
            raise ProposalNeeded(auth.game.copy(), second_opinion=True)
        raise GameError("engine_unavailable", "KataGo does not run here.")
    auth.dead = proposal(auth)
    auth.uncertain, auth.judge = engine_facts(auth)
    auth.accepted = {"B": False, "W": False}
    auth.scoring_deadline = now + auth.config.scoring_timeout
    return [auth.event("engine_opinion", now, by=actor, **score_fields(auth))]


def toggle_dead(auth: AuthorityState, actor: str, p: Point, now: float) -> list[Event]:
    size = auth.game.size
    if not (0 <= p[0] < size and 0 <= p[1] < size):  # the same answer as a move off the board
        raise GameError("illegal_move", f"{list(p)} is off the board", reason="off_board")
    chain = auth.game.chain(p)
    if not chain:
        raise GameError("no_stone", "there is no stone there to mark")
    if chain & auth.dead:
        auth.dead -= chain
        now_dead = False
    else:
        auth.dead |= chain
        now_dead = True
    auth.uncertain -= chain  # a player has decided it
    auth.accepted = {"B": False, "W": False}
    auth.scoring_deadline = now + auth.config.scoring_timeout
    return [
        auth.event(
            "dead_stones",
            now,
            by=actor,
            p=list(p),
            chain=sorted([list(q) for q in chain]),
            marked_dead=now_dead,
            **score_fields(auth),
        )
    ]


def accept_score(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    if auth.accepted[actor]:
        raise GameError("already_accepted", "you have already accepted these marks")
    auth.accepted[actor] = True
    auth.scoring_deadline = now + auth.config.scoring_timeout
    events = [auth.event("score_accepted", now, color=actor, accepted=dict(auth.accepted), deadline=auth.scoring_deadline)]
    if all(auth.accepted.values()):
        events.append(auth.finish(by_score(auth.game.score(auth.dead)), now))
    return events


def resume_play(auth: AuthorityState, actor: str, now: float) -> list[Event]:
    auth.phase = "playing"
    auth.dead = set()
    auth.uncertain = set()
    auth.judge = "rules"
    auth.accepted = {"B": False, "W": False}
    auth.scoring_deadline = None
    auth.resume_mark = len(auth.game.moves)
    auth.clock.resume(now, "scoring")
    return [auth.event("phase", now, phase="playing", by=actor, to_move=auth.game.to_move, clocks=auth.clock.view(now))]
