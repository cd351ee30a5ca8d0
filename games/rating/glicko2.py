"""Glicko-2 ratings (Mark Glickman's system, the one lichess uses): pure arithmetic, no Django.

A rating is three numbers: the rating itself, its deviation (how unsure we are of it) and its volatility (how
erratic the player's results are). ``update`` applies one rating period's results, following Glickman's paper
"Example of the Glicko-2 system" step by step (the volatility is found with the Illinois algorithm of its
step 5). ``rate_game`` rates one finished game as its own period, as lichess does, keeping the deviation
between ``MIN_DEVIATION`` and ``MAX_DEVIATION``.

A rating whose deviation is at least ``PROVISIONAL_DEVIATION`` is provisional and shown with a "?".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
#: Glickman's system constant: how far the volatility may move in one period (he suggests 0.3..1.2)
DEFAULT_TAU = 0.75
#: the convergence tolerance of the volatility iteration (the paper's epsilon)
DEFAULT_EPSILON = 1e-6
#: a new player's deviation; no update ever leaves a deviation above it
MAX_DEVIATION = 350.0
#: ``rate_game`` keeps deviations at least this high, so that an established rating can still move
MIN_DEVIATION = 45.0
#: ``rate_game`` keeps volatilities at most this high: a run of upsets rated one game at a time must not make a
#: rating swing without limit
MAX_VOLATILITY = 0.1
#: lichess shows a rating with a "?" while its deviation is at least this (``deviation >= provisionalDeviation``)
PROVISIONAL_DEVIATION = 110.0
#: ratings beyond this (either way) are a bug, not a player's strength; refused so the arithmetic stays finite
RATING_LIMIT = 100_000.0
#: volatilities above this are refused for the same reason (the paper's players have about 0.06)
VOLATILITY_LIMIT = 1.0
#: the factor between the Glicko scale (ratings like 1500) and the Glicko-2 scale (the paper's 173.7178)
SCALE = 173.7178
#: a game's possible scores for the player being rated: loss, draw, win
SCORES = (0.0, 0.5, 1.0)

# The expected score is kept this far from 0 and 1: at exactly 0 or 1 a game carries no information and the
# paper's variance v would divide by zero.
_E_MARGIN = 1e-12
# The volatility iteration converges in a few dozen steps; this bound only guards against a float that cycles.
_MAX_ITERATIONS = 1000
_MIN_VOLATILITY = 1e-9


def is_provisional(deviation: float | None) -> bool:
    """True for a rating still too unsure to show without a "?" (lichess: deviation at least 110); None (no rated
    game yet) too."""
    return deviation is None or deviation >= PROVISIONAL_DEVIATION


class InvalidRating(ValueError):
    """A rating, deviation, volatility, score or system constant the arithmetic cannot take."""


def _check_number(name: str, value: object, low: float, high: float, *, low_open: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidRating(f"{name} must be a number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise InvalidRating(f"{name} must be a finite number, not {value!r}")
    if number > high or number < low or (low_open and number == low):
        bound = f"above {low:g}" if low_open else f"at least {low:g}"
        raise InvalidRating(f"{name} must be {bound} and at most {high:g}, not {number:g}")
    return number


@dataclass(frozen=True, slots=True)
class Glicko:
    """One player's Glicko-2 rating on the Glicko scale (as shown to people: 1500 / 350 / 0.06 at the start)."""

    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY

    def __post_init__(self) -> None:
        # Stored as floats whatever number was given, so equal ratings compare and hash equal.
        object.__setattr__(self, "rating", _check_number("a rating", self.rating, -RATING_LIMIT, RATING_LIMIT))
        object.__setattr__(
            self, "deviation", _check_number("a deviation", self.deviation, 0.0, MAX_DEVIATION, low_open=True)
        )
        object.__setattr__(
            self, "volatility", _check_number("a volatility", self.volatility, 0.0, VOLATILITY_LIMIT, low_open=True)
        )

    @property
    def provisional(self) -> bool:
        """True while the rating is too unsure to be shown without a "?"."""
        return self.deviation >= PROVISIONAL_DEVIATION

    def display(self) -> str:
        """The rating as people see it: whole points, "?" after a provisional one (``"1464"``, ``"1500?"``)."""
        return f"{math.floor(self.rating)}{'?' if self.provisional else ''}"

    # The paper's mu and phi: the rating and deviation on the Glicko-2 scale.
    @property
    def _mu(self) -> float:
        return (self.rating - INITIAL_RATING) / SCALE

    @property
    def _phi(self) -> float:
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _logistic(x: float) -> float:
    # Written both ways so that exp never overflows, whatever the rating gap.
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return min(1.0 - _E_MARGIN, max(_E_MARGIN, _logistic(g_j * (mu - mu_j))))


def expected_score(a: Glicko, b: Glicko) -> float:
    """The score (0..1) ``a`` is expected to make against ``b``.

    Glickman's formula for a game between two rated players: the rating gap is discounted by both players'
    deviations together, so ``expected_score(a, b) + expected_score(b, a) == 1``.
    """
    g = _g(math.hypot(a._phi, b._phi))
    return _logistic(g * (a._mu - b._mu))


def _check_score(score: object) -> float:
    if isinstance(score, bool) or not isinstance(score, int | float) or float(score) not in SCORES:
        raise InvalidRating(f"a game scores 1 (win), 0.5 (draw) or 0 (loss), not {score!r}")
    return float(score)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float, epsilon: float) -> float:
    """Step 5 of the paper: the new volatility, the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < _MAX_ITERATIONS:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= epsilon:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0  # the Illinois step: halve the stale end's value so the bracket keeps shrinking
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Glicko,
    results: list[tuple[Glicko, float]],
    *,
    tau: float = DEFAULT_TAU,
    epsilon: float = DEFAULT_EPSILON,
    max_deviation: float = MAX_DEVIATION,
) -> Glicko:
    """``player``'s rating after one rating period of ``results`` ((opponent, score) pairs, scores 1 / 0.5 / 0).

    Opponents are taken as they were at the start of the period. With no results only the deviation grows (by
    the volatility), as the paper says for a player who did not compete. The new deviation is at most
    ``max_deviation``.
    """
    tau = _check_number("tau", tau, 0.0, 10.0, low_open=True)
    epsilon = _check_number("epsilon", epsilon, 0.0, 1.0, low_open=True)
    max_deviation = _check_number("the deviation ceiling", max_deviation, 0.0, MAX_DEVIATION, low_open=True)
    games: list[tuple[Glicko, float]] = []
    for result in results:
        if not isinstance(result, tuple) or len(result) != 2:
            raise InvalidRating(f"a result is a pair (opponent, score), not {result!r}")
        opponent, score = result
        if not isinstance(opponent, Glicko):
            raise InvalidRating(f"an opponent must be a Glicko rating, not {opponent!r}")
        games.append((opponent, _check_score(score)))
    mu, phi, sigma = player._mu, player._phi, player.volatility
    if not games:
        phi_new = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, min(phi_new * SCALE, max_deviation), sigma)

    # Steps 3 and 4: the estimated variance v of the rating from the games alone, and the improvement delta.
    inv_v = 0.0
    gain = 0.0
    for opponent, score in games:
        g_j = _g(opponent._phi)
        e_j = _expected(mu, opponent._mu, g_j)
        inv_v += g_j * g_j * e_j * (1.0 - e_j)
        gain += g_j * (score - e_j)
    v = 1.0 / inv_v
    delta = v * gain

    sigma_new = _new_volatility(phi, sigma, v, delta, tau, epsilon)
    # Steps 6 to 8: widen the deviation by the new volatility, narrow it by the games, move the rating.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + inv_v)
    mu_new = mu + phi_new * phi_new * gain
    rating = max(-RATING_LIMIT, min(RATING_LIMIT, INITIAL_RATING + SCALE * mu_new))
    # The volatility is clamped into the range a Glicko value holds; the paper's players stay far inside it.
    sigma_new = min(max(sigma_new, _MIN_VOLATILITY), VOLATILITY_LIMIT)
    return Glicko(rating, min(phi_new * SCALE, max_deviation), sigma_new)


def _bounded(rating: Glicko, min_deviation: float, max_volatility: float) -> Glicko:
    return Glicko(rating.rating, max(rating.deviation, min_deviation), min(rating.volatility, max_volatility))


def rate_game(
    a: Glicko,
    b: Glicko,
    score_a: float,
    *,
    tau: float = DEFAULT_TAU,
    min_deviation: float = MIN_DEVIATION,
    max_volatility: float = MAX_VOLATILITY,
) -> tuple[Glicko, Glicko]:
    """Both players' ratings after one game in which ``a`` scored ``score_a`` (1 / 0.5 / 0) against ``b``.

    Each game is its own rating period (as lichess rates): both sides are updated against the other's rating
    from before the game, then each deviation is kept within ``min_deviation`` .. ``MAX_DEVIATION`` and each
    volatility at most ``max_volatility``.
    """
    score = _check_score(score_a)
    min_deviation = _check_number("the deviation floor", min_deviation, 0.0, MAX_DEVIATION, low_open=True)
    max_volatility = _check_number("the volatility ceiling", max_volatility, 0.0, VOLATILITY_LIMIT, low_open=True)
    new_a = update(a, [(b, score)], tau=tau)
    new_b = update(b, [(a, 1.0 - score)], tau=tau)
    return _bounded(new_a, min_deviation, max_volatility), _bounded(new_b, min_deviation, max_volatility)
