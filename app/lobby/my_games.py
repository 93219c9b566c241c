"""A player's own games for the lobby's "your turn" list: one entry shape, built from the stored rows (the lobby
snapshot, one query for all of them) and from a live room after each commit (the ``my_game`` message).

``to_move`` and ``deadline`` (the moment the game next acts on its own: a flag, the scoring timeout; None when
no clock runs, e.g. the player to move is on vacation) are those of the game's last commit; the client sorts
the list by them: the games where it is the player's turn first, the nearest deadline first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.lobby.messages import MyGame
from app.lobby.views import NO_RANKS, Ranks, game_url, player_view
from app.store.repositories.games import GameWithPlayers
from app.transport.messages import to_users

if TYPE_CHECKING:
    from app.games.authority import GameAuthority


def entry(
    *,
    game_id: str,
    v: int,
    board_size: int,
    time_control: dict[str, Any],
    players: dict[str, Any],
    status: str,
    move_count: int,
    to_move: str | None,
    deadline: float | None,
    result: str | None,
) -> dict[str, Any]:
    return {
        "id": game_id,
        "url": game_url(game_id),
        "v": v,
        "board_size": board_size,
        "time_control": time_control,
        "players": players,
        "status": status,
        "move_count": move_count,
        "to_move": to_move,
        "deadline": deadline,
        "result": result,
    }


def from_row(row: GameWithPlayers, ranks: Ranks = NO_RANKS) -> dict[str, Any]:
    game = row.game
    to_move = game.to_move
    if to_move is None and game.status == "playing" and game.move_count == 0:  # stored before turns were kept
        to_move = "W" if game.handicap else "B"
    return entry(
        game_id=game.id,
        v=game.version,
        board_size=game.board_size,
        time_control=game.time_control,
        players={"B": player_view(row.black, ranks), "W": player_view(row.white, ranks)},
        status=game.status,
        move_count=game.move_count,
        to_move=to_move,
        deadline=game.turn_deadline,
        result=game.result,
    )


def turn_columns(auth: GameAuthority) -> dict[str, Any]:
    """The ``games`` columns ``to_move`` and ``turn_deadline`` as the authority stands: the one place they are
    computed, for a new game's row (app/lobby/starting.py) and after every commit (app/games/live/rows.py)."""
    playing = auth.phase in ("playing", "adjourned")
    return {"to_move": auth.game.to_move if playing else None, "turn_deadline": auth.deadline()}


def live_facts(auth: GameAuthority) -> dict[str, Any]:
    """What a commit changes in a game's entry, as the authority stands (the rest is fixed for the game)."""
    columns = turn_columns(auth)
    return {
        "status": auth.phase,
        "move_count": len(auth.game.moves),
        "result": None if auth.result is None else auth.result.text,
        "to_move": columns["to_move"],
        "deadline": columns["turn_deadline"],
    }


def from_room(
    game_id: str, v: int, auth: GameAuthority, players: dict[str, Any], facts: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The entry of a live room's game; ``facts``: ``live_facts`` read earlier (default: now)."""
    return entry(
        game_id=game_id,
        v=v,
        board_size=auth.config.size,
        time_control=auth.config.time_control.to_dict(),
        players=players,
        **(live_facts(auth) if facts is None else facts),
    )


def message(game: dict[str, Any]) -> dict[str, Any]:
    """The lobby message for both players (``_to``: only their sockets)."""
    ids = sorted({game["players"][c]["id"] for c in ("B", "W")})
    return to_users(MyGame(game=game), ids)


def sort_key(user_id: int) -> Callable[[dict[str, Any]], tuple[bool, bool, float]]:
    """Your turn first, then by the nearest deadline (none last)."""

    def key(game: dict[str, Any]) -> tuple[bool, bool, float]:
        mine = game["to_move"] is not None and game["players"][game["to_move"]]["id"] == user_id
        deadline = game["deadline"]
        return (not mine, deadline is None, deadline or 0.0)

    return key
