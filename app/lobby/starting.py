"""Starting a game: the one path shared by accepted challenges, automatch pairs and practice boards.

``create_game`` builds the game's whole configuration with the game's own rules (``game_settings.py``: what
the game cannot play is refused with 422 before anything is written) and adds the game inside the caller's
transaction (the caller commits, together with whatever closes the challenge or the seeks);
``announce_game_started`` tells the lobby after the commit.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.games.authority import GameAuthority
from app.games.config import GameConfig, parse_config
from app.live.lobby import LobbyBroadcaster
from app.lobby import my_games
from app.lobby.game_settings import build_config, game_columns
from app.lobby.views import NO_RANKS, Ranks, game_summary, game_url, player_ids
from app.moderation.standing import check_may_play
from app.ratings.lookup import display_ranks
from app.store.models import Game
from app.store.repositories import correspondence, games
from app.store.repositories.games import GameWithPlayers
from app.protocol import GameStarted


async def create_game(
    session: AsyncSession,
    *,
    board_size: int,
    rules: str,
    komi: float | None,
    handicap: int,
    time_control: dict[str, Any] | str | None,
    rated: bool,
    black_id: int,
    white_id: int,
    practice: bool = False,
) -> Game:
    """``komi`` None is the preset's; a practice game has one user on both sides. A banned or suspended player
    gets no game, however it would start (403)."""
    await check_may_play(session, {black_id, white_id})
    config = build_config(board_size=board_size, rules=rules, komi=komi, handicap=handicap, time_control=time_control)
    if config.time_control.correspondence:
        config = await with_players_choices(session, config, black_id, white_id)
    rules_params: dict[str, Any] = {"preset": rules, "practice": True} if practice else {"preset": rules}
    game = await games.add(
        session,
        **game_columns(config),
        rules_params=rules_params,
        rated=rated,
        black_id=black_id,
        white_id=white_id,
    )
    # Whose turn and the first deadline, as the game's room will start it (for the lobby's "your turn" list).
    turn = my_games.turn_columns(GameAuthority(config, game.started_at.timestamp()))
    game.to_move, game.turn_deadline = turn["to_move"], turn["turn_deadline"]
    return game


async def with_players_choices(session: AsyncSession, config: GameConfig, black_id: int, white_id: int) -> GameConfig:
    """A correspondence game keeps each player's weekend pause (in their time zone) and vacation as they are now."""
    rows = await correspondence.get_many(session, [black_id, white_id])
    weekends: dict[str, str] = {}
    away: list[str] = []
    for color, user_id in (("B", black_id), ("W", white_id)):
        row = rows.get(user_id)
        if row is not None and row.weekend_pause:
            weekends[color] = row.time_zone
        if row is not None and row.vacation_since is not None:
            away.append(color)
    return parse_config({**config.to_dict(), "weekends": weekends, "away": away})


async def announce_rematch(
    sessionmaker: async_sessionmaker[AsyncSession], lobby: LobbyBroadcaster, game_id: str, rematch_of: str
) -> None:
    """``game_started`` for a rematch, once the room has committed the new game with its ``rematch`` event."""
    async with sessionmaker() as session:
        row = await games.get_with_players(session, game_id)
        shown = await display_ranks(session, player_ids([row])) if row is not None else {}
    if row is not None:
        await announce_game_started(lobby, row, ranks=shown, rematch_of=rematch_of)


async def announce_game_started(lobby: LobbyBroadcaster, row: GameWithPlayers, ranks: Ranks = NO_RANKS, **fields: Any) -> None:
    """``game_started`` for every lobby socket (``ranks``: shown beside the names; ``fields`` adds e.g.
    ``challenge_id``)."""
    game_id = row.game.id
    await lobby.publish(GameStarted(**fields, game_id=game_id, url=game_url(game_id), game=game_summary(row, ranks=ranks)).wire())
    if row.black.id != row.white.id:
        await lobby.publish(my_games.message(my_games.from_row(row, ranks)))
