"""Elo ratings for games between two players: pure arithmetic, no Django.

Each player has one rating per variant (``games.models.Rating``), starting at ``INITIAL_RATING``. A finished
game between two people moves both ratings by ``k * (score - expected)``: a win scores 1, a draw 0.5, a
loss 0. ``k`` is larger for a player's first ``PROVISIONAL_GAMES`` games in a variant, so a new player's
rating finds its level quickly and then steadies. A game that ends before each player has moved
(fewer than ``MIN_RATED_PLY`` moves, e.g. resigned at once) is not rated, nor is a game between two players
who have already played ``PAIR_GAMES_LIMIT`` rated games of the variant together in ``PAIR_WINDOW_HOURS``.
"""

from __future__ import annotations

INITIAL_RATING = 1500.0
PROVISIONAL_GAMES = 20
K_PROVISIONAL = 40.0
K_ESTABLISHED = 20.0
MIN_RATED_PLY = 2
#: rated games between the same two players in one variant within ``PAIR_WINDOW_HOURS``; later ones are
#: played as usual but not rated, so that two accounts cannot pump one of them up by losing on purpose
PAIR_GAMES_LIMIT = 5
PAIR_WINDOW_HOURS = 24


def expected_score(rating: float, opponent: float) -> float:
    """The score (0..1) a player rated ``rating`` is expected to make against one rated ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def k_factor(games: int) -> float:
    """How far one game moves a rating, by the number of rated games played before it."""
    return K_PROVISIONAL if games < PROVISIONAL_GAMES else K_ESTABLISHED


def new_rating(rating: float, opponent: float, score: float, games: int) -> float:
    """The rating after a game with ``score`` (1 win, 0.5 draw, 0 loss) against ``opponent``."""
    if score not in (0.0, 0.5, 1.0):
        raise ValueError(f"a game scores 0, 0.5 or 1, not {score!r}")
    return rating + k_factor(games) * (score - expected_score(rating, opponent))
