"""How the computer plays the Swap2 opening (games.engine.swap2), whatever its level or strategy (issue 33).

Every strategy hands the opening's own moves to ``play_swap2`` (``Strategy.choose``, through ``OPENING_PLAYERS``)
and plays the game that follows itself, on the stones' position:

- as the opener, it places an opening of ``BOOK``: three stones its evaluation finds near even (a random one of
  the book, turned by a random symmetry of the board);
- choosing (``stay``, ``swap``, ``more``), it takes the stones its evaluation prefers: the O stones when they stand
  better than even, the X stones when worse; near even (first choice only) it places two more stones, picked to
  keep the position near even, and hands the choice back;
- given the choice back after ``more``, it takes the better side by the same evaluation.

The evaluation is the ``gomoku`` search's value at depth ``EVAL_DEPTH`` for the side to move, which after the
opener's three stones (or five) is the O stones: ``EVEN`` is where the two sides stand even, measured on the
"pro" openings that split games between equal players (docs/ladder.md, "Swap2"). ``python -m
games.engine.strategies.openings`` prints the book's values.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from ..swap2 import CHOOSE, CHOOSE2, MORE, PLACE2, PLACE3, STAY, SWAP
from .base import OPENING_PLAYERS, Strategy
from .gomoku import GomokuStrategy
from .gomoku_board import Board, shape_for

#: the depth of the evaluation's search (deterministic: a depth, not a time)
EVAL_DEPTH = 2
#: its time bound, seconds (a few hundredths are enough on an opening's few stones)
EVAL_SECONDS = 1.0
#: the value, for the O stones to move, at which the two sides stand even (see the module's words)
EVEN = -200
#: within this of even the chooser places two more stones rather than take a side
MARGIN = 25
#: two more stones: the candidates tried for the O stone and then for the X stone, by the search's pattern scores
MORE_CANDIDATES = (6, 4)

#: openings of three stones: the X stone, the O stone and the X stone, as (row, column) steps from the centre, each
#: with the value ``book_values`` measured (within ``MARGIN`` of ``EVEN``)
BOOK: tuple[tuple[tuple[int, int], tuple[int, int], tuple[int, int]], ...] = (
    ((0, 0), (0, 1), (-4, -1)),
    ((0, 0), (0, 1), (4, -1)),
    ((0, 0), (1, 1), (-4, -3)),
    ((0, 0), (1, 1), (4, 1)),
    ((0, 0), (1, 1), (-4, -1)),
    ((0, 0), (1, 1), (-1, -4)),
    ((0, 0), (1, 1), (1, 4)),
    ((0, 0), (0, 2), (-3, 4)),
    ((0, 0), (0, 2), (4, 0)),
    ((0, 0), (1, 2), (4, 1)),
    ((0, 0), (1, 2), (-3, 2)),
    ((0, 0), (2, 2), (3, -2)),
    ((0, 0), (2, 2), (-3, 3)),
)

#: the eight symmetries of a square around its centre, as functions of a step (row, column)
SYMMETRIES = (
    lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
    lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (c, r), lambda r, c: (-c, -r),
)


def stone_value(board: Any) -> int:
    """The ``gomoku`` search's value of the stones' position ``board`` (a freestyle GridState) for its side to move,
    at ``EVAL_DEPTH``: higher is better for that side. A forced win found is a large value."""
    search = GomokuStrategy(depth=EVAL_DEPTH, seconds=EVAL_SECONDS, vct=True)
    _move, reason = search.analyse(board)
    if reason in ("win", "open four", "vcf", "vct"):
        return 10_000
    return search.last_score if search.last_score is not None else EVEN


def _cell(board: Any, step: tuple[int, int]) -> int:
    variant = board.variant
    return (variant.rows // 2 + step[0]) * variant.cols + variant.cols // 2 + step[1]


def _book_moves(board: Any) -> list[list[int]]:
    """Every opening of the book, under every symmetry, as its three cells."""
    return [[_cell(board, turn(*step)) for step in opening] for opening in BOOK for turn in SYMMETRIES]


def _stones(board: Any) -> tuple[list[int], list[int]]:
    cells = range(board.variant.cell_count)
    return [c for c in cells if board.x >> c & 1], [c for c in cells if board.o >> c & 1]


def _place_three(board: Any, rng: random.Random) -> int:
    """The opener's next stone: the next of a book opening that begins with the stones already placed."""
    xs, os = _stones(board)
    fits = [cells for cells in _book_moves(board) if cells[: len(xs)] == xs and cells[1: 1 + len(os)] == os]
    if fits:
        return rng.choice(fits)[board.ply]
    # stones that begin no opening of the book (another player placed them): the empty cell nearest the centre
    variant = board.variant
    return min(board.legal_moves(), key=lambda c: (
        abs(c // variant.cols - variant.rows // 2) + abs(c % variant.cols - variant.cols // 2), rng.random()
    ))


def _candidates(board: Any, count: int) -> list[int]:
    """The ``count`` empty cells the search's patterns rate best for the side to move."""
    variant = board.variant
    scan = Board(shape_for(variant.rows, variant.cols, variant.k), board.x, board.o).scan(board.ply & 1)
    ranked = sorted(scan, key=lambda e: -(e[2] + e[4] * 0.9))
    return [e[0] for e in ranked[:count]]


def _place_two(board: Any, rng: random.Random) -> int:
    """The next of the two more stones (an O stone, then an X stone): the one that leaves the position nearest
    even once both are placed."""
    best: list[tuple[float, int]] = []
    firsts = [None] if board.ply == 4 else _candidates(board, MORE_CANDIDATES[0])
    for first in firsts:
        after_first = board if first is None else board.play(first)
        for second in _candidates(after_first, MORE_CANDIDATES[1]):
            value = stone_value(after_first.play(second))
            best.append((abs(value - EVEN) + rng.random(), second if first is None else first))
    return min(best)[1]


def play_swap2(state: Any, strategy: Strategy) -> int:
    """The move of the Swap2 opening ``strategy`` plays in ``state`` (still in its opening)."""
    seed = strategy.options.get("seed")
    rng = random.Random(None if seed is None else f"{seed}:{state.ply}")
    board = state.board
    n = state.variant.cell_count
    if state.phase == PLACE3:
        return _place_three(board, rng)
    if state.phase == PLACE2:
        return _place_two(board, rng)
    value = stone_value(board)  # for the O stones, to move
    if state.phase == CHOOSE:  # the second player: O's stones so far
        if value > EVEN + MARGIN:
            return n + STAY
        if value < EVEN - MARGIN:
            return n + SWAP
        return n + MORE
    assert state.phase == CHOOSE2  # the opener, holding the X stones so far
    return n + (SWAP if value > EVEN else STAY)


OPENING_PLAYERS["swap2"] = play_swap2


def book_values() -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """Each opening of the book with its value (the O stones to move), on 15 x 15."""
    from ..variants import get_variant

    variant = get_variant("mnk", rows=15, cols=15, k=5)
    found = []
    for opening in BOOK:
        board = variant.new_game()
        for step in opening:
            board = board.play(_cell(board, step))
        found.append((opening, stone_value(board)))
    return found


if __name__ == "__main__":  # pragma: no cover - a measurement
    for opening, value in book_values():
        print(f"{opening}: {value:+d} (even: {EVEN:+d})", file=sys.stdout)
