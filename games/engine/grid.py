"""Grid variants: one rows x cols board, k in a row wins (classic, four, nxn, mnk).

A position is two int bit masks, one per side; bit ``row * cols + col`` is a cell. Lines are
precomputed per variant shape as int masks, and per cell the lines through it, so a move is
checked for a win by a handful of ANDs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import accumulate, compress
from operator import or_
from typing import Any

from .core import IllegalMove, PositionError, State, Variant, count_marks, grid_cells, side_to_move
from .swap2 import FIRST_MOVES, OPENINGS, Swap2State, choice_move, choice_name, swap2_allowed


@lru_cache(maxsize=64)
def line_tables(rows: int, cols: int, k: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """All k-in-a-row masks of the shape, and per cell the masks of the lines through it."""
    lines: list[int] = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    mask = 0
                    for i in range(k):
                        mask |= 1 << ((r + dr * i) * cols + c + dc * i)
                    lines.append(mask)
    per_cell = tuple(tuple(m for m in lines if m >> cell & 1) for cell in range(rows * cols))
    return tuple(lines), per_cell


@lru_cache(maxsize=64)
def line_scans(rows: int, cols: int, k: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Per direction (shifts, starts): a mask holds a k-line in that direction iff, after ``t &= t >> s``
    for each shift s (run lengths doubling: 1, 2, 4, ... then the rest), ``t & starts`` is non-zero.
    ``starts`` are the cells where a whole line fits, so runs that wrap round a row edge do not count."""
    scans = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        d = dr * cols + dc
        starts = 0
        for r in range(rows):
            for c in range(cols):
                if 0 <= r + dr * (k - 1) < rows and 0 <= c + dc * (k - 1) < cols:
                    starts |= 1 << (r * cols + c)
        if not starts:
            continue
        shifts, length = [], 1
        while 2 * length <= k:
            shifts.append(length * d)
            length *= 2
        if length < k:
            shifts.append((k - length) * d)
        scans.append((tuple(shifts), starts))
    return tuple(scans)


#: bin() digits of an occupancy mask -> bytes that are 1 for an empty cell (for itertools.compress)
_EMPTY_OF_DIGIT = bytes.maketrans(b"01", b"\x01\x00")


class GridVariant(Variant):
    """rows x cols, k in a row. The concrete variants below only fix the shape."""

    key = "mnk"

    def __init__(self, **options: Any) -> None:
        self.options = self.check_options(options)
        self.rows, self.cols, self.k = self._shape()
        if self.k > max(self.rows, self.cols):
            raise ValueError(
                f"k={self.k} cannot be larger than the board ({self.rows} x {self.cols}): "
                f"k must be at most {max(self.rows, self.cols)}"
            )
        self.cell_count = self.rows * self.cols
        self.full = (1 << self.cell_count) - 1
        self.lines, self.cell_lines = line_tables(self.rows, self.cols, self.k)
        self.cell_table = grid_cells(self.rows, self.cols)

    def _shape(self) -> tuple[int, int, int]:
        return self.options["rows"], self.options["cols"], self.options["k"]

    def describe(self) -> str:
        return f"{self.rows} x {self.cols}, {self.k} in a row"

    def new_game(self) -> GridState:
        return GridState(self, 0, 0, 0, None, False)

    def from_position(
        self, cells: Sequence[str | None], to_move: str | None = None, *,
        board_winners: Sequence[str | None] | None = None, target: int | None = None,
    ) -> GridState:
        """The state with these ``cells`` ("X", "O" or None per move number), as a game reaches it.

        The move history is not needed: the side to move follows from the counts (``to_move``, if given, must
        agree) and the game is over when a side has a line or the board is full. PositionError for a position no
        game reaches: wrong counts, both sides with a line, a line for the side to move (the other side played
        on after it), or lines that no single last move can have completed.
        """
        if board_winners is not None or target is not None:
            raise PositionError(f"{self.key!r} has one board: no board winners or target board to give")
        if isinstance(cells, str | bytes) or len(cells) != self.cell_count:
            size = len(cells) if isinstance(cells, Sequence) else "no"
            raise PositionError(f"a {self.describe()} position has {self.cell_count} cells, not {size}")
        nx, no = count_marks(cells, "the position")
        side = side_to_move(nx, no, to_move)
        x = sum(1 << i for i, v in enumerate(cells) if v == "X")
        o = sum(1 << i for i, v in enumerate(cells) if v == "O")
        x_line, o_line = self.has_line(x), self.has_line(o)
        if x_line and o_line:
            raise PositionError("both X and O have a line: the game ended at the first of them")
        if not (x_line or o_line):
            return GridState(self, x, o, nx + no, None, (x | o) == self.full)
        winner = "X" if x_line else "O"
        if winner == side:
            raise PositionError(
                f"{winner} has a line but it is {side}'s turn: the game ended when the line was made"
            )
        mine = x if x_line else o
        # The winning move is a cell of the winner's without which no line is left (the game was not over before).
        last = next(
            (c for c in range(self.cell_count) if mine >> c & 1 and not self.has_line(mine & ~(1 << c))), None
        )
        if last is None:
            raise PositionError(
                f"{winner}'s lines do not share a cell: no single last move made them, so the game was over before"
            )
        return GridState(self, x, o, nx + no, winner, True, last)

    def playout(self, state: GridState, rng: random.Random | None = None) -> str | None:
        """Play uniformly random moves to the end; return the winner ("X", "O") or None for a draw."""
        if state.is_over:
            return state.winner
        who = self.raw_playout(state.x, state.o, state.ply & 1, (rng or random).random)
        return "XO"[who] if who >= 0 else None

    def has_line(self, mask: int) -> bool:
        """Whether the mask holds k in a row (a few big-int shifts instead of a loop over every line)."""
        for shifts, starts in line_scans(self.rows, self.cols, self.k):
            t = mask
            for s in shifts:
                t &= t >> s
            if t & starts:
                return True
        return False

    def raw_playout(self, x: int, o: int, side: int, rand: Callable[[], float]) -> int:
        """Random playout from masks x, o with ``side`` (0 X, 1 O) to move; 0 X won, 1 O won, -1 draw.

        Uniformly random moves until the game ends are a uniformly random order of the empty cells,
        cut at the first line. So: shuffle the empty cells once (a C-level sort by random keys), give
        the mover the even places and the other side the odd ones, and binary-search each side's
        prefix masks for the move that completes its first line. No per-move Python loop.
        """
        n = self.cell_count
        occ = x | o
        if occ:
            empties = list(compress(range(n), bin(occ | 1 << n)[:2:-1].encode().translate(_EMPTY_OF_DIGIT)))
        else:
            empties = list(range(n))
        keys = [rand() for _ in empties]
        order = sorted(range(len(empties)), key=keys.__getitem__)
        bits = [1 << empties[i] for i in order]
        has_line = self.has_line
        first = []  # per side (mover, other): the index in `bits` of the move completing its first line
        for offset, base in ((0, o if side else x), (1, x if side else o)):
            masks = list(accumulate(bits[offset::2], or_, initial=base))
            if not has_line(masks[-1]):
                first.append(n)
                continue
            lo, hi = 1, len(masks) - 1  # masks[hi] holds a line, masks[lo - 1] does not
            while lo < hi:
                mid = (lo + hi) // 2
                if has_line(masks[mid]):
                    hi = mid
                else:
                    lo = mid + 1
            first.append(2 * (lo - 1) + offset)
        if first[0] == first[1]:  # both n: nobody ever completes a line
            return -1
        return side if first[0] < first[1] else side ^ 1


class Classic(GridVariant):
    key = "classic"
    title = "Classic 3 x 3"
    option_spec = {}

    def _shape(self) -> tuple[int, int, int]:
        return 3, 3, 3

    def describe(self) -> str:
        return self.title


class Four(GridVariant):
    key = "four"
    title = "4 x 4"
    option_spec = {}

    def _shape(self) -> tuple[int, int, int]:
        return 4, 4, 4

    def describe(self) -> str:
        return "4 x 4, 4 in a row"


class NxN(GridVariant):
    key = "nxn"
    title = "n x n"
    option_spec = {"size": (int, 5, 3, 10)}

    def _shape(self) -> tuple[int, int, int]:
        n = self.options["size"]
        return n, n, n


class MNK(GridVariant):
    key = "mnk"
    title = "m,n,k (gomoku)"
    option_spec = {
        "rows": (int, 15, 3, 19), "cols": (int, 15, 3, 19), "k": (int, 5, 3, 19),
        # the opening rule of gomoku boards (games.engine.swap2): freestyle, or Swap2
        "opening": (str, "freestyle", OPENINGS, None),
    }

    def __init__(self, **options: Any) -> None:
        if "k" not in options:
            # Gomoku's five, unless the board is too small for it.
            rows, cols = options.get("rows", 15), options.get("cols", 15)
            if isinstance(rows, int) and isinstance(cols, int):
                options = {**options, "k": max(3, min(5, max(rows, cols)))}
        super().__init__(**options)
        self.swap2 = self.options["opening"] == "swap2"
        if not self.swap2:  # freestyle, the default, is not listed: its games' options stay as they always were
            del self.options["opening"]
        if self.swap2 and not swap2_allowed(self.rows, self.cols, self.k):
            raise ValueError(
                f"the swap2 opening is for gomoku boards: five in a row on at least 15 x 15, not {self.describe()}"
            )
        #: the stones' own game (freestyle, same board): what a Swap2 game's ``board`` is played on
        self.freestyle = MNK(rows=self.rows, cols=self.cols, k=self.k) if self.swap2 else self
        #: plies until each side has made a move (clocks and aborts count from there)
        self.first_moves = FIRST_MOVES if self.swap2 else 2

    def describe(self) -> str:
        text = super().describe()
        return f"{text}, Swap2 opening" if self.swap2 else text

    def new_game(self) -> GridState | Swap2State:  # type: ignore[override]
        if self.swap2:
            return Swap2State(self, self.freestyle.new_game())
        return super().new_game()

    def from_position(
        self, cells: Sequence[str | None], to_move: str | None = None, *,
        board_winners: Sequence[str | None] | None = None, target: int | None = None,
    ) -> GridState:
        if self.swap2:  # a position string names the stones' own game (freestyle): see position_strings
            raise PositionError("a Swap2 game is not started from a position: its opening is part of the game")
        return super().from_position(cells, to_move, board_winners=board_winners, target=target)

    def cell_name(self, move: int) -> str:
        """A cell's name, or in a Swap2 game a choice's (``stay``, ``swap``, ``more``)."""
        if self.swap2 and isinstance(move, int) and not isinstance(move, bool) and move >= self.cell_count:
            return choice_name(self.cell_count, move)
        return super().cell_name(move)

    def parse_cell(self, text: str) -> int:
        if self.swap2:
            move = choice_move(self.cell_count, text)
            if move is not None:
                return move
        return super().parse_cell(text)


class GridState(State):
    __slots__ = ("variant", "x", "o", "ply", "winner", "is_over", "last_move")

    def __init__(
        self, variant: GridVariant, x: int, o: int, ply: int, winner: str | None, is_over: bool,
        last_move: int | None = None,
    ) -> None:
        self.variant = variant
        self.x = x
        self.o = o
        self.ply = ply
        self.winner = winner
        self.is_over = is_over
        self.last_move = last_move

    def legal_moves(self) -> list[int]:
        if self.is_over:
            return []
        occ = self.x | self.o
        return [i for i in range(self.variant.cell_count) if not occ >> i & 1]

    def play(self, move: int) -> GridState:
        move = self._check_move_type(move)
        bit = 1 << move
        if (self.x | self.o) & bit:
            owner = "X" if self.x & bit else "O"
            raise IllegalMove(f"{self.variant.cell_name(move)} is already taken by {owner}")
        variant = self.variant
        x, o = self.x, self.o
        if self.ply % 2 == 0:
            x |= bit
            mine, side = x, "X"
        else:
            o |= bit
            mine, side = o, "O"
        won = any(mine & line == line for line in variant.cell_lines[move])
        over = won or (x | o) == variant.full
        return GridState(variant, x, o, self.ply + 1, side if won else None, over, move)

    @property
    def cells(self) -> tuple[str | None, ...]:
        x, o = self.x, self.o
        return tuple(
            "X" if x >> i & 1 else "O" if o >> i & 1 else None for i in range(self.variant.cell_count)
        )

    @property
    def winning_cells(self) -> tuple[int, ...]:
        if self.winner is None or self.last_move is None:
            return ()
        mine = self.x if self.winner == "X" else self.o
        # the winning move is the last one: only the lines through it can be complete
        mask = 0
        for line in self.variant.cell_lines[self.last_move]:
            if mine & line == line:
                mask |= line
        return tuple(i for i in range(self.variant.cell_count) if mask >> i & 1)

    def key(self) -> tuple[int, int]:
        """A hashable identity of the position (the side to move follows from it)."""
        return self.x, self.o

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GridState) and (self.variant, self.x, self.o) == (other.variant, other.x, other.o)

    def __hash__(self) -> int:
        return hash((self.x, self.o))

    def __repr__(self) -> str:
        return f"<GridState {self.variant.key} ply={self.ply} x={self.x:#x} o={self.o:#x}>"
