"""What the API shows of a tournament: its settings, entrants, rounds with their pairings and the why of each
board and bye, the standings, a crosstable, the games to watch and, for the directors, the unfinished games past
their round's deadline with a link to the engine's estimate, and the EGD's h9 export. Built from rows already read
(no queries here); the standings and the export are the core's (``standings.py``, ``h9.py``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from app.store.models import (
    Game,
    Tournament,
    TournamentAudit,
    TournamentEntrant,
    TournamentPairing,
    TournamentRound,
    TournamentSeat,
)
from app.errors import Conflict
from app.lobby.rules_presets import default_komi
from app.tournaments.h9 import H9Event, export_h9
from app.tournaments.mcmahon_score import starting_mms
from app.tournaments.model import Bye, Entrant, Result, RoundInput, TournamentRules, rank_label
from app.tournaments.pairing.elimination import placings
from app.tournaments.rounds import checkin_window, entrant_of, history, pairing_time, rules_of
from app.tournaments.scores import points
from app.tournaments.standings import TIEBREAK_DEFINITIONS, StandingRow
from app.tournaments.standings import standings as standings_of


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def summary(t: Tournament, players: int) -> dict[str, Any]:
    return {
        "id": t.id,
        "name": t.name,
        "format": t.format,
        "status": t.status,
        "rounds": t.rules["rounds"],
        "players": players,
        "max_players": t.max_players,
        "first_round_at": _iso(t.first_round_at),
        "version": t.version,
        "url": f"/tournaments/{t.id}",
    }


def settings_view(t: Tournament, director: str | None, co_directors: list[str]) -> dict[str, Any]:
    r = t.rules
    bars = {k: (rank_label(r[k]) if r.get(k) is not None else None) for k in ("top_bar", "bottom_bar")}
    return {
        **bars,
        "handicap": r.get("handicap", False),
        "handicap_correction": r.get("handicap_correction", 0),
        "handicap_ceiling": r.get("handicap_ceiling", 9),
        "tiebreaks": list(r.get("tiebreaks", [])),
        "seed": r.get("seed", 0),
        "min_rank": rank_label(t.min_rank) if t.min_rank is not None else None,
        "max_rank": rank_label(t.max_rank) if t.max_rank is not None else None,
        "late_until_round": t.late_until_round,
        "game": t.game,
        "schedule": {
            "first_round_at": _iso(t.first_round_at),
            "round_seconds": t.round_seconds,
            "pairing_lead_seconds": t.pairing_lead_seconds,
            "checkin_seconds": t.checkin_seconds,
            "deadline_seconds": t.deadline_seconds,
        },
        "paused_at": _iso(t.paused_at),
        "director": director,
        "co_directors": co_directors,
    }


def entrant_view(e: TournamentEntrant) -> dict[str, Any]:
    return {
        "id": e.user_id,
        "name": e.name,
        "rank": rank_label(e.rank),
        "rating": round(e.rating, 1),
        "registered_round": e.registered_round,
        "status": e.status,
        "left_round": e.left_round,
    }


def board_view(b: TournamentPairing, names: dict[int, str], game: Game | None) -> dict[str, Any]:
    return {
        "id": b.id,
        "board": b.board,
        "black": {"id": b.black_id, "name": names.get(b.black_id)},
        "white": {"id": b.white_id, "name": names.get(b.white_id)},
        "handicap": b.handicap,
        "why": b.why,
        "game_id": b.game_id,
        "url": f"/game/{b.game_id}" if b.game_id else None,
        "game_result": game.result if game is not None else None,
        "outcome": b.outcome,
        "by_forfeit": b.by_forfeit,
        "decided_by": b.decided_by,
    }


def round_view(
    t: Tournament,
    rnd: TournamentRound,
    boards: Sequence[TournamentPairing],
    seats: Sequence[TournamentSeat],
    names: dict[int, str],
    games: dict[str, Game],
) -> dict[str, Any]:
    opens, closes = checkin_window(t, rnd)
    error = (rnd.pairing or {}).get("error")
    return {
        "number": rnd.number,
        "status": rnd.status,
        "starts_at": _iso(rnd.starts_at),
        "pairing_at": _iso(pairing_time(t, rnd)),
        "checkin": {"opens": _iso(opens), "closes": _iso(closes)} if t.checkin_seconds > 0 else None,
        "deadline_at": _iso(rnd.deadline_at),
        "seed": rnd.seed,
        "digest": rnd.digest,
        "pairing_error": error,
        "repaired_reason": rnd.repaired_reason,
        "boards": [board_view(b, names, games.get(b.game_id or "")) for b in boards if b.round == rnd.number],
        "byes": [
            {"player": {"id": s.user_id, "name": names.get(s.user_id)}, "kind": s.kind, "why": s.why}
            for s in seats
            if s.round == rnd.number and s.kind in ("bye", "absent")
        ],
    }


def _table(
    t: Tournament,
    entrants: Sequence[TournamentEntrant],
    boards: Sequence[TournamentPairing],
    seats: Sequence[TournamentSeat],
    upto: int,
) -> tuple[TournamentRules, list[Entrant], list[Result], list[Bye], list[StandingRow]]:
    """The core's table over rounds ``1..upto`` (only the games with a result: one still being played counts for
    no one yet). An elimination is ranked by its bracket's placings instead (the core ignores its tie-breaks)."""
    rules = rules_of(t)
    people = [entrant_of(e) for e in entrants]
    recorded, byes = history(boards, seats, before=upto + 1)
    results = [r for r, b in zip(recorded, [b for b in boards if b.round <= upto], strict=True) if b.outcome is not None]
    table = standings_of(rules, people, results, byes)
    if t.format in ("single_elimination", "double_elimination"):
        inp = RoundInput(rules, tuple(people), 1, (), (), tuple(results), tuple(byes), tuple(people))
        row_of = {row.player_id: row for row in table}
        table = [dataclasses.replace(row_of[p], place=place, figures=()) for place, p in placings(inp) if p in row_of]
    return rules, people, results, byes, table


def standings(
    t: Tournament, entrants: Sequence[TournamentEntrant], boards: Sequence[TournamentPairing], seats: Sequence[TournamentSeat]
) -> list[dict[str, Any]]:
    """The core's standings (app/tournaments/standings.py) in its order: the score (the McMahon score in a
    McMahon, points otherwise), then the event's tie-breaks, each row's ``figures`` as ``[tiebreak, value]``
    pairs in the rules' order; ``points`` (a win 1, a jigo 1/2, a bye 1, an absence 0) beside it."""
    rules, people, results, byes, table = _table(t, entrants, boards, seats, 10**6)
    won = points(results, byes)
    entrant = {person.player_id: e for person, e in zip(people, entrants, strict=True)}
    out = []
    for row in table:
        e = entrant[row.player_id]
        item: dict[str, Any] = {
            "place": row.place,
            "id": e.user_id,
            "name": e.name,
            "rank": rank_label(e.rank),
            "points": won.get(row.player_id, 0.0),
            "wins": row.wins,
            "status": e.status,
            "figures": [[tb, value] for tb, value in row.figures],
        }
        if t.format == "mcmahon":
            item["mms"] = row.score
            item["starting_mms"] = starting_mms(e.rank, rules)
        out.append(item)
    return out


def tiebreak_definitions(t: Tournament) -> dict[str, str]:
    """The definitions of the event's tie-breaks, in its order (English; the page shows its own translation)."""
    if t.format in ("single_elimination", "double_elimination"):
        return {}
    return {tb: TIEBREAK_DEFINITIONS[tb] for tb in rules_of(t).tiebreaks}


def h9(
    t: Tournament,
    entrants: Sequence[TournamentEntrant],
    rounds_: Sequence[TournamentRound],
    boards: Sequence[TournamentPairing],
    seats: Sequence[TournamentSeat],
    country: str,
    city: str,
) -> str:
    """The event's results for the European Go Database (app/tournaments/h9.py) over its finished rounds: a
    round still being played is left out. Refused (409) while no round has finished."""
    done = [r for r in rounds_ if r.status == "finished"]
    if t.status == "registration" or not done:
        raise Conflict("no_round_finished", "The export holds finished rounds: none has finished yet.")
    last = max(r.number for r in done)
    rules, people, results, byes, table = _table(t, entrants, boards, seats, last)
    settings = t.game
    komi = settings.get("komi")
    event = H9Event(
        name=t.name,
        city=city,
        country=country.upper(),
        date_start=min(r.starts_at for r in done).date().isoformat(),
        date_end=max(r.starts_at for r in done).date().isoformat(),
        komi=float(komi) if komi is not None else default_komi(settings["rules"]),
        basic_time_minutes=int(settings["time_control"].get("main", 0)) // 60,
    )
    return export_h9(event, rules, people, table, results, byes, last)


def crosstable(
    entrants: Sequence[TournamentEntrant], boards: Sequence[TournamentPairing], seats: Sequence[TournamentSeat], rounds: int
) -> list[dict[str, Any]]:
    """Each player's line: per round the opponent, the colour and the result for them (win, loss, jigo, unplayed,
    pending), or a bye, or an absence."""
    by_seat = {(s.round, s.user_id): s for s in seats}
    board_of = {b.id: b for b in boards}
    lines = []
    for e in entrants:
        cells: list[dict[str, Any] | None] = []
        for n in range(1, rounds + 1):
            seat = by_seat.get((n, e.user_id))
            if seat is None:
                cells.append(None)
            elif seat.kind in ("bye", "absent"):
                cells.append({"kind": seat.kind})
            else:
                b = board_of.get(seat.pairing_id or -1)
                if b is None:
                    cells.append(None)
                    continue
                colour = seat.kind
                opponent = b.white_id if colour == "B" else b.black_id
                cells.append({"kind": "game", "colour": colour, "opponent": opponent, "result": _result_for(b.outcome, colour)})
        lines.append({"id": e.user_id, "name": e.name, "rounds": cells})
    return lines


def _result_for(outcome: str | None, colour: str) -> str:
    if outcome is None:
        return "pending"
    if outcome in ("B", "W"):
        return "win" if outcome == colour else "loss"
    return {"jigo": "jigo", "both_lose": "loss"}.get(outcome, "unplayed")


def to_watch(boards: Sequence[TournamentPairing], games: dict[str, Game]) -> list[dict[str, Any]]:
    """The games still being played, top boards first."""
    live = [
        b
        for b in boards
        if b.game_id and b.outcome is None and games.get(b.game_id) is not None and games[b.game_id].status != "finished"
    ]
    live.sort(key=lambda b: (-b.round, b.board))
    return [{"round": b.round, "board": b.board, "game_id": b.game_id, "url": f"/game/{b.game_id}"} for b in live]


def overdue(rounds: Sequence[TournamentRound], boards: Sequence[TournamentPairing], now: datetime) -> list[dict[str, Any]]:
    """Unfinished games whose round's deadline has passed: the director decides them, the engine's estimate of
    the position beside each (``POST`` the ``estimate`` link)."""
    late = {r.number for r in rounds if r.deadline_at is not None and r.deadline_at <= now}
    return [
        {
            "pairing_id": b.id,
            "round": b.round,
            "board": b.board,
            "game_id": b.game_id,
            "estimate": f"/api/games/{b.game_id}/estimate",
        }
        for b in boards
        if b.round in late and b.outcome is None and b.game_id
    ]


def audit_view(a: TournamentAudit) -> dict[str, Any]:
    return {
        "id": a.id,
        "at": _iso(a.at),
        "actor": a.actor,
        "action": a.action,
        "round": a.round,
        "target_user_id": a.target_user_id,
        "reason": a.reason,
        "details": a.details,
    }
