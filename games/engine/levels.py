"""Difficulty levels offered to people: ``difficulty(variant, level)`` -> a configured strategy.

- ``easy``: ``alphabeta`` at depth 1 (takes a win when one is there, never looks at the
  opponent's reply, so it does not block): beatable on every variant.
- ``medium``: ``threats`` on grid variants (wins, blocks, builds lines); ``alphabeta`` depth 2
  with the weighted heuristic on nested variants.
- ``hard``: the strongest play within about a second per move on a 2-core machine:

  * grid boards of at most 16 cells (classic, four, nxn 3-4, small mnk): ``perfect``;
  * n x n with n in a row, n >= 5 (nxn, and mnk with rows == cols == k): ``pairing``, which
    can never lose;
  * other mnk boards: ``alphabeta`` depth 3, weighted (it beats ``threats`` and answers in
    < 0.3 s even on 19 x 19, which it searches near the stones only);
  * ultimate and multi: ``mcts`` with 0.9 seconds.

``seed`` (optional) is handed to the strategies that take one, for reproducible games.
"""

from __future__ import annotations

from .core import Variant, shown
from .grid import GridVariant
from .strategies import Strategy, get_strategy
from .strategies.pairing import PairingStrategy
from .strategies.perfect import PerfectStrategy

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
HARD_SECONDS = 0.9


class UnknownLevel(ValueError):
    """A level that is not one of ``LEVELS``."""


def difficulty(variant: Variant, level: str, seed: int | None = None) -> Strategy:
    """The strategy that plays ``variant`` at ``level`` (one of ``LEVELS``)."""
    if level not in LEVELS:
        raise UnknownLevel(f"unknown level {shown(level)}; choose one of {', '.join(LEVELS)}")
    grid = isinstance(variant, GridVariant)
    if level == "easy":
        return get_strategy("alphabeta", depth=1, seed=seed)
    if level == "medium":
        if grid:
            return get_strategy("threats")
        return get_strategy("alphabeta", depth=2, heuristic="weighted", seed=seed)
    if grid:
        if PerfectStrategy().supports(variant):
            return get_strategy("perfect")
        if PairingStrategy().supports(variant):
            return get_strategy("pairing")
        return get_strategy("alphabeta", depth=3, heuristic="weighted", seed=seed)
    return get_strategy("mcts", seconds=HARD_SECONDS, seed=seed)
