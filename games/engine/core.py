"""Shared value types of the engine: errors, the variant/state protocol, option checking."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

SIDES = ("X", "O")


def side_of_ply(ply: int) -> str:
    """Who made move number ``ply`` (1 for the first move of a game): X moves first."""
    return "X" if ply % 2 == 1 else "O"


def takeback_keeps(moves: Sequence[int], sides: Sequence[str]) -> int | None:
    """How many of ``moves`` stay when whoever holds ``sides`` takes a move back (None: nothing to take).

    Their own latest move goes, and every move after it (a computer's replies), so that it is their turn
    again; with both sides (one screen), simply the last move.
    """
    ply = len(moves)
    while ply and side_of_ply(ply) not in sides:
        ply -= 1
    return ply - 1 if ply else None


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters: a message must not echo a megabyte."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class IllegalMove(ValueError):
    """A move that the rules do not allow; the message says why."""


class InvalidCellName(ValueError):
    """Text that names no cell of the board (RULES.md "Cell names"), or a move number that is no cell; the
    message names the board's range."""


class PositionError(ValueError):
    """A position (cells, side to move, ...) that no game of the variant can reach; the message says why."""


def count_marks(cells: Sequence[object], what: str) -> tuple[int, int]:
    """(X's marks, O's marks) of a cells sequence; PositionError for anything but "X", "O" and None."""
    nx = no = 0
    for i, value in enumerate(cells):
        if value == "X" and isinstance(value, str):
            nx += 1
        elif value == "O" and isinstance(value, str):
            no += 1
        elif value is not None:
            raise PositionError(f"cell {i} of {what} holds {shown(value)}: a cell is 'X', 'O' or None")
    return nx, no


def side_to_move(nx: int, no: int, to_move: object) -> str:
    """The side to move of a position with these counts, checked against ``to_move`` (None: not given)."""
    if not 0 <= nx - no <= 1:
        raise PositionError(
            f"X has {nx} marks and O {no}: X moves first and the sides alternate, so X has as many marks as O "
            "or one more"
        )
    side = "X" if nx == no else "O"
    if to_move is not None and to_move != side:
        raise PositionError(
            f"{shown(to_move)} cannot be the side to move: with {nx} X and {no} O on the board it is {side}'s turn"
        )
    return side


#: surrounding characters a cell name may carry (ASCII spaces only: str.strip() would also eat exotic ones)
_SPACES = " \t\r\n\f\v"


def column_letter(col: int) -> str:
    """Column 0 -> 'a', 1 -> 'b', ... (every letter, ``i`` included)."""
    return chr(ord("a") + col)


@lru_cache(maxsize=64)
def grid_cell_names(rows: int, cols: int) -> tuple[str, ...]:
    """Names of a rows x cols board's cells by move ``r * cols + c``: column letter, row counted from the bottom."""
    if not (1 <= cols <= 26 and rows >= 1):
        raise ValueError(f"a {rows} x {cols} board cannot be named: columns run from a to z")
    return tuple(column_letter(c) + str(rows - r) for r in range(rows) for c in range(cols))


@lru_cache(maxsize=1)
def nested_cell_names() -> tuple[str, ...]:
    """Names of the 81 cells of a nested variant by move ``9 * board + cell``, drawn as one 9 x 9 board."""
    names = []
    for move in range(81):
        (br, bc), (cr, cc) = divmod(move // 9, 3), divmod(move % 9, 3)
        names.append(column_letter(3 * bc + cc) + str(9 - (3 * br + cr)))
    return tuple(names)


@lru_cache(maxsize=64)
def _cells_by_name(names: tuple[str, ...]) -> dict[str, int]:
    return {name: move for move, name in enumerate(names)}


class CellNames:
    """One board shape's names both ways: ``names[move]`` and ``parse(text)``. Built once per shape."""

    __slots__ = ("rows", "cols", "names", "by_name", "range_text")

    def __init__(self, rows: int, cols: int, names: tuple[str, ...]) -> None:
        self.rows = rows
        self.cols = cols
        self.names = names
        self.by_name = _cells_by_name(names)
        self.range_text = f"this {rows} x {cols} board: columns a-{column_letter(cols - 1)}, rows 1-{rows}"

    def name(self, move: int) -> str:
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < len(self.names):
            raise InvalidCellName(
                f"{shown(move)} is not a cell of {self.range_text} (moves are numbered 0-{len(self.names) - 1})"
            )
        return self.names[move]

    def parse(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidCellName(f"a cell name is text such as 'b2', not {shown(text)} (cells of {self.range_text})")
        key = text.strip(_SPACES)
        # ASCII first: lower() maps some non-ASCII letters (the Kelvin sign) onto ASCII ones
        move = self.by_name.get(key.lower()) if key.isascii() else None
        if move is None:
            raise InvalidCellName(f"{shown(text)} is not a cell of {self.range_text}")
        return move


@lru_cache(maxsize=64)
def grid_cells(rows: int, cols: int) -> CellNames:
    return CellNames(rows, cols, grid_cell_names(rows, cols))


@lru_cache(maxsize=1)
def nested_cells() -> CellNames:
    return CellNames(9, 9, nested_cell_names())


def cell_names(variant: Variant) -> tuple[str, ...]:
    """Every cell's name of ``variant``'s board, indexed by move (shared per board shape: do not rebuild)."""
    return variant.cell_table.names


class Variant(ABC):
    """A rule set with its options. Subclasses set ``key`` and build their tables in ``__init__``."""

    key: ClassVar[str] = ""
    title: ClassVar[str] = ""
    nested: ClassVar[bool] = False
    #: name -> (type, default, minimum, maximum) for int options; (bool, default, None, None) for flags;
    #: (str, default, choices, None) for a choice among words (m,n,k's ``opening``)
    option_spec: ClassVar[dict[str, tuple[type, Any, Any, int | None]]] = {}

    options: dict[str, Any]
    cell_count: int
    rows: int
    cols: int
    #: the board's cell names both ways (set by the subclass from its shape)
    cell_table: CellNames
    #: plies until each side has made a move: 2, or 4 after a Swap2 opening's three stones and first choice (the
    #: site's clocks and aborts count from there)
    first_moves: int = 2

    @abstractmethod
    def new_game(self) -> State: ...

    @abstractmethod
    def from_position(
        self, cells: Sequence[str | None], to_move: str | None = None, *,
        board_winners: Sequence[str | None] | None = None, target: int | None = None,
    ) -> State:
        """The state with these cells (and, nested, board owners and target board), without the move history;
        PositionError for a position no game reaches. See the grid and nested variants."""

    def cell_name(self, move: int) -> str:
        """The move's name (RULES.md "Cell names"): 'b2', 'h8', 'e5'. InvalidCellName for a number that is no cell."""
        return self.cell_table.name(move)

    def parse_cell(self, text: str) -> int:
        """The move a cell name names: case-insensitive, surrounding spaces ignored; InvalidCellName (a ValueError
        naming the board's range) for anything else."""
        return self.cell_table.parse(text)

    @classmethod
    def check_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """Return the full option dict (defaults filled in) or raise ValueError naming the problem."""
        unknown = sorted(set(given) - set(cls.option_spec))
        if unknown:
            allowed = ", ".join(sorted(cls.option_spec)) or "none"
            raise ValueError(
                f"unknown option {', '.join(shown(u) for u in unknown[:5])} for variant {cls.key!r} "
                f"(options it takes: {allowed})"
            )
        result: dict[str, Any] = {}
        for name, (kind, default, low, high) in cls.option_spec.items():
            value = given.get(name, default)
            if kind is bool:
                if not isinstance(value, bool):
                    raise ValueError(f"option {name!r} of {cls.key!r} must be true or false, not {value!r}")
            elif kind is str:
                if not isinstance(value, str) or value not in low:
                    raise ValueError(
                        f"option {name!r} of {cls.key!r} must be one of {', '.join(low)}, not {shown(value)}"
                    )
            else:
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError(f"option {name!r} of {cls.key!r} must be a whole number, not {value!r}")
                if (low is not None and value < low) or (high is not None and value > high):
                    raise ValueError(
                        f"option {name!r} of {cls.key!r} must be between {low} and {high}, not {value}"
                    )
            result[name] = value
        return result

    def describe(self) -> str:
        """A short human label, e.g. '5 x 5, 5 in a row'."""
        return self.title

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<{type(self).__name__} {self.key}({opts})>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Variant) and (self.key, self.options) == (other.key, other.options)

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.options.items()))))


class State(ABC):
    """One position. Immutable by contract: ``play`` returns a new state."""

    __slots__ = ()

    variant: Variant
    is_over: bool
    winner: str | None
    ply: int

    @property
    def to_move(self) -> str:
        """X moves first, then the sides alternate."""
        return "X" if self.ply % 2 == 0 else "O"

    @abstractmethod
    def legal_moves(self) -> list[int]: ...

    @abstractmethod
    def play(self, move: int) -> State: ...

    @property
    @abstractmethod
    def cells(self) -> tuple[str | None, ...]: ...

    @property
    def winning_cells(self) -> tuple[int, ...]:
        """The cells of the line (or lines, made by one move) that won the game; () when no line won it."""
        return ()

    def _check_move_type(self, move: object) -> int:
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMove(f"a move must be a whole number (a cell index), not {move!r}")
        if self.is_over:
            raise IllegalMove(f"the game is over; no move may be played (tried {move})")
        if not 0 <= move < self.variant.cell_count:
            raise IllegalMove(f"move {move} is out of range: cells are numbered 0..{self.variant.cell_count - 1}")
        return move
