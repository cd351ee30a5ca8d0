"""Nested variants: nine 3 x 3 boards in a 3 x 3 arrangement (ultimate, multi).

Each side keeps one 9-bit mask per small board; the big board is three more 9-bit masks (boards
won by X, won by O, full). Everything the hot loops need is a lookup in a table indexed by such a
mask: whether it holds a line, its empty cells, the next open board. Move = 9 * board + cell.
"""

from __future__ import annotations

import random
from typing import Any

from .core import IllegalMove, State, Variant

LINES3 = (0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010, 0b100100100, 0b100010001, 0b001010100)
ALL9 = 0b111111111
#: WIN9[mask]: the 9-bit mask holds a 3-in-a-row
WIN9 = tuple(any(m & line == line for line in LINES3) for m in range(512))
#: FREE9[occupied]: the empty cells of a board, ascending
FREE9 = tuple(tuple(c for c in range(9) if not m >> c & 1) for m in range(512))
POPCOUNT9 = tuple(bin(m).count("1") for m in range(512))
#: NEXT_OPEN[closed][c]: multi's rule 3, the first open board from c upwards, wrapping; -1 if none
NEXT_OPEN = tuple(
    tuple(next(((c + i) % 9 for i in range(9) if not closed >> ((c + i) % 9) & 1), -1) for c in range(9))
    for closed in range(512)
)


class NestedVariant(Variant):
    nested = True
    cell_count = 81
    rows = cols = 9
    #: a board that is won is closed to further moves
    closes_won: bool = False

    def __init__(self, **options: Any) -> None:
        self.options = self.check_options(options)

    def new_game(self, *, start_board: int | None = None, seed: int | None = None) -> NestedState:
        if start_board is not None:
            raise ValueError(f"start_board is not an option of {self.key!r}: its first move may go anywhere")
        return NestedState(self, (0,) * 9, (0,) * 9, 0, 0, 0, -1, 0, None, False)

    # Rule hooks --------------------------------------------------------------------------
    def next_target(self, closed: int, cell: int) -> int:
        """The board the next move is sent to (-1: any open board)."""
        raise NotImplementedError

    def result(self, xwon: int, owon: int, closed: int, mover: int) -> tuple[bool, int]:
        """(is_over, winner index: 0 X, 1 O, -1 none) after ``mover`` moved."""
        raise NotImplementedError

    def playout(self, state: NestedState, rng: random.Random | None = None) -> str | None:
        """Play uniformly random moves to the end; return the winner ("X", "O") or None for a draw."""
        rand = (rng or random).random
        xs = list(state.xs)
        os_ = list(state.os)
        boards = (xs, os_)
        won = [state.xwon, state.owon]
        full = state.full
        closes_won = self.closes_won
        multi = isinstance(self, Multi)
        target = state.target
        side = state.ply & 1
        if state.is_over:
            return state.winner
        win9, free9, next_open = WIN9, FREE9, NEXT_OPEN
        while True:
            closed = full | (won[0] | won[1]) if closes_won else full
            if target >= 0:
                b = target
                free = free9[xs[b] | os_[b]]
                c = free[int(rand() * len(free))]
            else:
                total = 0
                for bb in range(9):
                    if not closed >> bb & 1:
                        total += len(free9[xs[bb] | os_[bb]])
                pick = int(rand() * total)
                for b in range(9):
                    if not closed >> b & 1:
                        free = free9[xs[b] | os_[b]]
                        if pick < len(free):
                            c = free[pick]
                            break
                        pick -= len(free)
            mine = boards[side]
            m = mine[b] | (1 << c)
            mine[b] = m
            bit = 1 << b
            if win9[m] and not (won[0] | won[1]) & bit:
                won[side] |= bit
                if not multi and win9[won[side]]:
                    return "XO"[side]
                closed_now = True
            else:
                closed_now = False
            if xs[b] | os_[b] == ALL9:
                full |= bit
                closed_now = True
            if closed_now:
                closed = full | (won[0] | won[1]) if closes_won else full
                if closed == ALL9:
                    if multi:
                        nx, no = POPCOUNT9[won[0]], POPCOUNT9[won[1]]
                        return "X" if nx > no else "O" if no > nx else None
                    return None
            if multi:
                target = next_open[closed][c]
            else:
                target = -1 if closed >> c & 1 else c
            side ^= 1


class Ultimate(NestedVariant):
    key = "ultimate"
    title = "Ultimate"
    option_spec = {"closed_boards": (bool, False, None, None)}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.closes_won = self.options["closed_boards"]

    def describe(self) -> str:
        return "Ultimate, won boards closed" if self.closes_won else "Ultimate"

    def next_target(self, closed: int, cell: int) -> int:
        return -1 if closed >> cell & 1 else cell

    def result(self, xwon: int, owon: int, closed: int, mover: int) -> tuple[bool, int]:
        if WIN9[xwon if mover == 0 else owon]:
            return True, mover
        return closed == ALL9, -1


class Multi(NestedVariant):
    key = "multi"
    title = "Multi"
    option_spec = {"random_start": (bool, False, None, None)}
    closes_won = True

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

    def result(self, xwon: int, owon: int, closed: int, mover: int) -> tuple[bool, int]:
        if closed != ALL9:
            return False, -1
        nx, no = POPCOUNT9[xwon], POPCOUNT9[owon]
        return True, 0 if nx > no else 1 if no > nx else -1


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
    def to_move(self) -> str:
        return "X" if self.ply % 2 == 0 else "O"

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
            raise IllegalMove(f"board {b}, cell {c} (move {move}) is already taken by {owner}")
        if self.target >= 0 and b != self.target:
            raise IllegalMove(f"move {move} is on board {b}, but this move must be on board {self.target}")
        if self.closed >> b & 1:
            why = "full" if self.full >> b & 1 else f"won by {'X' if self.xwon >> b & 1 else 'O'}"
            raise IllegalMove(f"board {b} is closed ({why}); play on one of boards {self.active_boards}")
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

    def key(self) -> tuple[tuple[int, ...], tuple[int, ...], int, int, int]:
        """A hashable identity of the position (target and board owners decide what follows)."""
        return self.xs, self.os, self.target, self.xwon, self.owon

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NestedState) and (self.variant, self.key()) == (other.variant, other.key())

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<NestedState {self.variant.key} ply={self.ply} target={self.target} over={self.is_over}>"
