"""``ring``: seed 000's hand-written rule sequence for classic tic-tac-toe.

Seed 000 numbers the board as a ring, corners even, sides odd, the centre 8::

     0 | 1 | 2
     7 | 8 | 3
     6 | 5 | 4

so "opposite", "next corner" and so on become arithmetic mod 8. The player ("computer") works
in ring numbers and translates to and from the engine's row-major cells at the edges.

Order: win if possible, else block (both in ascending ring order), else seed 000's rules 1-9.
Rules 4-8 describe exact small positions (the computer's second move), so they fire only when the
counts of marks match those positions exactly; anything else falls through to rule 9 (the lowest
free ring square).

Playing first the same rules apply: rule 2 takes the centre, rule 4 answers the opponent's first
reply with ring square (reply + 3) mod 8, and from then on win/block/rule 9 decide. The exhaustive
test shows that as first player it never loses either, though that is not a promise of seed 000.
"""

from __future__ import annotations

from ..core import State, Variant
from ..grid import Classic, GridState
from .base import Strategy, register

#: ring number -> engine cell (row-major 0..8)
RING_TO_CELL = (0, 1, 2, 5, 8, 7, 6, 3, 4)
CELL_TO_RING = tuple(RING_TO_CELL.index(c) for c in range(9))
CENTRE = 8
#: seed 000's "blocking combinations": square -> pairs that, both held, make the square a win
COMPLETIONS = {
    0: ((1, 2), (6, 7), (8, 4)),
    1: ((5, 8), (0, 2)),
    2: ((0, 1), (6, 8), (3, 4)),
    3: ((7, 8), (2, 4)),
    4: ((2, 3), (0, 8), (5, 6)),
    5: ((1, 8), (4, 6)),
    6: ((4, 5), (2, 8), (0, 7)),
    7: ((0, 6), (3, 8)),
    8: ((0, 4), (1, 5), (2, 6), (3, 7)),
}


def _completing(squares: set[int], free: list[int]) -> int | None:
    for square in free:
        if any(a in squares and b in squares for a, b in COMPLETIONS[square]):
            return square
    return None


def ring_move(me: set[int], human: set[int]) -> int:
    """Seed 000's choice in ring numbers, given the ring squares of the computer and the opponent."""
    free = [s for s in range(9) if s not in me and s not in human]
    if not free:
        raise ValueError("the board is full: there is no move to choose")
    win = _completing(me, free)
    if win is not None:
        return win
    block = _completing(human, free)
    if block is not None:
        return block
    # Rule 1: one square left.
    if len(free) == 1:
        return free[0]
    # Rule 2: the centre.
    if CENTRE in free:
        return CENTRE
    evens = sorted(s for s in human if s % 2 == 0 and s != CENTRE)
    odds = sorted(s for s in human if s % 2 == 1)
    # Rule 3: only the centre is taken (by the opponent): take a corner.
    if not me and human == {CENTRE}:
        return 0
    # Rule 4: the computer holds the centre, the opponent one other square.
    if me == {CENTRE} and len(human) == 1:
        (h,) = human
        return (h + 3) % 8
    if me == {CENTRE} and len(human) == 2:
        # Rule 5: the opponent holds two (opposite) corners: take a side.
        if len(evens) == 2:
            return next(s for s in free if s % 2 == 1)
        # Rule 6: one side and one corner.
        if len(evens) == 1 and len(odds) == 1:
            odd, even = odds[0], evens[0]
            if odd == (even + 3) % 8:
                return (odd + 2) % 8
            if odd == (even + 5) % 8:
                return (even + 3) % 8
        # Rule 8: two sides: the corner one past the greater side.
        if len(odds) == 2:
            return (odds[1] + 1) % 8
    # Rule 7: computer on a corner, opponent on a corner and the centre: another corner.
    if len(me) == 1 and next(iter(me)) % 2 == 0 and CENTRE in human and len(evens) == 1 and len(human) == 2:
        return next(s for s in free if s % 2 == 0)
    # Rule 9: anything free.
    return free[0]


@register
class RingStrategy(Strategy):
    name = "ring"
    option_spec = {}

    def supports(self, variant: Variant) -> bool:
        return isinstance(variant, Classic)

    def _choose(self, state: State) -> int:
        assert isinstance(state, GridState)
        mine, theirs = (state.x, state.o) if state.ply % 2 == 0 else (state.o, state.x)
        me = {CELL_TO_RING[c] for c in range(9) if mine >> c & 1}
        human = {CELL_TO_RING[c] for c in range(9) if theirs >> c & 1}
        return RING_TO_CELL[ring_move(me, human)]
