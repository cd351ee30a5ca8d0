"""The game engine: rules of every variant and the computer players. Pure Python, no Django.

    from games.engine import get_variant, get_strategy, IllegalMove
    state = get_variant("ultimate").new_game().play(40)
"""

from __future__ import annotations

from .core import (
    SIDES,
    IllegalMove,
    InvalidCellName,
    PositionError,
    State,
    Variant,
    cell_names,
    shown,
    side_of_ply,
    takeback_keeps,
)
from .grid import MNK, Classic, Four, GridState, GridVariant, NxN
from .levels import LEVELS, difficulty
from .nested import Multi, NestedState, NestedVariant, Ultimate
from .position_strings import parse_position, position_string
from .records import (
    RESULT_TOKENS,
    Record,
    RecordError,
    clean_tag_value,
    is_tag_name,
    read_record,
    read_records,
    result_token,
    tag_line,
    tag_value_problem,
    write_record,
)
from .strategies import STRATEGIES, Strategy, get_strategy
from .variants import VARIANTS, get_variant

__all__ = [
    "SIDES",
    "shown",
    "side_of_ply",
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
    "Classic",
    "Four",
    "NxN",
    "MNK",
    "Ultimate",
    "Multi",
    "PositionError",
    "Record",
    "RecordError",
    "parse_position",
    "position_string",
    "read_record",
    "read_records",
    "result_token",
    "RESULT_TOKENS",
    "clean_tag_value",
    "is_tag_name",
    "tag_line",
    "tag_value_problem",
    "write_record",
]
