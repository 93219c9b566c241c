"""Starting a game: the one path shared by accepted challenges (bots' included), automatch pairs, practice boards,
rematches and any later way a game starts.

Two steps, one on each side of the caller's commit:

- ``create_game`` (or ``create_rematch``) adds the game inside the caller's transaction (the caller commits,
  together with whatever closes the challenge or the seeks, or with the event that names the rematch). The
  row holds the game's first deadline (``turn_deadline``, as its room will start the clock), so the deadline
  is durable from the moment the row is. ``create_game`` builds the whole configuration with the game's own
  rules (``game_settings.py``: what the game cannot play is refused with 422 before anything is written).
- ``game_started``, after the commit, registers that deadline with the hub, so the deadline loop of whichever
  instance claims it ends the game on time even if nobody ever opens it, and tells the lobby.

Should the registration be lost (the process dies between the two steps, or the hub cannot be reached then),
the rooms' sweep finds the game in the database once its first deadline has passed
(``RoomManager.rearm_overdue``): a new game ends on time however it started, at worst a sweep late.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.games.authority import GameAuthority
from app.games.config import GameConfig, parse_config
from app.games.live.channel import deadline_key
from app.lobby import my_games
from app.lobby.game_settings import build_config, game_columns
from app.lobby.live.broadcaster import LobbyBroadcaster
from app.lobby.messages import GameStarted
from app.lobby.views import NO_RANKS, Ranks, game_summary, game_url, player_ids
from app.moderation.blocks import check_not_blocked
from app.moderation.standing import check_may_play
from app.ratings.lookup import display_ranks
from app.store.models import Game
from app.store.repositories import correspondence, games, users
from app.store.repositories.games import GameWithPlayers
from app.transport.hub import Hub

log = logging.getLogger(__name__)


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
    """``komi`` None is the preset's; a practice game has one user on both sides. A banned or suspended player,
    or two players one of whom blocked the other, get no game, however it would start (403)."""
    await check_may_start(session, black_id, white_id)
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
    return _first_turn(game)


async def create_rematch(session: AsyncSession, source_id: str, game_id: str) -> Game:
    """The rematch ``game_id`` of ``source_id`` (its stored settings, colours swapped), added in ``session``: the
    room commits it together with the ``rematch`` event that names it. Refused (403) as ``create_game`` refuses:
    a sanction or a block made since the rematch was offered holds when it is accepted."""
    source = await session.get(Game, source_id)
    if source is not None:
        await check_may_start(session, source.black_id, source.white_id)
    return _first_turn(await games.add_rematch(session, source_id, game_id))


async def check_may_start(session: AsyncSession, black_id: int, white_id: int) -> None:
    """What every new game checks at the moment it is added, in the transaction that adds it: neither player is
    banned or suspended, and neither blocked the other. Both players' rows are locked first, as blocking locks
    them (app/moderation/blocks.py), so a block committed meanwhile is seen here and one made later comes after
    the game; whichever instance starts the game, it reads the database as it is now."""
    await users.lock(session, [black_id, white_id])
    await check_may_play(session, {black_id, white_id})
    if black_id != white_id:
        await check_not_blocked(session, black_id, white_id)


def _first_turn(game: Game) -> Game:
    """Whose turn and the first deadline, stored with the new row exactly as the game's room will start it (from
    the stored configuration and ``started_at``): the lobby's "your turn" list reads them, ``game_started`` hands
    the deadline to the hub, and the rooms' sweep finds it there should that have been lost."""
    turn = my_games.turn_columns(GameAuthority(GameConfig.from_dict(game.config), game.started_at.timestamp()))
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


async def rematch_started(
    sessionmaker: async_sessionmaker[AsyncSession], hub: Hub, lobby: LobbyBroadcaster, game_id: str, rematch_of: str
) -> None:
    """``game_started`` for a rematch, once the room has committed the new game with its ``rematch`` event."""
    async with sessionmaker() as session:
        row = await games.get_with_players(session, game_id)
        shown = await display_ranks(session, player_ids([row])) if row is not None else {}
    if row is not None:
        await game_started(hub, lobby, row, ranks=shown, rematch_of=rematch_of)


async def game_started(hub: Hub, lobby: LobbyBroadcaster, row: GameWithPlayers, ranks: Ranks = NO_RANKS, **fields: Any) -> None:
    """After the commit that added the game, whichever way it started: its first deadline to the hub, then
    ``game_started`` for every lobby socket (``ranks``: shown beside the names; ``fields`` adds e.g.
    ``challenge_id``). A practice game (one user on both sides) is never announced."""
    await arm_first_deadline(hub, row.game)
    if row.black.id != row.white.id:
        await _announce(lobby, row, ranks, **fields)


async def arm_first_deadline(hub: Hub, game: Game) -> None:
    """Register the deadline the new row holds, at the row's version (the hub never lets it replace a deadline a
    room computed at a later one). Should the hub fail now, the rooms' sweep registers it from the row later."""
    if game.turn_deadline is None:  # no clock runs (untimed, or the player to move is on vacation)
        return
    try:
        await hub.set_deadline(deadline_key(game.id), game.turn_deadline, game.version)
    except Exception:
        log.warning("game %s: its first deadline did not reach the hub; the rooms' sweep will find it", game.id, exc_info=True)


async def _announce(lobby: LobbyBroadcaster, row: GameWithPlayers, ranks: Ranks, **fields: Any) -> None:
    game_id = row.game.id
    await lobby.publish(GameStarted(**fields, game_id=game_id, url=game_url(game_id), game=game_summary(row, ranks=ranks)).wire())
    await lobby.publish(my_games.message(my_games.from_row(row, ranks)))
