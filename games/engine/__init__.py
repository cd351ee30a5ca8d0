"""The game engine: rules of every variant and the computer players. Pure Python, no Django.

    from games.engine import get_variant, get_strategy, IllegalMove
    state = get_variant("ultimate").new_game().play(40)
"""

from __future__ import annotations

from typing import Any

from .core import SIDES, IllegalMove, InvalidCellName, State, Variant, cell_names, shown, takeback_keeps
from .grid import MNK, Classic, Four, GridState, GridVariant, NxN
from .levels import LEVELS, difficulty
from .nested import Multi, NestedState, NestedVariant, Ultimate
from .strategies import STRATEGIES, Strategy, get_strategy

VARIANTS: dict[str, type[Variant]] = {cls.key: cls for cls in (Classic, Four, NxN, MNK, Ultimate, Multi)}


def get_variant(key: str, **options: Any) -> Variant:
    """The variant ``key`` with ``options`` (see RULES.md); ValueError names what is wrong."""
    try:
        cls = VARIANTS[key]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {shown(key)}; choose one of {', '.join(VARIANTS)}") from None
    return cls(**options)


__all__ = [
    "SIDES",
    "shown",
    "takeback_keeps",
    "STRATEGIES",
    "Strategy",
    "get_strategy",
    "VARIANTS",
    "GridState",
    "GridVariant",
    "IllegalMove",
    "InvalidCellName",
    "cell_names",
    "LEVELS",
    "NestedState",
    "NestedVariant",
    "State",
    "Variant",
    "difficulty",
    "get_variant",
]
