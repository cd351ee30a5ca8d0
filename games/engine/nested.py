"""Nested variants: nine 3 x 3 boards in a 3 x 3 arrangement (ultimate, multi).

Each side keeps one 9-bit mask per small board; the big board is three more 9-bit masks (boards
won by X, won by O, full). Everything the hot loops need is a lookup in a table indexed by such a
mask: whether it holds a line, its empty cells, the next open board. Move = 9 * board + cell.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable, Sequence
from operator import or_
from typing import Any

from .core import (
    IllegalMove,
    PositionError,
    State,
    Variant,
    count_marks,
    nested_cells,
    shown,
    side_to_move,
)
from .nested_raw import (  # the tables and hot loops; their public names are also this module's
    ALL9,
    BOARD_NAMES,
    FREE9,
    LINES3,
    MOVES9,
    NEXT_OPEN,
    ONGOING,
    OPEN9,
    POPCOUNT9,
    WIN9,
    _playout_closed,
    _playout_multi,
    _playout_ultimate,
    _step_closed,
    _step_multi,
    _step_ultimate,
    board_label,
)

__all__ = [
    "ALL9", "BOARD_NAMES", "FREE9", "LINES3", "MOVES9", "NEXT_OPEN", "ONGOING", "OPEN9", "POPCOUNT9", "WIN9",
    "Multi", "NestedState", "NestedVariant", "Ultimate", "board_label",
]


class NestedVariant(Variant):
    nested = True
    cell_count = 81
    rows = cols = 9
    #: a board that is won is closed to further moves
    closes_won: bool = False

    def __init__(self, **options: Any) -> None:
        self.options = self.check_options(options)
        self.cell_table = nested_cells()

    def new_game(self, *, start_board: int | None = None, seed: int | None = None) -> NestedState:
        if start_board is not None:
            raise ValueError(f"start_board is not an option of {self.key!r}: its first move may go anywhere")
        return NestedState(self, (0,) * 9, (0,) * 9, 0, 0, 0, -1, 0, None, False)

    def from_position(
        self, cells: Sequence[str | None], to_move: str | None = None, *,
        board_winners: Sequence[str | None] | None = None, target: int | None = None,
    ) -> NestedState:
        """The state with these 81 ``cells``, small-board owners and ``target`` (the board the next move is sent
        to; None: any open board), as a game reaches it without its move history.

        ``board_winners`` (9 entries "X" / "O" / None) says who completed a line first on each board; it may be
        left out when no board has lines of both sides. The side to move follows from the counts (``to_move``,
        if given, must agree). PositionError for what no game reaches: wrong counts, an owner without a line or
        a line without an owner, lines of both sides on a board that closed when won, a target that the rules
        never send to (a closed board; a free choice where the rules send to one board), a game that went on
        after it was decided.
        """
        if isinstance(cells, str | bytes) or len(cells) != 81:
            size = len(cells) if isinstance(cells, Sequence) else "no"
            raise PositionError(f"a {self.key} position has 81 cells, not {size}")
        nx, no = count_marks(cells, "the position")
        side_to_move(nx, no, to_move)
        ply = nx + no
        xs = tuple(sum(1 << c for c in range(9) if cells[9 * b + c] == "X") for b in range(9))
        os_ = tuple(sum(1 << c for c in range(9) if cells[9 * b + c] == "O") for b in range(9))
        if board_winners is not None and (isinstance(board_winners, str | bytes) or len(board_winners) != 9):
            raise PositionError(f"board_winners has one entry per small board (9), not {shown(board_winners)}")
        xwon = owon = full = 0
        for b in range(9):
            x_line, o_line = WIN9[xs[b]], WIN9[os_[b]]
            owner = board_winners[b] if board_winners is not None else None
            where = board_label(b)
            if owner not in ("X", "O", None) or (owner is not None and not isinstance(owner, str)):
                raise PositionError(f"the winner of {where} is {shown(owner)}: it is 'X', 'O' or None")
            if board_winners is None and x_line != o_line:
                owner = "X" if x_line else "O"
            if x_line and o_line:
                if self.closes_won:
                    raise PositionError(f"{where} has lines of both X and O, but it closed when the first was made")
                if owner is None:
                    raise PositionError(f"{where} has lines of both X and O: say which side completed one first")
            elif owner is not None and not (x_line if owner == "X" else o_line):
                raise PositionError(f"{where} is given to {owner}, who has no line on it")
            elif owner is None and (x_line or o_line):
                raise PositionError(f"{where} has a line of {'X' if x_line else 'O'} but is given to nobody")
            if owner == "X":
                xwon |= 1 << b
            elif owner == "O":
                owon |= 1 << b
            if xs[b] | os_[b] == ALL9:
                full |= 1 << b
        closed = full | xwon | owon if self.closes_won else full
        over, who = False, -1
        if ply:
            mover = (ply - 1) & 1
            self._check_won_boards(xwon, owon, mover)
            over, who = self.result(xwon, owon, closed, mover)
        winner = "XO"[who] if who >= 0 else None
        if over:
            if target is not None:
                raise PositionError(f"the game is over: no board is the target of a next move (given {target!r})")
            return NestedState(self, xs, os_, xwon, owon, full, -1, ply, winner, True)
        if target is not None:
            if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= 8:
                raise PositionError(f"the target board is a board number 0-8 or None (any board), not {target!r}")
            if closed >> target & 1:
                raise PositionError(f"the rules never send a move to {board_label(target)}: it is closed")
        self._check_target(ply, closed, target)
        return NestedState(self, xs, os_, xwon, owon, full, -1 if target is None else target, ply, None, False)

    def _check_won_boards(self, xwon: int, owon: int, mover: int) -> None:
        """PositionError when the boards won show that the game was decided before the last move (by ``mover``)."""

    def _check_target(self, ply: int, closed: int, target: int | None) -> None:
        """PositionError when the rules never leave ``target`` (None: a free choice) after ``ply`` moves."""
        if ply and target is None and not closed:
            raise PositionError("a free choice of board comes only first or after a move sends to a closed board")
        if not ply and target is not None:
            raise PositionError(f"the first move of {self.key} may go on any board: no target board before it")

    # Rule hooks --------------------------------------------------------------------------
    @abstractmethod
    def next_target(self, closed: int, cell: int) -> int:
        """The board the next move is sent to (-1: any open board)."""

    @abstractmethod
    def result(self, xwon: int, owon: int, closed: int, mover: int) -> tuple[bool, int]:
        """(is_over, winner index: 0 X, 1 O, -1 none) after ``mover`` moved."""

    @abstractmethod
    def winning_mask(self, won: int) -> int:
        """Of the winner's won boards (9-bit ``won``), the ones that won the game."""

    def playout(self, state: NestedState, rng: random.Random | None = None) -> str | None:
        """Play uniformly random moves to the end; return the winner ("X", "O") or None for a draw."""
        if state.is_over:
            return state.winner
        who = self.raw_playout(
            list(state.xs), list(state.os), list(map(or_, state.xs, state.os)),
            state.xwon, state.owon, state.full, state.target, state.ply & 1, (rng or random).randbytes,
        )
        return "XO"[who] if who >= 0 else None

    # Raw interface for search code (mcts): plain lists and ints, no state objects -------------
    # A raw position is xs, os, occ (9 masks each: X's cells, O's cells, both), the won masks
    # xwon/owon, the full-board mask, the target board (-1: free choice) and the side to move.
    # Results are ints: 0 X won, 1 O won, -1 draw, ONGOING while the game goes on.

    @staticmethod
    @abstractmethod
    def raw_playout(
        xs: list[int], os_: list[int], occ: list[int], xwon: int, owon: int, full: int, target: int, side: int,
        randbytes: Callable[[int], bytes],
    ) -> int:
        """Random moves to the end from the raw position; returns the result."""

    @staticmethod
    @abstractmethod
    def raw_step(
        xs: list[int], os_: list[int], occ: list[int], won: list[int], full: int, side: int, move: int
    ) -> tuple[int, int, int]:
        """Play ``move`` for ``side`` in place (``won`` is [xwon, owon]); return (full, target, result)."""

    def raw_closed(self, xwon: int, owon: int, full: int) -> int:
        return full | xwon | owon if self.closes_won else full

    @staticmethod
    def raw_moves(occ: list[int], closed: int, target: int) -> list[int]:
        """The legal moves of a raw position that is not over, ascending."""
        if target >= 0:
            return list(MOVES9[target][occ[target]])
        moves: list[int] = []
        for b in OPEN9[closed]:
            moves += MOVES9[b][occ[b]]
        return moves


class Ultimate(NestedVariant):
    key = "ultimate"
    title = "Ultimate"
    option_spec = {"closed_boards": (bool, False, None, None)}

    raw_playout = staticmethod(_playout_ultimate)
    raw_step = staticmethod(_step_ultimate)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.closes_won = self.options["closed_boards"]
        if self.closes_won:
            self.raw_playout = _playout_closed  # type: ignore[method-assign]  # plain functions on the instance
            self.raw_step = _step_closed  # type: ignore[method-assign]

    def describe(self) -> str:
        return "Ultimate, won boards closed" if self.closes_won else "Ultimate"

    def next_target(self, closed: int, cell: int) -> int:
        return -1 if closed >> cell & 1 else cell

    def result(self, xwon: int, owon: int, closed: int, mover: int) -> tuple[bool, int]:
        if WIN9[xwon if mover == 0 else owon]:
            return True, mover
        return closed == ALL9, -1

    def _check_won_boards(self, xwon: int, owon: int, mover: int) -> None:
        if WIN9[owon if mover == 0 else xwon]:
            raise PositionError(
                f"{'OX'[mover]} has three boards in a row, yet {'XO'[mover]} moved after that: the game ended then"
            )
        mine = xwon if mover == 0 else owon
        if WIN9[mine] and all(WIN9[mine & ~(1 << b)] for b in range(9) if mine >> b & 1):
            raise PositionError(f"{'XO'[mover]}'s lines of boards share no board: the game was decided before")

    def winning_mask(self, won: int) -> int:
        mask = 0
        for line in LINES3:  # three won boards in a row
            if won & line == line:
                mask |= line
        return mask


class Multi(NestedVariant):
    key = "multi"
    title = "Multi"
    option_spec = {"random_start": (bool, False, None, None)}
    closes_won = True
    raw_playout = staticmethod(_playout_multi)
    raw_step = staticmethod(_step_multi)

    def describe(self) -> str:
        return "Multi, random first board" if self.options["random_start"] else "Multi"

    def new_game(self, *, start_board: int | None = None, seed: int | None = None) -> NestedState:
        """With ``random_start`` the first board is drawn (seedable); ``start_board`` replays a draw."""
        target = -1
        if start_board is not None:
            if isinstance(start_board, bool) or not isinstance(start_board, int) or not 0 <= start_board <= 8:
                raise ValueError(f"start_board must be a board number 0..8, not {start_board!r}")
            if not self.options["random_start"]:
                raise ValueError("start_board is only meaningful with the random_start option")
            target = start_board
        elif self.options["random_start"]:
            target = random.Random(seed).randrange(9)
        return NestedState(self, (0,) * 9, (0,) * 9, 0, 0, 0, target, 0, None, False)

    def next_target(self, closed: int, cell: int) -> int:
        return NEXT_OPEN[closed][cell]

    def _check_target(self, ply: int, closed: int, target: int | None) -> None:
        if self.options["random_start"] and not ply and target is None:
            raise PositionError("with random_start the first move goes on the board drawn: give it as the target")
        if not self.options["random_start"] and not ply and target is not None:
            raise PositionError("the first move of multi may go on any board: no target board before it")
        if ply and target is None:
            raise PositionError("after a move, multi always sends the next one to an open board: give the target")

    def result(self, xwon: int, owon: int, closed: int, mover: int) -> tuple[bool, int]:
        if closed != ALL9:
            return False, -1
        nx, no = POPCOUNT9[xwon], POPCOUNT9[owon]
        return True, 0 if nx > no else 1 if no > nx else -1

    def winning_mask(self, won: int) -> int:
        return won  # more boards won: all of them count


class NestedState(State):
    __slots__ = ("variant", "xs", "os", "xwon", "owon", "full", "target", "ply", "winner", "is_over", "last_move")

    def __init__(
        self, variant: NestedVariant, xs: tuple[int, ...], os: tuple[int, ...], xwon: int, owon: int,
        full: int, target: int, ply: int, winner: str | None, is_over: bool, last_move: int | None = None,
    ) -> None:
        self.variant = variant
        self.xs = xs
        self.os = os
        self.xwon = xwon
        self.owon = owon
        self.full = full
        self.target = target
        self.ply = ply
        self.winner = winner
        self.is_over = is_over
        self.last_move = last_move

    @property
    def closed(self) -> int:
        """9-bit mask of the boards no move may use."""
        if self.variant.closes_won:
            return self.full | self.xwon | self.owon
        return self.full

    @property
    def active_boards(self) -> list[int]:
        if self.is_over:
            return []
        if self.target >= 0:
            return [self.target]
        closed = self.closed
        return [b for b in range(9) if not closed >> b & 1]

    def legal_moves(self) -> list[int]:
        xs, os_ = self.xs, self.os
        return [9 * b + c for b in self.active_boards for c in FREE9[xs[b] | os_[b]]]

    def play(self, move: int) -> NestedState:
        move = self._check_move_type(move)
        b, c = divmod(move, 9)
        bit = 1 << c
        if (self.xs[b] | self.os[b]) & bit:
            owner = "X" if self.xs[b] & bit else "O"
            raise IllegalMove(f"{self.variant.cell_name(move)} is already taken by {owner}")
        if self.target >= 0 and b != self.target:
            raise IllegalMove(
                f"{self.variant.cell_name(move)} is on {board_label(b)}, but this move must be on "
                f"{board_label(self.target)}"
            )
        if self.closed >> b & 1:
            why = "full" if self.full >> b & 1 else f"won by {'X' if self.xwon >> b & 1 else 'O'}"
            open_boards = ", ".join(BOARD_NAMES[a] for a in self.active_boards)
            raise IllegalMove(
                f"{self.variant.cell_name(move)} is on {board_label(b)}, which is closed ({why}); "
                f"play on one of {open_boards}"
            )
        side = self.ply & 1
        xs, os_ = list(self.xs), list(self.os)
        mine = xs if side == 0 else os_
        mine[b] |= bit
        xwon, owon, full = self.xwon, self.owon, self.full
        if WIN9[mine[b]] and not (xwon | owon) >> b & 1:
            if side == 0:
                xwon |= 1 << b
            else:
                owon |= 1 << b
        if xs[b] | os_[b] == ALL9:
            full |= 1 << b
        variant = self.variant
        closed = full | xwon | owon if variant.closes_won else full
        over, who = variant.result(xwon, owon, closed, side)
        target = -1 if over else variant.next_target(closed, c)
        return NestedState(
            variant, tuple(xs), tuple(os_), xwon, owon, full, target, self.ply + 1,
            "XO"[who] if who >= 0 else None, over, move,
        )

    @property
    def cells(self) -> tuple[str | None, ...]:
        xs, os_ = self.xs, self.os
        return tuple(
            "X" if xs[b] >> c & 1 else "O" if os_[b] >> c & 1 else None for b in range(9) for c in range(9)
        )

    @property
    def board_winners(self) -> tuple[str | None, ...]:
        return tuple("X" if self.xwon >> b & 1 else "O" if self.owon >> b & 1 else None for b in range(9))

    @property
    def winning_boards(self) -> tuple[int, ...]:
        """The boards that won the game: a line of three (ultimate), or all the winner's (multi); () if none did."""
        if self.winner is None:
            return ()
        mask = self.variant.winning_mask(self.xwon if self.winner == "X" else self.owon)
        return tuple(b for b in range(9) if mask >> b & 1)

    def key(self) -> tuple[tuple[int, ...], tuple[int, ...], int, int, int]:
        """A hashable identity of the position (target and board owners decide what follows)."""
        return self.xs, self.os, self.target, self.xwon, self.owon

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NestedState) and (self.variant, self.key()) == (other.variant, other.key())

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<NestedState {self.variant.key} ply={self.ply} target={self.target} over={self.is_over}>"
