"""How the computer plays the Swap2 opening (games.engine.swap2), whatever its level or strategy (issue 33).

Every strategy hands the opening's own moves to ``play_swap2`` (``Strategy.choose``, through ``OPENING_PLAYERS``)
and plays the game that follows itself, on the stones' position:

- as the opener, it places an opening of ``BOOK``: three stones that came out near even when the computer played
  them out against itself (a random one of the book, turned by a random symmetry of the board);
- choosing after three stones, it takes the stones its evaluation prefers: the O stones when they stand better
  than even, else the X stones (it does not ask for two more stones: that would only hand the same question to
  the opener, on a position it measures less well);
- given the choice after another player's ``more``, it takes the better side by the same evaluation.

The evaluation is the ``gomoku`` search's value at depth ``EVAL_DEPTH`` for the side to move, which after three
stones (or five) is the O stones'. A search that stops after the X stones' reply leans to them, so the value at
which the two sides stand even is below zero: ``EVEN`` after three stones, measured on the "pro" openings that
split games between equal players (docs/ladder.md), and ``EVEN_FIVE`` after five (docs/ladder.md, "Swap2").
``python -m games.engine.strategies.openings`` prints the book's values and measured scores.
"""

from __future__ import annotations

import random
from typing import Any

from ..swap2 import CHOOSE, CHOOSE2, PLACE2, PLACE3, STAY, SWAP
from .base import OPENING_PLAYERS, Strategy
from .gomoku import GomokuStrategy

#: the depth of the evaluation's search (deterministic: a depth, not a time)
EVAL_DEPTH = 2
#: its time bound, seconds (a few hundredths are enough on an opening's few stones)
EVAL_SECONDS = 1.0
#: the value, for the O stones to move after three stones, at which the two sides stand even (the module's words)
EVEN = -200
#: ... and after five: the O stones won 8 of 9 games between equal players (level 7) from five-stone positions
#: valued -200 to -220 (docs/ladder.md, "Swap2")
EVEN_FIVE = -260

#: openings of three stones: the X stone, the O stone and the X stone, as (row, column) steps from the centre, with
#: the X stones' score when equal players play them out from the O stones' move (``scripts/swap2_book.py``: 32 games,
#: levels 6 and 7, the opening turned by the board's symmetries in turn; docs/ladder.md, "Swap2"). Three-stone
#: openings are far from even in practice (the X stones scored from 0 to 100 % over the 113 measured, 55 % on the
#: whole, the search's value telling little of it): the book keeps those that came out near even in play.
BOOK: tuple[tuple[tuple[tuple[int, int], tuple[int, int], tuple[int, int]], float], ...] = (
    (((0, 0), (0, 1), (4, -4)), 0.44),
    (((0, 0), (0, 2), (3, 0)), 0.44),
    (((0, 0), (2, 2), (0, 4)), 0.47),
    (((0, 0), (1, 2), (4, 4)), 0.47),
    (((0, 0), (1, 1), (2, 2)), 0.47),
    (((0, 0), (2, 2), (3, 3)), 0.44),
    (((0, 0), (1, 2), (-4, 2)), 0.44),
    (((0, 0), (2, 2), (2, 3)), 0.47),
    (((0, 0), (0, 1), (2, 4)), 0.47),
    (((0, 0), (1, 1), (-3, 1)), 0.47),
    (((0, 0), (0, 2), (0, -2)), 0.48),
    (((0, 0), (1, 1), (-3, -1)), 0.48),
    (((0, 0), (2, 2), (-4, -1)), 0.50),
    (((0, 0), (1, 2), (-1, -3)), 0.50),
    (((0, 0), (1, 2), (-3, 1)), 0.50),
    (((0, 0), (1, 2), (4, 2)), 0.52),
    (((0, 0), (1, 1), (3, 4)), 0.52),
    (((0, 0), (2, 2), (1, 3)), 0.56),
    (((0, 0), (0, 1), (4, -2)), 0.56),
    (((0, 0), (1, 1), (-2, -2)), 0.55),
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
    return [[_cell(board, turn(*step)) for step in opening] for opening, _score in BOOK for turn in SYMMETRIES]


def _stones(board: Any) -> tuple[list[int], list[int]]:
    cells = range(board.variant.cell_count)
    return [c for c in cells if board.x >> c & 1], [c for c in cells if board.o >> c & 1]


def _place_three(board: Any, rng: random.Random) -> int:
    """The opener's next stone: the next of a book opening that begins with the stones already placed."""
    xs, os = _stones(board)
    fits = [cells for cells in _book_moves(board) if cells[: len(xs)] == xs and cells[1: 1 + len(os)] == os]
    if fits:
        return rng.choice(fits)[board.ply]
    return _nearest_centre(board, rng)  # stones that begin no opening of the book


def _nearest_centre(board: Any, rng: random.Random) -> int:
    """The empty cell nearest the centre (ties at random): a stone of an opening the book does not know."""
    variant = board.variant
    return min(board.legal_moves(), key=lambda c: (
        abs(c // variant.cols - variant.rows // 2) + abs(c % variant.cols - variant.cols // 2), rng.random()
    ))


def play_swap2(state: Any, strategy: Strategy) -> int:
    """The move of the Swap2 opening ``strategy`` plays in ``state`` (still in its opening)."""
    seed = strategy.options.get("seed")
    rng = random.Random(None if seed is None else f"{seed}:{state.ply}")
    board = state.board
    n = state.variant.cell_count
    if state.phase == PLACE3:
        return _place_three(board, rng)
    if state.phase == PLACE2:  # (not after its own choice: it never asks for more)
        return _nearest_centre(board, rng)
    value = stone_value(board)  # for the O stones, to move
    if state.phase == CHOOSE:  # the second player, holding the O stones so far: keep them if they are better
        return n + (STAY if value > EVEN else SWAP)
    assert state.phase == CHOOSE2  # the opener, holding the X stones so far: take the O stones if they are better
    return n + (SWAP if value > EVEN_FIVE else STAY)


OPENING_PLAYERS["swap2"] = play_swap2


def book_values() -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """Each opening of the book with the evaluation's value (the O stones to move), on 15 x 15."""
    from ..variants import get_variant

    variant = get_variant("mnk", rows=15, cols=15, k=5)
    found = []
    for opening, _score in BOOK:
        board = variant.new_game()
        for step in opening:
            board = board.play(_cell(board, step))
        found.append((opening, stone_value(board)))
    return found


if __name__ == "__main__":  # pragma: no cover - a measurement
    for (opening, value), (_opening, score) in zip(book_values(), BOOK, strict=True):
        print(f"{opening}: value {value:+d} (even: {EVEN:+d}), the X stones scored {score:.0%} in play")
