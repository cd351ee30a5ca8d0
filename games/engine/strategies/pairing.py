"""``pairing``: the classic pairing strategy that draws n in a row on an n x n board (n >= 5).

Every line (n rows, n columns, 2 diagonals: 2n + 2 lines) gets two cells of its own, all pairs
disjoint; they are found by bipartite matching (each line needs two "slots", each cell fills at
most one). That takes 4n + 4 distinct cells, so n >= 5; the tests check it succeeds for 5..10.
As long as the player answers every opponent move on a pair cell with the partner cell, the
opponent can never own a whole line, so the player never loses, moving first or second.

Move order: win at once if possible (ends the game, so it can only help); else answer the
opponent's pair cell with its partner; else play what ``threats`` would (a good free move, which
may well take a pair cell early; the invariant "opponent on a pair cell -> we hold the partner"
is kept either way).

Supports ``nxn`` with size >= 5 and ``mnk`` with rows == cols == k >= 5 (the same lines).
"""

from __future__ import annotations

from functools import lru_cache

from ..core import State, Variant
from ..grid import GridState, GridVariant, line_tables
from .base import Strategy, register
from .threats import side_masks, threats_move


class PairingError(ValueError):
    """No disjoint pairing exists for the board (n < 5)."""


@lru_cache(maxsize=32)
def pairs_for(n: int) -> tuple[tuple[int, int], ...]:
    """Disjoint cell pairs, one per line of the n x n board with n in a row, in ``lines`` order."""
    lines, _ = line_tables(n, n, n)
    line_cells = [[c for c in range(n * n) if line >> c & 1] for line in lines]
    slots = [i for i in range(len(lines)) for _ in range(2)]  # each line needs two cells
    owner: dict[int, int] = {}  # cell -> slot

    def augment(slot: int, seen: set[int]) -> bool:
        # Kuhn's augmenting path: give ``slot`` a cell, moving other slots if that frees one.
        for cell in line_cells[slots[slot]]:
            if cell in seen:
                continue
            seen.add(cell)
            if cell not in owner or augment(owner[cell], seen):
                owner[cell] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not augment(slot, set()):
            raise PairingError(f"no pairing strategy exists for {n} x {n}, {n} in a row (needs n >= 5)")
    by_slot = {slot: cell for cell, slot in owner.items()}
    return tuple(tuple(sorted((by_slot[2 * i], by_slot[2 * i + 1]))) for i in range(len(lines)))  # type: ignore[misc]


def _is_square_full_line(variant: Variant) -> bool:
    return (
        isinstance(variant, GridVariant) and variant.rows == variant.cols == variant.k and variant.k >= 5
    )


@register
class PairingStrategy(Strategy):
    name = "pairing"
    option_spec = {}

    def supports(self, variant: Variant) -> bool:
        return _is_square_full_line(variant)

    def _choose(self, state: State) -> int:
        assert isinstance(state, GridState)
        variant = state.variant
        mine, theirs = side_masks(state)
        occupied = mine | theirs
        k1 = variant.k - 1
        for line in variant.lines:
            if not line & theirs and (line & mine).bit_count() == k1:
                return (line & ~mine).bit_length() - 1  # win now
        for a, b in pairs_for(variant.k):
            if theirs >> a & 1 and not occupied >> b & 1:
                return b
            if theirs >> b & 1 and not occupied >> a & 1:
                return a
        return threats_move(state)
