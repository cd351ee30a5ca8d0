"""The rules of rated play, for games between two players: pure values, no Django.

Each player has one rating per pool (``games.pools``: the board and the speed, as lichess keys them), kept by
Glicko-2 (``games.glicko2``: rating, deviation, volatility, starting at 1500 / 350 / 0.06). Each finished game
between two people is its own rating period for both (lichess's way). A rating whose deviation is at least
``PROVISIONAL_DEVIATION`` is shown with a "?". A game that ends before each player has moved (fewer than
``MIN_RATED_PLY`` moves, e.g. resigned at once) is not rated, nor is a game between two players who have already
played ``PAIR_GAMES_LIMIT`` rated games of the pool together in ``PAIR_WINDOW_HOURS``.
"""

from __future__ import annotations

from .glicko2 import INITIAL_DEVIATION, INITIAL_RATING, INITIAL_VOLATILITY, PROVISIONAL_DEVIATION

__all__ = [
    "INITIAL_DEVIATION",
    "INITIAL_RATING",
    "INITIAL_VOLATILITY",
    "MIN_RATED_PLY",
    "PAIR_GAMES_LIMIT",
    "PAIR_WINDOW_HOURS",
    "PROVISIONAL_DEVIATION",
    "is_provisional",
]

MIN_RATED_PLY = 2
#: rated games between the same two players in one pool within ``PAIR_WINDOW_HOURS``; later ones are
#: played as usual but not rated, so that two accounts cannot pump one of them up by losing on purpose
PAIR_GAMES_LIMIT = 5
PAIR_WINDOW_HOURS = 24


def is_provisional(deviation: float | None) -> bool:
    """True for a rating still too unsure to show without a "?" (lichess: deviation at least 110)."""
    return deviation is None or deviation >= PROVISIONAL_DEVIATION
