"""``threats``: seed 003's line-sum matrix, generalised from n in a row to k in a row.

Every line holds (own marks - opponent marks); a line that holds marks of both sides is dead.
In priority order the player

1. wins if one of its lines is one short (k - 1 own marks, no opponent mark);
2. blocks if an opponent line is one short;
3. plays the cell that turns most of its own lines into (k - 1)-lines. The opponent has no
   (k - 1)-line left at this point (step 2 would have fired), which is seed 003's "without
   leaving the opponent any";
4. otherwise plays the cell that breaks most live opponent lines (seed 003: turn the 2s into 1s).

Ties (and the empty board) go to the cell with most live lines of both sides through it, heavier
lines first, then to the lowest cell index, so the player is deterministic. Only the lines through
each empty cell are visited (``variant.cell_lines``), which keeps 19 x 19 boards quick.
"""

from __future__ import annotations

from ..core import State, Variant
from ..grid import GridState, GridVariant
from .base import Strategy, register


def side_masks(state: GridState) -> tuple[int, int]:
    """(mover's mask, opponent's mask)."""
    return (state.x, state.o) if state.ply % 2 == 0 else (state.o, state.x)


def immediate_wins(variant: GridVariant, mine: int, theirs: int) -> list[int]:
    """Empty cells that complete one of ``mine``'s lines now, ascending."""
    need = variant.k - 1
    found = set()
    for line in variant.lines:
        if not line & theirs and (line & mine).bit_count() == need:
            found.add((line & ~mine).bit_length() - 1)
    return sorted(found)


def threats_move(state: GridState) -> int:
    """The move seed 003's rules choose for the side to move."""
    variant: GridVariant = state.variant  # type: ignore[assignment]
    mine, theirs = side_masks(state)
    occupied = mine | theirs
    k = variant.k
    cell_lines = variant.cell_lines
    empties = [c for c in range(variant.cell_count) if not occupied >> c & 1]

    best_make = 0
    block = -1
    make_scores: list[tuple[tuple[int, ...], int]] = []
    for cell in empties:
        makes = breaks = weight = 0
        for line in cell_lines[cell]:
            own = (line & mine).bit_count()
            opp = (line & theirs).bit_count()
            if opp == 0:
                if own == k - 1:
                    return cell  # rule 1: win now
                if own == k - 2:
                    makes += 1
                weight += 1 << (2 * own)  # why: a line already holding marks is worth more
                if own == 0:
                    weight += 1
            elif own == 0:
                if opp == k - 1:
                    if block < 0:
                        block = cell
                breaks += 1
                weight += 1 << (2 * opp)
        make_scores.append(((makes, breaks, weight, -cell), cell))
        best_make = max(best_make, makes)
    if block >= 0:
        return block  # rule 2
    if best_make > 0:
        return max(make_scores)[1]  # rule 3: (makes, breaks, weight, lowest cell)
    return max(make_scores, key=lambda item: (item[0][1], item[0][2], item[0][3]))[1]  # rule 4


@register
class ThreatsStrategy(Strategy):
    name = "threats"
    option_spec = {}

    def supports(self, variant: Variant) -> bool:
        return isinstance(variant, GridVariant)

    def _choose(self, state: State) -> int:
        return threats_move(state)  # type: ignore[arg-type]
