"""``perfect``: exact game-theoretic play on small grid boards (at most 16 cells).

Scores are from the side to move: a win scores (empty cells before the winning move), so a faster
win scores more and a slower loss less badly; a draw is 0. The solver is a negamax with
alpha-beta, a transposition table keyed by the position reduced under the board's symmetries,
and exact shortcuts: win now if possible; a double threat of the opponent is a loss on the next
move; a single threat must be blocked (any other move loses at once, the worst outcome); a board
where no line can be completed any more is a draw; a side with no line free of the other's marks
can do no better than a draw; no win comes before our next move but one. At the root, mirror
images of a move are searched once, and the first move is tried with a narrow window round 0
(most positions are draws).

No table is shipped: these shortcuts make every shape fast enough at run time. Measured from a
cold table (single core, idle machine): 4 x 4 with 4 in a row solves from the empty board, and
from any position after one or two moves, in ~0.1 s; 3 x 5 with 5 in a row, the slowest shape
of at most 16 cells, ~0.2 s from the empty board (~0.6 s seen under a load of 4 on 2 cores).
The table is kept between moves (one solver per shape, so later moves are near-instant) and
dropped when it grows past ``TT_LIMIT`` entries.
"""

from __future__ import annotations

from functools import lru_cache

from ..core import State, Variant
from ..grid import GridState, GridVariant, line_tables
from .base import Strategy, register

MAX_CELLS = 16
TT_LIMIT = 2_000_000
INF = 1000


def _symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """Cell permutations that map lines onto lines: the square's 8, or the rectangle's 4."""
    def cell(r: int, c: int) -> int:
        return r * cols + c

    maps = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    perms = []
    for f in maps:
        perms.append(tuple(cell(*f(r, c)) for r in range(rows) for c in range(cols)))
    return perms


class Solver:
    """Exact values of positions of one board shape; keeps its transposition table between calls."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.n = rows * cols
        if self.n > MAX_CELLS:
            raise ValueError(f"perfect play is only computed for boards of at most {MAX_CELLS} cells")
        self.lines, self.cell_lines = line_tables(rows, cols, k)
        # Per symmetry, two 256-entry tables (low byte, high byte) that move the bits of a mask.
        self.tables = []
        for perm in _symmetries(rows, cols):
            lo = tuple(sum(1 << perm[i] for i in range(8) if i < self.n and m >> i & 1) for m in range(256))
            hi = tuple(sum(1 << perm[i + 8] for i in range(8) if i + 8 < self.n and m >> i & 1) for m in range(256))
            self.tables.append((lo, hi))
        # Cells through which most lines run first: a cheap, good move order.
        self.order = sorted(range(self.n), key=lambda c: (-len(self.cell_lines[c]), c))
        self.tt: dict[int, tuple[int, int]] = {}

    def key(self, me: int, opp: int) -> int:
        best = -1
        for lo, hi in self.tables:
            key = (lo[me & 255] | hi[me >> 8]) << 16 | lo[opp & 255] | hi[opp >> 8]
            if best < 0 or key < best:
                best = key
        return best

    def solve(self, me: int, opp: int, alpha: int = -INF, beta: int = INF) -> int:
        """Value for the side to move (``me``); exact if it lies strictly inside (alpha, beta)."""
        k1 = self.k - 1
        occupied = me | opp
        empties = self.n - occupied.bit_count()
        my_wins = their_wins = 0
        i_can_win = they_can_win = False
        for line in self.lines:
            if not line & opp:
                i_can_win = True
                if (line & me).bit_count() == k1:
                    my_wins |= line & ~me
            if not line & me:
                they_can_win = True
                if (line & opp).bit_count() == k1:
                    their_wins |= line & ~opp
        if my_wins:
            return empties
        if not (i_can_win or they_can_win) or empties <= 1:
            return 0  # nothing can be completed any more, or the last cell is a forced draw
        if their_wins & (their_wins - 1):
            return -(empties - 1)  # two threats: the opponent wins with its next move
        # Static bounds: no win before our next move but one, no loss before theirs; a side with
        # no line free of the other's marks cannot win at all.
        low, high = -max(empties - 3, 0), empties - 2
        if not i_can_win:
            high = 0
        if not they_can_win:
            low = 0
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        key = self.key(me, opp)
        alpha0, beta0 = alpha, beta
        bounds = self.tt.get(key)
        if bounds is not None:
            low, high = max(low, bounds[0]), min(high, bounds[1])
            if low == high or low >= beta:
                return low
            if high <= alpha:
                return high
        alpha, beta = max(alpha, low), min(beta, high)
        if their_wins:
            moves = [their_wins]  # forced block
        else:
            moves = [1 << c for c in self.order if not occupied >> c & 1]
        best = -INF
        for bit in moves:
            value = -self.solve(opp, me | bit, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if best <= alpha0:
            high = min(high, best)
        elif best >= beta0:
            low = max(low, best)
        else:
            low = high = best
        self.tt[key] = (low, high)
        return best

    def move_values(self, me: int, opp: int) -> dict[int, int]:
        """Exact value (for the mover) of every legal move."""
        occupied = me | opp
        empties = self.n - occupied.bit_count()
        values = {}
        for cell in range(self.n):
            bit = 1 << cell
            if occupied & bit:
                continue
            mine = me | bit
            if any(mine & line == line for line in self.cell_lines[cell]):
                values[cell] = empties
            else:
                values[cell] = -self.solve(opp, mine)
        return values

    def best_move(self, me: int, opp: int) -> int:
        occupied = me | opp
        empties = self.n - occupied.bit_count()
        free = [cell for cell in self.order if not occupied >> cell & 1]
        for cell in free:
            mine = me | 1 << cell
            if any(mine & line == line for line in self.cell_lines[cell]):
                return cell  # an immediate win is the fastest
        best, best_cell = -INF - 1, -1
        seen = set()
        for cell in free:
            mine = me | 1 << cell
            child = self.key(opp, mine)
            if child in seen:
                continue  # a mirror image of a move already searched has the same value
            seen.add(child)
            if best < -1:
                # most positions are draws: a narrow window round 0 settles those cheaply
                value = -self.solve(opp, mine, -1, 1)
                if value <= -1:
                    value = -self.solve(opp, mine, -value, INF)
                elif value >= 1:
                    value = -self.solve(opp, mine, -INF, -value)
            else:
                # window (best, INF): only a strictly better move needs an exact value
                value = -self.solve(opp, mine, -INF, -best)
            if value > best:
                best, best_cell = value, cell
                if best >= empties - 2:
                    break  # nothing but an immediate win beats this
        return best_cell


@lru_cache(maxsize=16)
def solver_for(rows: int, cols: int, k: int) -> Solver:
    return Solver(rows, cols, k)


@register
class PerfectStrategy(Strategy):
    name = "perfect"
    option_spec = {}

    def supports(self, variant: Variant) -> bool:
        # every grid shape of at most 16 cells answers well within a second (see the docstring)
        return isinstance(variant, GridVariant) and variant.cell_count <= MAX_CELLS

    def _choose(self, state: State) -> int:
        assert isinstance(state, GridState)
        variant = state.variant
        solver = solver_for(variant.rows, variant.cols, variant.k)
        if len(solver.tt) > TT_LIMIT:
            solver.tt.clear()  # why: bound the memory of a long-running server process
        me, opp = (state.x, state.o) if state.ply % 2 == 0 else (state.o, state.x)
        return solver.best_move(me, opp)
