"""Text drawing and move parsing for people at a terminal (the CLI, ``manage.py play``).

Pure functions of the engine's public face; no I/O. What people type:

* ``classic``: a cell number 1..9, row-major from the top-left (seed 000's "grid presented to the user").
* other grid variants: ``row col``, both counted from 1 (e.g. ``2 3``; ``2,3`` works too), or a single
  cell number 1..rows*cols counted row-major like classic.
* ``ultimate`` / ``multi``: ``board cell``, both 0..8 row-major (seeds 002 and 004), e.g. ``4 0``,
  ``4,0`` or just ``40``. When the move is sent to one board, the cell alone (``0``) is enough.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .core import IllegalMove, State, Variant

HELP_CLASSIC = "type a cell number 1-9 (as drawn on the board)"
HELP_NESTED = "type board and box, both 0-8, e.g. '4 0' or '40' (when sent to one board, the box alone)"
#: seed 002's "Diagram for a Box in any Board"
BOX_DIAGRAM = "+-------+\n| 0 1 2 |\n| 3 4 5 |\n| 6 7 8 |\n+-------+"


def move_help(variant: Variant) -> str:
    """One line telling people how to type a move in ``variant``."""
    if variant.nested:
        return HELP_NESTED
    if variant.key == "classic":
        return HELP_CLASSIC
    return (
        f"type row and column, e.g. '2 3' (rows 1-{variant.rows}, columns 1-{variant.cols}), "
        f"or a cell number 1-{variant.cell_count}"
    )


# --- drawing -----------------------------------------------------------------------------------------


def _mark(value: str | None, empty: str) -> str:
    return value if value is not None else empty


def render_board(state: State) -> str:
    """The board as text: classic as seed 000, other grids with row/column numbers, nested as seed 002."""
    variant = state.variant
    if variant.nested:
        return _render_nested(state)
    if variant.key == "classic":
        return _render_classic(state)
    return _render_grid(state)


def _render_classic(state: State) -> str:
    # Empty cells show the number to type, as in seed 000's user grid.
    cells = state.cells
    rows = [" " + " | ".join(_mark(cells[3 * r + c], str(3 * r + c + 1)) for c in range(3)) for r in range(3)]
    return ("\n" + "-" * 11 + "\n").join(rows)


def _render_grid(state: State) -> str:
    variant = state.variant
    cells = state.cells
    width = len(str(variant.cols)) + 1  # a space between columns even with two-digit numbers
    label_w = len(str(variant.rows))
    header = " " * (label_w + 1) + "".join(str(c + 1).rjust(width) for c in range(variant.cols))
    lines = [header]
    for r in range(variant.rows):
        row = "".join(_mark(cells[r * variant.cols + c], ".").rjust(width) for c in range(variant.cols))
        lines.append(str(r + 1).rjust(label_w) + " " + row)
    return "\n".join(lines)


def _render_nested(state: State) -> str:
    """Seed 002's ultimate diagram ('-' is an empty box); each board's number sits on the rule above it."""
    cells = state.cells
    winners = state.board_winners
    active = set(state.active_boards)
    lines = []
    for big_r in range(3):
        lines.append("+" + "+".join(f"-- {3 * big_r + big_c} --" for big_c in range(3)) + "+")
        for small_r in range(3):
            parts = []
            for big_c in range(3):
                b = 3 * big_r + big_c
                parts.append(" ".join(_mark(cells[9 * b + 3 * small_r + c], "-") for c in range(3)))
            lines.append("| " + " | ".join(parts) + " |")
    lines.append("+-------+-------+-------+")
    # A summary of the big board: who owns which board, which boards the next move may use.
    summary = []
    for b in range(9):
        if winners[b] is not None:
            summary.append(f"{b}:{winners[b]}")
        elif None not in cells[9 * b: 9 * b + 9]:
            summary.append(f"{b}:full")
    if summary:
        lines.append("won/full boards: " + "  ".join(summary))
    if not state.is_over and len(active) < 9:
        lines.append("next move on board " + ", ".join(str(b) for b in sorted(active)))
    return "\n".join(lines)


# --- labels and lists --------------------------------------------------------------------------------


def move_label(variant: Variant, move: int) -> str:
    """The move as people type it: '5' (classic), '2 3' (row col), '4 0' (board cell)."""
    if variant.nested:
        board, cell = divmod(move, 9)
        return f"{board} {cell}"
    if variant.key == "classic":
        return str(move + 1)
    row, col = divmod(move, variant.cols)
    return f"{row + 1} {col + 1}"


def legal_moves_text(state: State, limit: int = 40) -> str:
    """The legal moves in people's terms; nested as seed 002's "available boxes" per board."""
    if state.is_over:
        return "no moves: the game is over"
    variant = state.variant
    moves = state.legal_moves()
    if variant.nested:
        by_board: dict[int, list[int]] = {}
        for m in moves:
            by_board.setdefault(m // 9, []).append(m % 9)
        if len(by_board) == 1:
            ((b, cells),) = by_board.items()
            return f"available boxes on board {b}: {' '.join(map(str, cells))}"
        # one line per board, as seed 002 printed them; a board with all nine free just says so
        parts = [
            f"  board {b}: {'all' if len(cells) == 9 else ' '.join(map(str, cells))}" for b, cells in by_board.items()
        ]
        return "available boxes:\n" + "\n".join(parts)
    if len(moves) > limit:
        return f"available: any of the {len(moves)} empty cells (shown as '.')"
    if variant.key == "classic":
        return "available: " + " ".join(move_label(variant, m) for m in moves)
    return "available (row col): " + ", ".join(move_label(variant, m) for m in moves)


def result_text(state: State) -> str:
    """'X wins', 'O wins' or 'Draw' (the words of the web page), with the board count for multi."""
    if not state.is_over:
        return f"{state.to_move} to move"
    words = f"{state.winner} wins" if state.winner else "Draw"
    if state.variant.key == "multi":
        owners = state.board_winners
        words += f" (boards won: X {owners.count('X')}, O {owners.count('O')})"
    return words


def move_table(variant: Variant, moves: Sequence[int]) -> str:
    """The moves in seed 004's table style: Play No. | Player | Board | Position (no Board for grids)."""
    heads = ["Play No.", "Player", "Board", "Position"] if variant.nested else ["Play No.", "Player", "Position"]
    rows: list[list[str]] = []
    for i, move in enumerate(moves):
        side = "X" if i % 2 == 0 else "O"
        if variant.nested:
            rows.append([str(i + 1), side, str(move // 9), str(move % 9)])
        else:
            rows.append([str(i + 1), side, move_label(variant, move)])
    widths = [max([len(h) + 2] + [len(r[j]) + 2 for r in rows]) for j, h in enumerate(heads)]
    inner = sum(widths) + len(widths) - 1
    rule = "|" + "-" * inner + "|"

    def line(values: Sequence[str]) -> str:
        return "|" + "|".join(v.center(w) for v, w in zip(values, widths, strict=True)) + "|"

    out = [rule, line(heads), "|" + "|".join("-" * w for w in widths) + "|"]
    out += [line(r) for r in rows]
    out.append(rule)
    return "\n".join(out)


# --- parsing -----------------------------------------------------------------------------------------

_SPLIT = re.compile(r"[\s,;:/]+")


def _whole_numbers(text: str, what: str) -> list[int]:
    parts = [p for p in _SPLIT.split(text.strip()) if p]
    if not parts:
        raise ValueError(f"no move typed: {what}")
    numbers = []
    for p in parts:
        if p.startswith("-") and p[1:].isdigit():
            raise ValueError(f"{p} is out of range (no negative numbers): {what}")
        if not (p.isascii() and p.isdigit()):  # no signs, letters, fractions or exotic digits
            raise ValueError(f"{text.strip()!r} is not a move: {what}")
        numbers.append(int(p))
    return numbers


def parse_move(variant: Variant, text: str, state: State | None = None) -> int:
    """People's text -> the engine's move number; ValueError with a clear message for anything else.

    Checks only the numbering (what a move can be in this variant). ``state``, if given, lets a
    nested move be typed as the cell alone when only one board is playable; use ``read_move`` to
    check the move against the position too.
    """
    if text is None:
        raise ValueError("no move typed")
    help_text = move_help(variant)
    numbers = _whole_numbers(text, help_text)
    if variant.nested:
        if len(numbers) == 1 and len(text.strip()) == 2 and text.strip().isdigit():
            numbers = [numbers[0] // 10, numbers[0] % 10]  # '40' -> board 4, cell 0
        if len(numbers) == 1:
            active = state.active_boards if state is not None else []
            if len(active) == 1:
                numbers = [active[0], numbers[0]]
            else:
                raise ValueError(f"{text.strip()!r}: give the board and the cell; {help_text}")
        if len(numbers) != 2:
            raise ValueError(f"{text.strip()!r}: give exactly a board and a cell; {help_text}")
        board, cell = numbers
        if board > 8:
            raise ValueError(f"there is no board {board}: boards are numbered 0-8")
        if cell > 8:
            raise ValueError(f"there is no box {cell}: boxes are numbered 0-8")
        return 9 * board + cell
    if len(numbers) == 1:
        (n,) = numbers
        if not 1 <= n <= variant.cell_count:
            raise ValueError(f"there is no cell {n}: cells are numbered 1-{variant.cell_count}")
        return n - 1
    if len(numbers) == 2 and variant.key != "classic":
        row, col = numbers
        if not 1 <= row <= variant.rows:
            raise ValueError(f"there is no row {row}: rows are numbered 1-{variant.rows}")
        if not 1 <= col <= variant.cols:
            raise ValueError(f"there is no column {col}: columns are numbered 1-{variant.cols}")
        return (row - 1) * variant.cols + col - 1
    raise ValueError(f"{text.strip()!r} is not a move: {help_text}")


def explain_illegal(state: State, move: int) -> str | None:
    """Why ``move`` cannot be played now, in people's terms; None if it is legal."""
    if state.is_over:
        return "the game is over"
    if move in state.legal_moves():
        return None
    variant = state.variant
    owner = state.cells[move] if 0 <= move < len(state.cells) else None
    if variant.nested:
        board, cell = divmod(move, 9)
        active = state.active_boards
        if owner is not None:
            return f"board {board}, box {cell} is already taken by {owner}"
        if board not in active:
            if len(active) == 1:
                return f"you must play on board {active[0]} (you were sent there), not board {board}"
            return f"board {board} is closed; play on board {', '.join(map(str, active))}"
    elif owner is not None:
        return f"{move_label(variant, move)} is already taken by {owner}"
    try:  # whatever else: the engine's own reason
        state.play(move)
    except IllegalMove as exc:
        return str(exc)
    return None  # pragma: no cover - legal after all


def read_move(state: State, text: str) -> int:
    """Parse ``text`` and check it against ``state``: a legal move, or ValueError with a clear message."""
    move = parse_move(state.variant, text, state)
    problem = explain_illegal(state, move)
    if problem:
        raise ValueError(problem)
    return move
