"""The adaptive sparring partner (``Kata-Sparring``): a KataGo house bot that aims each game at its opponent.

At a game's first move it reads the opponent's rank and its own recent results against them
(``GET /api/players/{name}`` with its token: the ``head_to_head`` part is from its side) and chooses the rank
its policy rule aims at: the opponent's own, moved ``RESULT_SHIFT`` ranks weaker for each recent game it won
and as much stronger for each it lost (the older the game, the less it counts), so that a player who keeps
winning meets a stronger partner and one who keeps losing a weaker one, until the games are close (KaTrain
#175). Beyond the policy rule's reach (a player stronger than ``POLICY_KYU``) it plays KataGo's first choice, and
beyond the policy's own strength it searches.

Its strength reaches from ``WEAKEST_KYU`` to its search (``SEARCH_KYU``, the network's full strength here).
Beyond that reach the rest is offered as a handicap (``offer``): a player who keeps losing to its weakest is
offered stones (the rank gap left, through ``app/ratings/handicap.suggest``: a stone is worth more ranks on a
small board), and a player stronger than its search gives them. ``GET /api/players/Kata-Sparring/handicap``
answers with that offer for the player asking (the lobby's card shows it and challenges with it). Whatever
handicap a game has, the partner's aim in it discounts what the handicap is worth (``aim``'s ``advantage``),
so that a game the player chose to give or take stones in is still aimed to be close.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.ratings.handicap import black_advantage_ranks, suggest
from app.ratings.ranks import DAN_START, parse_rank

RESULT_SHIFT = 2.0  # ranks the partner moves for the last game's result
FADE = 0.7  # each older game counts this much of the one after it
RECENT = 6  # games of the head-to-head that count
POLICY_KYU = -2.0  # 3 dan: stronger players get the network's first choice...
SEARCH_KYU = -4.0  # ... and from 5 dan its search
WEAKEST_KYU = 30.0  # the weakest it plays: a player it keeps beating even so is offered stones
HANDICAP_KOMI = 0.5  # a komi this low (or lower) is a handicap, as app/ratings/handicap suggests one


@dataclass(frozen=True)
class Aim:
    kyu: float | None  # the policy rule's rank (None: the network's first choice)
    search: bool = False

    def describe(self) -> str:
        if self.search:
            return "KataGo's search"
        if self.kyu is None:
            return "the network's first choice"
        return f"{self.kyu:.1f} kyu" if self.kyu > 0 else f"{1 - self.kyu:.1f} dan"


def kyu_of(rank: str) -> float:
    """A rank as shown (``12k``, ``12k?``, ``3d``) as a kyu number: 1d is 0, 3d is -2 (ValueError otherwise)."""
    return DAN_START + 0.5 - parse_rank(rank.rstrip("?"))


def outcomes(profile: dict[str, Any]) -> list[float]:
    """The partner's scores in its recent finished games against this player, newest first (1 won, 0 lost)."""
    head = profile.get("head_to_head") or {}
    me = (head.get("opponent") or {}).get("id")
    out = []
    for game in head.get("games") or []:
        result = str(game.get("result") or "")  # "B+R", "W+3.5", "Draw" (a "Void" game does not count)
        if game.get("status") != "finished" or not (result[:2] in ("B+", "W+") or result == "Draw"):
            continue
        players = game.get("players") or {}
        colour = "B" if (players.get("B") or {}).get("id") == me else "W"
        out.append(0.5 if result == "Draw" else 1.0 if result[0] == colour else 0.0)
    return out[:RECENT]


def wanted(opponent_kyu: float, scores: list[float]) -> float:
    """The rank an even game against a player of ``opponent_kyu`` wants after the partner's ``scores``."""
    return opponent_kyu + sum((score - 0.5) * 2 * RESULT_SHIFT * FADE**age for age, score in enumerate(scores[:RECENT]))


def aim(opponent_kyu: float, scores: list[float], advantage: float = 0.0) -> Aim:
    """The rank to aim at against a player of ``opponent_kyu`` after the partner's ``scores`` (newest first), in
    a game whose handicap is worth ``advantage`` ranks to the opponent (negative: to the partner)."""
    kyu = min(WEAKEST_KYU, wanted(opponent_kyu, scores) - advantage)
    if kyu <= SEARCH_KYU:
        return Aim(None, search=True)
    if kyu <= POLICY_KYU:
        return Aim(None)
    return Aim(kyu)


def advantage(handicap_stones: int, komi: float, size: int, opponent_black: bool) -> float:
    """What a handicap game's stones and komi are worth to the partner's opponent, in ranks (0 in an even game:
    the preset's usual komi is no handicap)."""
    if handicap_stones < 2 and komi > HANDICAP_KOMI:
        return 0.0
    ranks = black_advantage_ranks(handicap_stones, komi, size)
    return ranks if opponent_black else -ranks


@dataclass(frozen=True)
class Offer:
    """The game the partner offers a player: the handicap and komi (None: the rules' usual komi), whether the
    player takes Black (None: either, an even game), and the aim it would then play at."""

    handicap: int
    komi: float | None
    player_black: bool | None
    aim: Aim


def offer(opponent_kyu: float, scores: list[float], size: int) -> Offer:
    """The handicap that covers what the partner's strength cannot reach against this player on this board."""
    want = wanted(opponent_kyu, scores)
    if want > WEAKEST_KYU:  # weaker than the partner can play: the player takes the rest as Black
        gap, player_black = want - WEAKEST_KYU, True
    elif want < SEARCH_KYU:  # stronger than its search: the player gives the rest as White
        gap, player_black = SEARCH_KYU - want, False
    else:
        return Offer(0, None, None, aim(opponent_kyu, scores))
    suggestion = suggest(gap, size)
    if suggestion.komi is None:  # less than half a rank on this board: an even game
        return Offer(0, None, None, aim(opponent_kyu, scores))
    worth = advantage(suggestion.handicap, suggestion.komi, size, player_black)
    return Offer(suggestion.handicap, suggestion.komi, player_black, aim(opponent_kyu, scores, worth))
