"""Position strings: a compact, URL-safe text for any position of any variant (docs/records.md), and back.

``position_string(state)`` writes it; ``parse_position(text)`` rebuilds the engine's state, with the same legal
moves, side to move and result; ``PositionError`` (a ValueError) says what is wrong with a string.
"""

from __future__ import annotations

import re
from typing import Any

from .core import PositionError, State, Variant, shown
from .nested import NestedState
from .variants import VARIANTS, get_variant

#: the longest position string read (a 19 x 19 board takes well under this)
MAX_POSITION_CHARS = 1000

#: POSITION_ORDER[nested]: the moves in the order a position string lists them (rows from the top, as drawn)
_NESTED_ORDER = tuple(
    9 * (3 * (r // 3) + c // 3) + 3 * (r % 3) + c % 3 for r in range(9) for c in range(9)
)
_ROW = re.compile(r"[1-9][0-9]*|[xo]")
_POSITION_CHARS = re.compile(r"[a-z0-9._-]*")


def _numbered(spec: dict[str, Any]) -> dict[str, Any]:
    """The options a position's variant word gives: the numbers and on/off ones. A word option (m,n,k's ``opening``)
    is always its default there: a Swap2 game's position is its stones' (``position_string``)."""
    return {name: entry for name, entry in spec.items() if entry[0] is not str}


def _variant_word(variant: Variant) -> str:
    numbered = _numbered(variant.option_spec)
    return "-".join([variant.key, *(str(int(value)) for name, value in variant.options.items() if name in numbered)])


def position_string(state: State) -> str:
    """The position as one URL-safe word: fields joined by '_', using only a-z, 0-9, '.', '_' and '-'.

    ``variant_rows_side`` for grid variants, ``variant_rows_side_target_owners`` for nested ones:

    * variant: the key, then each option's value in the variant's order (``rows``, ``cols``, ``k``; on/off
      options as 1/0), joined by '-': ``classic``, ``four``, ``nxn-5``, ``mnk-15-15-5``, ``ultimate-0``,
      ``multi-1``.
    * rows: the board's rows from the top (row ``rows`` first, as drawn; nested variants as one 9 x 9 board),
      joined by '.'; in a row ``x`` and ``o`` are marks and a number is that many empty cells: ``o2.1x1.3``.
    * side: ``x`` or ``o``, the side to move (also once the game is over: the side that would move).
    * target (nested): the board the next move is sent to, 0-8, or ``-`` for any open board (or game over).
    * owners (nested): who won each small board 0-8 first: ``x``, ``o`` or ``-``, e.g. ``x---o----``.

    Classic after b2 and a3: ``classic_o2.1x1.3_x``. The history is not kept, but the state that
    ``parse_position`` builds has the same legal moves, side to move, winner and end. A Swap2 game's position is
    its stones' as freestyle gomoku (``state.board``: x the stones placed first), whoever holds them.
    """
    state = getattr(state, "board", None) or state
    variant = state.variant
    cells = state.cells
    order = _NESTED_ORDER if variant.nested else range(variant.cell_count)
    rows = []
    for r in range(variant.rows):
        parts: list[str] = []
        empty = 0
        for c in range(variant.cols):
            mark = cells[order[r * variant.cols + c]]
            if mark is None:
                empty += 1
                continue
            if empty:
                parts.append(str(empty))
                empty = 0
            parts.append(mark.lower())
        if empty:
            parts.append(str(empty))
        rows.append("".join(parts))
    fields = [_variant_word(variant), ".".join(rows), state.to_move.lower()]
    if isinstance(state, NestedState):
        fields.append("-" if state.target < 0 else str(state.target))
        fields.append("".join((owner or "-").lower() for owner in state.board_winners))
    return "_".join(fields)


def _position_variant(word: str) -> Variant:
    key, *values = word.split("-")
    if key not in VARIANTS:
        raise PositionError(f"unknown variant {shown(key)} in the position; choose one of {', '.join(VARIANTS)}")
    spec = _numbered(VARIANTS[key].option_spec)
    if len(values) != len(spec):
        names = ", ".join(spec) or "none"
        raise PositionError(
            f"{shown(word)}: {key} takes {len(spec)} option value(s) after its name, joined by '-' ({names})"
        )
    options: dict[str, Any] = {}
    for (name, (kind, *_)), raw in zip(spec.items(), values, strict=True):
        if not raw.isdigit() or (raw != "0" and raw.startswith("0")) or len(raw) > 6:
            raise PositionError(f"option {name!r} of the position is a whole number, not {shown(raw)}")
        if kind is bool:
            if raw not in ("0", "1"):
                raise PositionError(f"option {name!r} of the position is 1 or 0, not {shown(raw)}")
            options[name] = raw == "1"
        else:
            options[name] = int(raw)
    try:
        return get_variant(key, **options)
    except ValueError as exc:
        raise PositionError(str(exc)) from None


def parse_position(text: str) -> State:
    """The state a position string (see ``position_string``) describes; PositionError (a ValueError) says what
    is wrong with the string or why no game of the variant reaches that position."""
    if not isinstance(text, str):
        raise PositionError(f"a position string is text, not {shown(text)}")
    if len(text) > MAX_POSITION_CHARS:
        raise PositionError(f"position string too long: {len(text):,} characters, at most {MAX_POSITION_CHARS}")
    if not _POSITION_CHARS.fullmatch(text):
        bad = next(ch for ch in text if not _POSITION_CHARS.fullmatch(ch))
        raise PositionError(f"{bad!r} cannot be in a position string: it uses only a-z, 0-9, '.', '_' and '-'")
    fields = text.split("_")
    variant = _position_variant(fields[0])
    expected = 5 if variant.nested else 3
    if len(fields) != expected:
        what = "variant_rows_side_target_owners" if variant.nested else "variant_rows_side"
        raise PositionError(f"a {variant.key} position has {expected} fields joined by '_' ({what}), not {len(fields)}")
    rows = fields[1].split(".")
    if len(rows) != variant.rows:
        raise PositionError(f"the position has {len(rows)} rows joined by '.'; this board has {variant.rows}")
    order = _NESTED_ORDER if variant.nested else range(variant.cell_count)
    cells: list[str | None] = [None] * variant.cell_count
    for r, row in enumerate(rows):
        number = variant.rows - r
        parts = _ROW.findall(row)
        if "".join(parts) != row or not row:
            raise PositionError(
                f"row {number} {shown(row)}: a row is marks x and o, and numbers of empty cells (no zero)"
            )
        marks: list[str | None] = []
        for part in parts:
            marks += [part.upper()] if part in "xo" else [None] * min(int(part), variant.cols + 1)
        if len(marks) != variant.cols:
            raise PositionError(f"row {number} {shown(row)} has {len(marks)} cells; this board has {variant.cols}")
        for c, mark in enumerate(marks):
            cells[order[r * variant.cols + c]] = mark
    side = fields[2]
    if side not in ("x", "o"):
        raise PositionError(f"the side to move is x or o, not {shown(side)}")
    if not variant.nested:
        return variant.from_position(cells, side.upper())
    target_word, owners_word = fields[3], fields[4]
    if target_word != "-" and target_word not in tuple("012345678"):
        raise PositionError(f"the target board is 0-8 or '-' (any open board), not {shown(target_word)}")
    if len(owners_word) != 9 or set(owners_word) - set("xo-"):
        raise PositionError(f"the board owners are 9 of x, o and - (boards 0-8), not {shown(owners_word)}")
    return variant.from_position(
        cells, side.upper(), board_winners=[None if ch == "-" else ch.upper() for ch in owners_word],
        target=None if target_word == "-" else int(target_word),
    )
