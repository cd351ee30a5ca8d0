"""The board's cells and the game page's move rows are drawn by their partials once per distinct item and remembered
(presenters/drawn.py): the answer must be exactly what the template draws for the whole board or list, on every
kind of board and cell."""

from __future__ import annotations

import pytest
from django.template.loader import get_template

from games.engine import get_variant
from games.web.presenters import board as presenter
from games.web.presenters.drawn import _drawn, draw_each
from games.web.presenters.moves import move_pairs


def _drawn_by_the_template(cells):
    return get_template("games/board.html#cells").render({"cells": cells})


@pytest.mark.parametrize(("key", "options", "moves"), [
    ("classic", {}, [4, 0, 8, 2, 6, 1]),  # O has won: winning cells, the last move, marks
    ("mnk", {"rows": 15, "cols": 15, "k": 5}, [112, 113, 97]),
    ("ultimate", {}, [40, 36, 4]),
])
def test_remembered_cells_are_the_templates_own(settings, key, options, moves):
    settings.DEBUG = False
    state = get_variant(key, **options).new_game()
    for move in moves:
        state = state.play(move)
    playable = set(state.legal_moves()) if not state.is_over else set()
    cells = presenter._cells(state, range(state.variant.cell_count), playable=playable, last=moves[-1],
                             hint=min(playable) if playable else None, winning=set(state.winning_cells))
    _drawn.cache_clear()
    first = presenter.cells_html(cells)
    assert first == _drawn_by_the_template(cells)
    misses = _drawn.cache_info().misses
    assert presenter.cells_html(cells) == first  # again: every cell from memory, none drawn anew
    assert _drawn.cache_info().misses == misses
    assert _drawn.cache_info().hits >= len(cells)


def test_under_debug_every_cell_is_drawn_by_the_template(settings):
    settings.DEBUG = True
    state = get_variant("classic").new_game().play(4)
    cells = presenter._cells(state, range(9), playable={0, 1}, last=4, hint=None, winning=set())
    _drawn.cache_clear()
    assert presenter.cells_html(cells) == _drawn_by_the_template(cells)
    assert _drawn.cache_info().currsize == 0


def test_move_rows_too(settings):
    settings.DEBUG = False
    rows = move_pairs([(1, "X", "x", "b2", ""), (2, "O", "o", "a3", ""), (3, "X", "x", "c1", "")])  # 1. b2 a3 2. c1
    expected = get_template("games/board.html#move_rows").render({"moves": rows})
    assert expected.count("<tr ") == 2 and '<td class="move-name" data-ply="3">c1</td>' in expected
    _drawn.cache_clear()
    assert draw_each("games/board.html#move_rows", "moves", rows) == expected
    assert draw_each("games/board.html#move_rows", "moves", rows) == expected
    assert _drawn.cache_info().hits == len(rows)


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (15, 15), (6, 7)])
def test_a_board_s_edges_are_drawn_once_per_size(settings, rows, cols):
    """The letters and numbers round a grid board: what the template draws, from memory after the first time."""
    settings.DEBUG = False
    letters = [chr(ord("a") + i) for i in range(cols)]
    expected = get_template("games/board.html#coords").render({"frames": [(letters, range(rows, 0, -1))]})
    assert f"<span>{letters[-1]}</span></div>" in expected and f"<span>{rows}</span><span>{rows - 1}</span>" in expected
    _drawn.cache_clear()
    assert presenter.coords_html(rows, cols) == expected
    assert presenter.coords_html(rows, cols) == expected
    assert _drawn.cache_info().hits == 1
    board = get_template("games/board.html#board").render(
        {"board": presenter.board_context(get_variant("mnk", rows=rows, cols=cols, k=3).new_game())})
    assert expected in board and board.count('class="coords coords-') == 2
