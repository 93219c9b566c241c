"""The adaptive sparring partner (``Kata-Sparring``): a KataGo house bot that aims each game at its opponent.

At a game's first move it reads the opponent's rank and its own recent results against them
(``GET /api/players/{name}`` with its token: the ``head_to_head`` part is from its side) and chooses the rank
its policy rule aims at: the opponent's own, moved ``RESULT_SHIFT`` ranks weaker for each recent game it won
and as much stronger for each it lost (the older the game, the less it counts), so that a player who keeps
winning meets a stronger partner and one who keeps losing a weaker one, until the games are close (KaTrain
#175). Beyond the policy rule's reach (a player stronger than ``POLICY_KYU``) it plays KataGo's first choice, and
beyond the policy's own strength it searches.

The handicap stays the challenger's: the lobby suggests one from the two ranks (``GET /api/players/{name}/handicap``);
the partner adapts its strength within the game it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.ratings.ranks import DAN_START, parse_rank

RESULT_SHIFT = 2.0  # ranks the partner moves for the last game's result
FADE = 0.7  # each older game counts this much of the one after it
RECENT = 6  # games of the head-to-head that count
POLICY_KYU = -2.0  # 3 dan: stronger players get the network's first choice...
SEARCH_KYU = -4.0  # ... and from 5 dan its search
WEAKEST_KYU = 30.0


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


def aim(opponent_kyu: float, scores: list[float]) -> Aim:
    """The rank to aim at against a player of ``opponent_kyu`` after the partner's ``scores`` (newest first)."""
    shift = sum((score - 0.5) * 2 * RESULT_SHIFT * FADE**age for age, score in enumerate(scores[:RECENT]))
    kyu = min(WEAKEST_KYU, opponent_kyu + shift)
    if kyu <= SEARCH_KYU:
        return Aim(None, search=True)
    if kyu <= POLICY_KYU:
        return Aim(None)
    return Aim(kyu)
