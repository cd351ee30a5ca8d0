"""Computer players. A registry maps a name to a strategy class (seed 004's plugins).

    strategy = get_strategy("alphabeta", depth=4)
    strategy.supports(variant)   # honest
    strategy.choose(state)       # one legal move; ValueError if the variant is not supported
"""

from __future__ import annotations

# Importing the modules registers the strategies (each imports the registry from .base itself).
from . import (  # noqa: F401
    alphabeta,
    gomoku,
    mcts,
    openings,
    pairing,
    perfect,
    random_player,
    ring,
    threats,
)
from .base import STRATEGIES, Strategy, get_strategy, register

__all__ = ["STRATEGIES", "Strategy", "get_strategy", "register"]
