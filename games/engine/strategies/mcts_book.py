"""mcts's opening book on ultimate: the move of a long search for every position of the first plies, up to symmetry.

The book (``games/engine/data/ultimate_book.json``) is built offline by ``python -m games.engine.book`` (the
command that built it is in the file). A position and its seven images under the symmetries of the square (the
same turn or reflection of the big board and of every small board) share one entry: the position is turned into
its canonical image (the least key of the eight), the book's move is read there and turned back.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..nested import NestedState

BOOK_PATH = Path(__file__).resolve().parent.parent / "data" / "ultimate_book.json"


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The eight symmetries of a 3 x 3 square as permutations of 0..8 (``p[i]``: where cell i goes)."""
    def turn(r: int, c: int) -> tuple[int, int]:
        return c, 2 - r

    out = []
    for mirror in (False, True):
        for turns in range(4):
            perm = []
            for i in range(9):
                r, c = divmod(i, 3)
                if mirror:
                    c = 2 - c
                for _ in range(turns):
                    r, c = turn(r, c)
                perm.append(3 * r + c)
            out.append(tuple(perm))
    return tuple(out)


SYMMETRIES = _symmetries()
#: INVERSE[g]: the index of the symmetry that undoes symmetry g
INVERSE = tuple(
    next(h for h, q in enumerate(SYMMETRIES) if all(q[p[i]] == i for i in range(9))) for p in SYMMETRIES
)


def map_move(move: int, g: int) -> int:
    """``move`` (9 * board + cell) under symmetry ``g``: the same permutation turns the board and the cell."""
    p = SYMMETRIES[g]
    return 9 * p[move // 9] + p[move % 9]


def _key(state: NestedState, g: int) -> str:
    """The position under symmetry ``g`` as text: 81 cells (. x o), the board owners, the target."""
    p = SYMMETRIES[g]
    cells = ["."] * 81
    for m, mark in enumerate(state.cells):
        if mark is not None:
            cells[map_move(m, g)] = mark.lower()
    owners = ["."] * 9
    for b, owner in enumerate(state.board_winners):
        if owner is not None:
            owners[p[b]] = owner.lower()
    target = "-" if state.target < 0 else str(p[state.target])
    return f"{''.join(cells)}/{''.join(owners)}/{target}"


def canonical(state: NestedState) -> tuple[str, int]:
    """The position's canonical key (the least of its eight images) and the symmetry that gives it."""
    return min((_key(state, g), g) for g in range(8))


@cache
def load_book(path: Path = BOOK_PATH) -> dict[str, Any]:
    """The book file's contents (read once per process); an empty book when the file is missing."""
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        return {"positions": {}}


def book_move(state: NestedState, path: Path = BOOK_PATH) -> int | None:
    """The book's move for ``state`` (ultimate, default rules, within the book's plies), or None."""
    variant = state.variant
    if variant.key != "ultimate" or variant.closes_won or state.is_over:
        return None
    book = load_book(path)
    if state.ply > book.get("plies", -1):
        return None
    key, g = canonical(state)
    entry = book["positions"].get(key)
    if entry is None:
        return None
    move = map_move(variant.parse_cell(entry["move"]), INVERSE[g])
    return move if move in state.legal_moves() else None
