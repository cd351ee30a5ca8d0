"""``random``: a uniformly random legal move; seedable (seed 002's computer players)."""

from __future__ import annotations

import random
from typing import Any

from ..core import State
from .base import Strategy, register


@register
class RandomStrategy(Strategy):
    name = "random"
    option_spec = {"seed": (int, None)}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rng = random.Random(self.options["seed"])

    def _choose(self, state: State) -> int:
        return self.rng.choice(state.legal_moves())
