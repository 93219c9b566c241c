"""The JSON shapes of challenges and games, shared by the REST API and the lobby socket."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.ratings.verdict import verdict
from app.store.models import Challenge, Game, Move, User
from app.store.repositories.games import GameWithPlayers

SpectatorCount = Callable[[str], int]
Ranks = Mapping[int, str | None]  # user id -> the rank shown beside the name ("6k", "6k?"), None for guests
NO_RANKS: Ranks = {}


def no_spectators(_game_id: str) -> int:
    return 0


def game_url(game_id: str) -> str:
    return f"/#/game/{game_id}"


def invite_url(challenge: Challenge) -> str:
    return f"/#/challenge/{challenge.id}/{challenge.token}"


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def user_view(user: User, ranks: Ranks = NO_RANKS) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "guest": user.is_guest, "bot": user.is_bot, "rank": ranks.get(user.id)}


def player_view(user: User, ranks: Ranks = NO_RANKS) -> dict[str, Any]:
    """A player wherever a name is shown: bots are marked, and the rank is beside the name."""
    return {"id": user.id, "name": user.name, "bot": bool(user.is_bot), "rank": ranks.get(user.id)}


@dataclass(frozen=True)
class Person:
    """A user as a challenge names them: the name, whether a bot, and the rank shown beside the name."""

    name: str
    bot: bool
    rank: str | None


People = Mapping[int, Person]  # user id -> the person; made with their ranks by app/lobby/challenge_views.py

UNKNOWN = Person("?", False, None)


def person(people: People, user_id: int | None) -> dict[str, Any] | None:
    if user_id is None:
        return None
    found = people.get(user_id, UNKNOWN)
    return {"id": user_id, "name": found.name, "bot": found.bot, "rank": found.rank}


def challenge_people(challenge: Challenge) -> set[int]:
    """The users a challenge view names."""
    return {challenge.creator_id} | ({challenge.opponent_id} if challenge.opponent_id else set())


def challenge_view(challenge: Challenge, people: People, *, with_token: bool = False) -> dict[str, Any]:
    """A challenge with the people it names as ``people`` has them, ranks included (the views of REST and the
    lobby socket are built by app/lobby/challenge_views.py, which loads the people with their ranks)."""
    view: dict[str, Any] = {
        "id": challenge.id,
        "creator": person(people, challenge.creator_id),
        "opponent": person(people, challenge.opponent_id),
        "board_size": challenge.board_size,
        "rules": challenge.rules,
        "komi": challenge.komi,
        "handicap": challenge.handicap,
        "color": challenge.color,
        "time_control": challenge.time_control,
        "rated": challenge.rated,
        "private": challenge.private,
        "min_rank": challenge.min_rank,
        "max_rank": challenge.max_rank,
        "auto_handicap": challenge.auto_handicap,
        "status": challenge.status,
        "decline_reason": challenge.decline_reason,
        "game_id": challenge.game_id,
        "created_at": _time(challenge.created_at),
    }
    if with_token and challenge.token:
        view["token"] = challenge.token
        view["invite_url"] = invite_url(challenge)
    return view


def game_summary(row: GameWithPlayers, spectators: SpectatorCount = no_spectators, ranks: Ranks = NO_RANKS) -> dict[str, Any]:
    game: Game = row.game
    counts = verdict(row)  # whether the game counts for the ratings (app/ratings/verdict.py), and why not
    return {
        "id": game.id,
        "url": game_url(game.id),
        "board_size": game.board_size,
        "rules": game.rules,
        "komi": game.komi,
        "handicap": game.handicap,
        "time_control": game.time_control,
        "rated": counts.rated,
        "unrated_reason": counts.reason,
        "status": game.status,
        "result": game.result,
        "ended_by": game.ended_by,
        "move_count": game.move_count,
        "players": {"B": player_view(row.black, ranks), "W": player_view(row.white, ranks)},
        "spectators": spectators(game.id) if game.status != "finished" else 0,
        "started_at": _time(game.started_at),
        "ended_at": _time(game.ended_at),
    }


def game_detail(
    row: GameWithPlayers, moves: list[Move], spectators: SpectatorCount = no_spectators, ranks: Ranks = NO_RANKS
) -> dict[str, Any]:
    view = game_summary(row, spectators, ranks)
    view["rules_params"] = row.game.rules_params
    view["version"] = row.game.version
    view["result_detail"] = (row.game.state or {}).get("result")  # RESULT of docs/protocol.md, or None
    view["moves"] = [
        {
            "number": move.number,
            "color": move.color,
            "p": [move.x, move.y] if move.x is not None and move.y is not None else None,
            "time_taken": move.time_taken,
        }
        for move in moves
    ]
    return view


def player_ids(rows: list[GameWithPlayers]) -> set[int]:
    return {uid for row in rows for uid in (row.game.black_id, row.game.white_id)}
