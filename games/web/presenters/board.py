"""The board as the templates draw it (``games/board.html#board``): one small dict per cell, named by its cell name.

The web contract (DESIGN.md): every cell carries ``data-cell`` and ``data-mark``; a cell the viewer may play now
is a button with ``data-move`` (and ``data-name``, its cell name, which board.js says after a first tap). A cell
is a tuple the template unpacks, because a 19 x 19 board has 361 of them; ``cells_html`` draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.safestring import SafeString

from ...engine import State
from ...pov import GameView
from .drawn import draw_each

#: frame classes by the longer side of a grid board: big cells for classic, none to spare on 19 x 19
SIZE_CLASSES = ((5, "small"), (10, "medium"))


def size_class(rows: int, cols: int) -> str:
    longest = max(rows, cols)
    return next((name for limit, name in SIZE_CLASSES if longest <= limit), "large")


def column_letters(cols: int) -> list[str]:
    """The letters along a board's top edge, as cell names use them: a, b, c, ... (``i`` included)."""
    return [chr(ord("a") + c) for c in range(cols)]


#: a cell as the template draws it: move (as text), mark, name, playable, hint, extra classes, label
Cell = tuple[str, str, str, bool, bool, str, str]


def _cells(
    state: State, moves: range, *, playable: set[int], last: int | None, hint: int | None, winning: set[int],
    extra: Any = None,
) -> list[Cell]:
    """One tuple per cell, as ``games/board.html#cells`` unpacks it: the move (as text), its mark, its name, whether
    it is playable, whether it is the hint, extra classes, and its label; ``extra(move)``: help after the name in
    the label ("keypad 5", "board 5")."""
    variant, marks = state.variant, state.cells
    cells = []
    for m in moves:
        mark = marks[m] or ""
        name = variant.cell_name(m)
        label = f"{name} ({extra(m)})" if extra else name
        if m in playable:
            if m == hint:
                cells.append((str(m), "", name, True, True, " hint", f"{label}, empty, suggested"))
            else:
                cells.append((str(m), "", name, True, False, "", f"{label}, empty"))
            continue
        classes = f" mark-{mark.lower()}" if mark else ""
        label = f"{label}, {mark or 'empty'}"
        if m == last:
            classes += " last"
        if m in winning:  # a cell of the line that won the game
            classes += " win"
            label += ", in the winning line"
        cells.append((str(m), mark, name, False, False, classes, label))
    return cells


def cells_html(cells: Sequence[Cell]) -> SafeString:
    """The cells as ``games/board.html#cells`` draws them, each distinct cell drawn once per process (drawn.py)."""
    return draw_each("games/board.html#cells", "cells", cells)


def board_context(
    state: State, *, playable: set[int] | None = None, last: int | None = None, hint: int | None = None,
    live: bool = False, running: bool = False,
) -> dict[str, Any]:
    """What ``games/board.html#board`` draws for ``state``. ``playable``: the cells the viewer may play now;
    ``last``: the move to mark (the state's own last move by default); ``live``: the game page, where a nested
    board shows where the next move goes (``running``: while the game is being played)."""
    variant = state.variant
    playable = playable or set()
    if last is None:
        last = getattr(state, "last_move", None)
    winning = set(state.winning_cells)
    if variant.nested:
        active = set(state.active_boards)
        # A move sent to one board marks it; a free choice (the first move, a move sent to a full board) marks
        # none: nine ringed boards say nothing but look busy.
        marked = active if len(active) == 1 else set()
        winners = state.board_winners
        winning_boards = set(state.winning_boards)
        boards = [
            {
                "index": b,
                "number": b + 1,  # "board 5" is the centre, as on a keypad
                "winner": winners[b] or "",
                "winning": b in winning_boards,
                "active": b in marked and (not live or bool(playable)),
                # on the live page, for whoever is not to move: where the next move will be, without inviting a click
                "next": live and not playable and b in marked and not state.is_over and running,
                "cells": cells_html(_cells(state, range(9 * b, 9 * b + 9), playable=playable, last=last, hint=hint,
                                           winning=winning, extra=lambda m: f"board {m // 9 + 1}")),
            }
            for b in range(9)
        ]
        score = {"x": winners.count("X"), "o": winners.count("O")}  # multi is won on it; ultimate shows it too
        # the edges name the cells as one 9 x 9 board, in three groups: one per column (row) of small boards
        letters, numbers = column_letters(9), [str(n) for n in range(9, 0, -1)]
        return {
            "nested": True, "boards": boards, "interactive": bool(playable), "score": score,
            "anywhere": len(active) > 1 and not state.is_over,
            "col_groups": [letters[i:i + 3] for i in (0, 3, 6)], "row_groups": [numbers[i:i + 3] for i in (0, 3, 6)],
        }
    rows, cols = variant.rows, variant.cols
    keypad = (lambda m: f"keypad {m + 1}") if variant.key == "classic" else None
    return {
        "nested": False,
        "cells": cells_html(_cells(state, range(variant.cell_count), playable=playable, last=last, hint=hint,
                                   winning=winning, extra=keypad)),
        "rows": rows,
        "cols": cols,
        "size_class": size_class(rows, cols),
        "interactive": bool(playable),
        "col_labels": column_letters(cols),
        "coords": coords_html(rows, cols),
    }


def coords_html(rows: int, cols: int) -> SafeString:
    """A grid board's edges as ``games/board.html#coords`` draws them, once per board size (drawn.py): they name the
    cells as the move list does, letters from the left and numbers from the bottom."""
    return draw_each("games/board.html#coords", "frames", [(tuple(column_letters(cols)), tuple(range(rows, 0, -1)))])


def live_board(view: GameView) -> dict[str, Any]:
    """The game page's board for its viewer: their playable cells, the hint they asked for."""
    state = view.position.state
    playable = set(state.legal_moves()) if view.can_move else set()
    return board_context(state, playable=playable, hint=view.hint, live=True, running=view.running)
