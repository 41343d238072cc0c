"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012), written from the published algorithm:
each finished game between two people is one rating period for each of them.

A rating is (rating, RD, volatility) on the Glicko scale: a new player starts at 1500, RD 350, volatility 0.06.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's conversion between the Glicko scale and its own."""
TAU = 0.5
"""The system constant that limits how fast the volatility changes (Glickman suggests 0.3 to 1.2)."""
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after a rating period of `results`: (opponent's rating before it, score 1, 0.5 or 0).
    With no result the RD grows as step 6 of the algorithm says (the rating and volatility stay)."""
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.rd / SCALE, player.volatility
    if not results:
        return Rating(player.rating, min(350.0, math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    opponents = [((o.rating - 1500.0) / SCALE, o.rd / SCALE, score) for o, score in results]
    v_inverse = 0.0
    delta_sum = 0.0
    for mu_j, phi_j, score in opponents:
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * delta_sum
    sigma_new = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(SCALE * mu_new + 1500.0, SCALE * phi_new, sigma_new)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

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
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def game(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them; `score` is the first player's (1 win, 0.5 draw, 0)."""
    return rate(first, [(second, score)]), rate(second, [(first, 1.0 - score)])
