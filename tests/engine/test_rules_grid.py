"""The rules of RULES.md for the grid variants (classic, four, n x n, m,n,k), checked against the engine: which
lines win and which cells won, no line across an edge, a full board drawn."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import State, get_variant
from tests.engine.test_rules import _play

# --- grid win detection ------------------------------------------------------------------------------


def _with_marks(variant_key: str, x_cells: list[int], o_cells: list[int], **options: Any) -> State:
    """Alternate X and O moves from the two lists (X's list is one longer or equal)."""
    state = get_variant(variant_key, **options).new_game()
    for i, cell in enumerate(x_cells):
        state = state.play(cell)
        if i < len(o_cells):
            state = state.play(o_cells[i])
    return state


@pytest.mark.parametrize(
    "line", [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
)
def test_classic_lines(line: list[int]) -> None:
    others = [c for c in range(9) if c not in line]
    # O's two marks cannot make a line; X's third move completes the line
    state = _with_marks("classic", line, others[:2])
    assert state.is_over and state.winner == "X"
    assert state.winning_cells == tuple(sorted(line))


def test_winning_cells() -> None:
    # one move can make two lines: X's 0 completes the top row and the left column
    state = _play("classic", [1, 4, 2, 5, 3, 7, 6, 8, 0])
    assert state.winner == "X" and state.winning_cells == (0, 1, 2, 3, 6)
    assert _play("classic", [0, 4, 8]).winning_cells == ()  # not over
    assert _play("classic", [0, 1, 2, 4, 3, 5, 7, 6, 8]).winning_cells == ()  # a draw
    # gomoku: six in a row is a win, and all six are the line
    x_cells, o_cells = [0, 1, 2, 3, 5, 4], [100, 122, 144, 166, 188]
    state = _with_marks("mnk", x_cells, o_cells, rows=15, cols=15, k=5)
    assert state.winner == "X" and state.winning_cells == (0, 1, 2, 3, 4, 5)


def test_classic_o_wins() -> None:
    state = _with_marks("classic", [0, 1, 8], [3, 4, 5])
    assert state.is_over and state.winner == "O" and state.ply == 6


def test_no_win_before_the_line_is_complete() -> None:
    state = _with_marks("classic", [0, 1], [3, 4])
    assert not state.is_over and state.winner is None


@pytest.mark.parametrize(
    "x_cells",
    [
        [6, 7, 8],  # row, off the left edge
        [2, 7, 12],  # column
        [0, 6, 12],  # diagonal from the corner
        [8, 12, 16],  # anti-diagonal in the middle
        [14, 18, 22],  # anti-diagonal ending on the bottom row
    ],
)
def test_mnk_three_in_a_row_on_five_by_five(x_cells: list[int]) -> None:
    o_cells = [24, 20]
    state = _with_marks("mnk", x_cells, o_cells, rows=5, cols=5, k=3)
    assert state.is_over and state.winner == "X"


def test_mnk_no_wraparound() -> None:
    # 3, 4 end row 0 and 5 starts row 1: not a line; nor 4, 8, 12 ... on a 5-wide board diagonal wrap
    state = _with_marks("mnk", [3, 4, 5], [20, 21], rows=5, cols=5, k=3)
    assert not state.is_over
    state = _with_marks("mnk", [4, 8, 12], [0, 1], rows=5, cols=5, k=3)
    assert state.is_over  # 4, 8, 12 is a true anti-diagonal (0,4), (1,3), (2,2)
    state = _with_marks("mnk", [9, 10, 11], [0, 1], rows=4, cols=5, k=3)  # (1,4), (2,0), (2,1)
    assert not state.is_over


def test_mnk_rectangular_and_k_equal_to_long_side() -> None:
    state = _with_marks("mnk", [0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10], rows=3, cols=6, k=6)
    assert state.is_over and state.winner == "X"
    variant = get_variant("mnk", rows=3, cols=6, k=4)
    assert variant.cell_count == 18
    state = _with_marks("mnk", [0, 6, 12], [1, 2], rows=3, cols=6, k=3)
    assert state.winner == "X"


def test_nxn_full_row_needed() -> None:
    state = _with_marks("nxn", [0, 1, 2, 3], [5, 6, 7], size=5)
    assert not state.is_over
    state = state.play(8).play(4)
    assert state.is_over and state.winner == "X"


def test_grid_draw_on_full_board() -> None:
    state = get_variant("four").new_game()
    # a 4 x 4 filling with no four in a row: rows XXOO / OOXX / XXOO / OOXX
    pattern = "XXOOOOXXXXOOOOXX"
    xs = [i for i, p in enumerate(pattern) if p == "X"]
    os_ = [i for i, p in enumerate(pattern) if p == "O"]
    for a, b in zip(xs, os_, strict=True):
        state = state.play(a).play(b)
    assert state.is_over and state.winner is None and state.legal_moves() == []
