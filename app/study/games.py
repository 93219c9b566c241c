"""A stored game for an analysis board: its setup and rules, its players, its moves (the main line)."""

from __future__ import annotations

from dataclasses import fields

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Forbidden, NotFound
from app.games.config import GameConfig
from app.rules import PRESETS
from app.store.repositories import games
from app.store.repositories.games import GameWithPlayers
from app.study.jobs import Line
from app.study.tree import Setup

FINISHED = "finished"


def setup_of(config: GameConfig) -> Setup:
    """The starting position and rules of a game, as a tree's setup (parameters that differ from the preset
    of the same name as ``rules_params``)."""
    rules = config.rules
    preset = PRESETS.get(rules.name, PRESETS["chinese"])
    params = tuple(
        (f.name, getattr(rules, f.name))
        for f in fields(rules)
        if f.name not in ("name", "komi") and getattr(rules, f.name) != getattr(preset, f.name)
    )
    points = tuple((p[0], p[1]) for p in config.handicap_points)
    return Setup(size=config.size, rules=preset.name, komi=rules.komi, rules_params=params, handicap=len(points), black=points)


async def game_history(db: AsyncSession, game_id: str) -> tuple[GameWithPlayers, Setup, Line]:
    """A stored game (with its players), its setup and the moves played so far (NotFound for no such game)."""
    row = await games.get_with_players(db, game_id)
    if row is None:
        raise NotFound("game_not_found", "No such game.")
    line: Line = [(m.color, None if m.x is None or m.y is None else (m.x, m.y)) for m in await games.moves(db, game_id)]
    return row, setup_of(GameConfig.from_dict(row.game.config)), line


async def game_line(db: AsyncSession, game_id: str, viewer_id: int | None) -> tuple[Setup, dict[str, str], Line]:
    """A game's setup, information and moves. A player of an unfinished game may not take it into an
    analysis board."""
    row, setup, line = await game_history(db, game_id)
    game = row.game
    if game.status != FINISHED and viewer_id is not None and viewer_id in (game.black_id, game.white_id):
        raise Forbidden("own_live_game", "Your own game can be analysed once it has ended.")
    info = {
        "black": row.black.name,
        "white": row.white.name,
        "result": game.result or "",
        "date": game.started_at.date().isoformat(),
        "game_id": game.id,
    }
    return setup, info, line
