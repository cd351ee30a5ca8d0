"""Text drawing and move parsing for people at a terminal (the CLI, ``manage.py play``).

Pure functions of the engine's public face; no I/O. People type cell names (RULES.md "Cell names"):
a column letter from the left and a row number from the bottom, like a chess board, e.g. ``b2`` (classic's
centre), ``h8`` (the centre of 15 x 15), ``e5`` (the centre of ultimate's 9 x 9). Case and surrounding spaces
do not matter. Classic also takes its keypad numbers 1..9, row-major from the top-left (seed 000's
"grid presented to the user"), which its empty cells show.
"""

from __future__ import annotations

from collections.abc import Sequence

from .core import IllegalMove, InvalidCellName, State, Variant, column_letter
from .nested import BOARD_NAMES, board_label


def _range(variant: Variant) -> str:
    return f"columns a-{column_letter(variant.cols - 1)}, rows 1-{variant.rows}"


def move_help(variant: Variant) -> str:
    """One line telling people how to type a move in ``variant``."""
    if variant.key == "classic":
        return "type a cell name such as 'b2' (columns a-c, rows 1-3), or its number 1-9 as drawn"
    centre = variant.cell_name((variant.rows // 2) * variant.cols + variant.cols // 2)
    return f"type a cell name such as '{centre}' ({_range(variant)}, like a chess board)"


# --- drawing -----------------------------------------------------------------------------------------


def _mark(value: str | None, empty: str) -> str:
    return value if value is not None else empty


def render_board(state: State) -> str:
    """The board as text, named like a chess board: column letters along the top and bottom, row numbers
    counted from the bottom on both sides. Classic keeps seed 000's look (empty cells show 1-9); nested
    variants are one 9 x 9 board with the small boards ruled off, as seed 002 drew them."""
    variant = state.variant
    if variant.nested:
        return _render_nested(state)
    if variant.key == "classic":
        return _render_classic(state)
    return _render_grid(state)


def _render_classic(state: State) -> str:
    # Empty cells show the number that may be typed, as in seed 000's user grid.
    cells = state.cells
    lines = []
    for r in range(3):
        if r:
            lines.append("  ---+---+---")
        marks = " | ".join(_mark(cells[3 * r + c], str(3 * r + c + 1)) for c in range(3))
        lines.append(f"{3 - r}  {marks}")
    lines.append("   a   b   c")
    return "\n".join(lines)


def _render_grid(state: State) -> str:
    variant = state.variant
    cells = state.cells
    label_w = len(str(variant.rows))
    letters = " " * label_w + " " + "".join(f" {column_letter(c)}" for c in range(variant.cols))
    lines = [letters]
    for r in range(variant.rows):
        number = str(variant.rows - r)
        row = "".join(" " + _mark(cells[r * variant.cols + c], ".") for c in range(variant.cols))
        lines.append(f"{number.rjust(label_w)} {row}  {number}")
    lines.append(letters)
    return "\n".join(lines)


def _render_nested(state: State) -> str:
    """One 9 x 9 board, columns a-i and rows 9..1 ('-' is an empty cell), the small boards ruled off."""
    cells = state.cells
    winners = state.board_winners
    active = set(state.active_boards)
    letters = "    " + "   ".join(" ".join(column_letter(3 * bc + c) for c in range(3)) for bc in range(3))
    rule = "  +-------+-------+-------+"
    lines = [letters]
    for big_r in range(3):
        lines.append(rule)
        for small_r in range(3):
            parts = []
            for big_c in range(3):
                b = 3 * big_r + big_c
                parts.append(" ".join(_mark(cells[9 * b + 3 * small_r + c], "-") for c in range(3)))
            number = 9 - (3 * big_r + small_r)
            lines.append(f"{number} | " + " | ".join(parts) + f" | {number}")
    lines += [rule, letters]
    # A summary of the big board: who owns which board, which boards the next move may use.
    summary = []
    for b in range(9):
        if winners[b] is not None:
            summary.append(f"{BOARD_NAMES[b]}: {winners[b]}")
        elif None not in cells[9 * b: 9 * b + 9]:
            summary.append(f"{BOARD_NAMES[b]}: full")
    if summary:
        lines.append("won/full boards: " + ", ".join(summary))
    if not state.is_over and len(active) < 9:
        lines.append("next move on " + ", ".join(board_label(b) for b in sorted(active)))
    return "\n".join(lines)


# --- labels and lists --------------------------------------------------------------------------------


def move_label(variant: Variant, move: int) -> str:
    """The move's cell name, as people type it and every move list shows it: 'b2', 'h8', 'e5'."""
    return variant.cell_name(move)


def legal_moves_text(state: State, limit: int = 40) -> str:
    """The legal moves by cell name; nested variants per small board, as seed 002 listed its "available boxes"."""
    if state.is_over:
        return "no moves: the game is over"
    variant = state.variant
    moves = state.legal_moves()
    if variant.nested:
        by_board: dict[int, list[int]] = {}
        for m in moves:
            by_board.setdefault(m // 9, []).append(m)
        if len(by_board) == 1:
            ((b, cells),) = by_board.items()
            return f"available on {board_label(b)}: {' '.join(variant.cell_name(m) for m in cells)}"
        # one line per board, as seed 002 printed them; a board with all nine free just says so
        parts = [
            f"  {board_label(b)}: {'all' if len(cells) == 9 else ' '.join(variant.cell_name(m) for m in cells)}"
            for b, cells in by_board.items()
        ]
        return "available:\n" + "\n".join(parts)
    if len(moves) > limit:
        return f"available: any of the {len(moves)} empty cells (shown as '.'), {_range(variant)}"
    return "available: " + " ".join(variant.cell_name(m) for m in moves)


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
    """The moves in seed 004's table style: Play No. | Player | Cell (nested: and the small board's number)."""
    heads = ["Play No.", "Player", "Cell", "Board"] if variant.nested else ["Play No.", "Player", "Cell"]
    rows: list[list[str]] = []
    for i, move in enumerate(moves):
        row = [str(i + 1), "X" if i % 2 == 0 else "O", variant.cell_name(move)]
        rows.append(row + [str(move // 9)] if variant.nested else row)
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


def parse_move(variant: Variant, text: str) -> int:
    """People's text -> the engine's move number: a cell name (classic: or its number 1-9).

    Checks only that the text names a cell of this board (ValueError with the board's range otherwise);
    use ``read_move`` to check the move against the position too.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"no move typed: {move_help(variant)}")
    if variant.key == "classic":
        typed = text.strip()
        if typed.isascii() and typed.isdigit():
            if 1 <= int(typed) <= 9:
                return int(typed) - 1
            raise ValueError(f"there is no cell {typed}: classic's cells are a1-c3, or numbered 1-9 as drawn")
        try:
            return variant.parse_cell(text)
        except InvalidCellName as exc:
            raise InvalidCellName(f"{exc} (or a number 1-9 as drawn)") from None
    return variant.parse_cell(text)


def explain_illegal(state: State, move: int) -> str | None:
    """Why ``move`` cannot be played now, in cell names; None if it is legal."""
    if state.is_over:
        return "the game is over"
    if move in state.legal_moves():
        return None
    variant = state.variant
    name = variant.cell_name(move)
    owner = state.cells[move]
    if owner is not None:
        return f"{name} is already taken by {owner}"
    if variant.nested:
        board = move // 9
        active = state.active_boards
        if board not in active:
            if len(active) == 1:
                return f"you must play on {board_label(active[0])}, where you were sent; {name} is not on it"
            return (
                f"{name} is on {board_label(board)}, which is closed; play on "
                + ", ".join(BOARD_NAMES[b] for b in active)
            )
    try:  # whatever else: the engine's own reason
        state.play(move)
    except IllegalMove as exc:
        return str(exc)
    return None  # pragma: no cover - legal after all


def read_move(state: State, text: str) -> int:
    """Parse ``text`` and check it against ``state``: a legal move, or ValueError with a clear message."""
    move = parse_move(state.variant, text)
    problem = explain_illegal(state, move)
    if problem:
        raise ValueError(problem)
    return move
