"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), one rating period per game.

Pure and standard library only. A rating is ``(rating, deviation, volatility)`` on the Glicko scale
(1500 / 350 / 0.06 for a stranger). :func:`update` applies one rating period in which the player met the
given opponents, following the paper's steps 1-8; the volatility is found with the Illinois variant of
regula falsi the paper gives, to ``EPSILON``.

``advantage`` lets a game's handicap and komi enter the expected result: it is added to the player's
rating (on the Glicko scale) when the expected score against that opponent is computed, so a game whose
handicap exactly makes up for the gap between the players is an even bet (see :mod:`app.ratings.handicap`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's conversion between the Glicko scale and its own
DEFAULT_TAU = 0.5  # constrains the volatility's change; Glickman suggests 0.3 to 1.2
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


@dataclass(frozen=True)
class Outcome:
    """One game of the rating period: the opponent before the game, the score (1, 0.5, 0) and the
    player's advantage in rating points (positive when the handicap or komi favours the player)."""

    opponent: Rating
    score: float
    advantage: float = 0.0


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating, advantage: float = 0.0) -> float:
    """The player's expected score against the opponent (the paper's ``E``), with the advantage added."""
    mu = (player.rating + advantage - 1500.0) / SCALE
    return _e(mu, (opponent.rating - 1500.0) / SCALE, opponent.deviation / SCALE)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, outcomes: list[Outcome], tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one rating period with these games (steps 2-8 of the paper)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not outcomes:
        # Step 6 alone: the deviation grows, the rating and volatility stay.
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for o in outcomes:
        mu_j = (o.opponent.rating - 1500.0) / SCALE
        phi_j = o.opponent.deviation / SCALE
        g = _g(phi_j)
        e = _e(mu + o.advantage / SCALE, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (o.score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(mu_new * SCALE + 1500.0, phi_new * SCALE, sigma_new)
