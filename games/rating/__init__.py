"""Ratings, the way lichess keeps them (its ``modules/rating``): every rule here is plain Python, no Django.

- ``glicko2``: Glicko-2's arithmetic (rating, deviation, volatility; a game as its own rating period; when a
  rating is provisional and shown with a "?").
- ``pools``: the pools a rating counts in, keyed by the board and the speed (``mnk-15x15k5:blitz``).
- ``matchmaking``: quick pairing's rule, whom a waiting seeker may be paired with.
- this module: which games between two players are rated.

The one writer of ratings is ``games.services.ratings`` (a game's ratings noted as it starts, moved as it ends).

A game that ends before each player has moved (fewer than ``MIN_RATED_PLY`` moves, e.g. resigned at once) is not
rated, nor is a game between two players who have already played ``PAIR_GAMES_LIMIT`` rated games of the pool
together in ``PAIR_WINDOW_HOURS``.
"""

from __future__ import annotations

MIN_RATED_PLY = 2
#: rated games between the same two players in one pool within ``PAIR_WINDOW_HOURS``; later ones are
#: played as usual but not rated, so that two accounts cannot pump one of them up by losing on purpose
PAIR_GAMES_LIMIT = 5
PAIR_WINDOW_HOURS = 24
