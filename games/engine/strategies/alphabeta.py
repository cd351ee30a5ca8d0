"""``alphabeta``: depth-limited negamax with alpha-beta pruning (seed 001), for every variant.

Options:

- ``depth`` (default 3): plies searched. A win found inside the horizon scores
  ``WIN - plies``, so a faster win (and a slower loss) is preferred.
- ``heuristic``: ``candidate`` (seed 001: lines still open for me minus lines still open for the
  opponent) or ``weighted`` (3 x lines with two of mine and none of theirs + lines with one,
  minus the same for the opponent). For k > 3 ``weighted`` generalises to 3**(c - 1) for a line
  with c of mine and none of theirs, which is exactly the seed's rule when k = 3.
- ``seed``: when given, equally good root moves are chosen between at random; otherwise the
  first one in move order (deterministic).

Grid variants search on raw bit masks with an incrementally updated evaluation (only the lines
through the played cell change). On boards of more than 49 cells only empty cells next to a
stone (king-move distance 1) are candidates, which keeps 19 x 19 quick.

Nested variants (ultimate, multi): the evaluation is the heuristic on every small board that is
still undecided (its 8 lines, k = 3) plus ``BIG_WEIGHT`` x the heuristic on the big board, where
a won board is that side's mark and a board drawn full blocks every big line through it. In
multi, where the result is the count of boards won, the big-board term is the difference of
boards won instead.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from ..core import State, Variant
from ..grid import GridState, GridVariant
from ..nested import LINES3, POPCOUNT9, Multi, NestedState
from .base import Strategy, register

WIN = 1_000_000_000
HEURISTICS = ("candidate", "weighted")
NEAR_LIMIT = 49  # boards with more cells than this consider only cells next to a stone
BIG_WEIGHT = 12  # a big-board line is worth a board, ~ a dozen small-board lines


class AlphaBetaOptionError(ValueError):
    """A bad ``depth`` or ``heuristic`` for ``alphabeta``."""


def line_value_table(heuristic: str, k: int) -> tuple[tuple[int, ...], ...]:
    """F[a][b]: a line's value for a side holding ``a`` of its cells while the other holds ``b``."""
    table = []
    for a in range(k + 1):
        row = []
        for b in range(k + 1):
            if heuristic == "candidate":
                row.append((b == 0) - (a == 0))
            elif a and not b:
                row.append(3 ** (a - 1))
            elif b and not a:
                row.append(-(3 ** (b - 1)))
            else:
                row.append(0)
        table.append(tuple(row))
    return tuple(table)


@lru_cache(maxsize=32)
def _near_masks(rows: int, cols: int) -> tuple[int, ...]:
    masks = []
    for r in range(rows):
        for c in range(cols):
            m = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if 0 <= r + dr < rows and 0 <= c + dc < cols:
                        m |= 1 << ((r + dr) * cols + c + dc)
            masks.append(m)
    return tuple(masks)


class _GridSearch:
    """Negamax on (mover, opponent) masks; ``score`` is the evaluation from the mover's side."""

    def __init__(self, variant: GridVariant, heuristic: str) -> None:
        self.k = variant.k
        self.cell_lines = variant.cell_lines
        self.full = variant.full
        self.lines = variant.lines
        self.value = line_value_table(heuristic, variant.k)
        k = variant.k
        # DELTA[a][b]: change of the mover's evaluation when the mover adds a mark to such a line;
        # the opponent's view of the same line is the mirror, so one table serves both sides.
        self.delta = tuple(
            tuple((self.value[a + 1][b] if a < k else 0) - self.value[a][b] for b in range(k + 1)) for a in range(k + 1)
        )
        self.near = _near_masks(variant.rows, variant.cols) if variant.cell_count > NEAR_LIMIT else None

    def evaluate(self, me: int, opp: int) -> int:
        value = self.value
        return sum(value[(line & me).bit_count()][(line & opp).bit_count()] for line in self.lines)

    def candidates(self, me: int, opp: int) -> int:
        occupied = me | opp
        if self.near is None:
            return self.full & ~occupied
        if not occupied:
            rows_cols = len(self.near)
            return 1 << (rows_cols // 2)  # empty big board: the centre
        cand = 0
        rest = occupied
        while rest:
            low = rest & -rest
            cand |= self.near[low.bit_length() - 1]
            rest ^= low
        return cand & ~occupied

    def children(self, me: int, opp: int, cand: int, score: int) -> tuple[int, list[tuple[int, int]]]:
        """(-1, [(score after move, cell), ...]) or (winning cell, [])."""
        k1 = self.k - 1
        cell_lines, delta = self.cell_lines, self.delta
        out = []
        rest = cand
        while rest:
            low = rest & -rest
            rest ^= low
            cell = low.bit_length() - 1
            d = 0
            for line in cell_lines[cell]:
                b = (line & opp).bit_count()
                a = (line & me).bit_count()
                if a == k1 and not b:
                    return cell, []
                d += delta[a][b]
            out.append((score + d, cell))
        return -1, out

    def negamax(self, me: int, opp: int, cand: int, depth: int, alpha: int, beta: int, score: int, ply: int) -> int:
        win, kids = self.children(me, opp, cand, score)
        if win >= 0:
            return WIN - ply - 1
        if not kids:
            return 0  # board full: draw
        full = self.full
        occupied = me | opp
        if depth <= 1:
            best = -WIN
            for value, cell in kids:
                if occupied | 1 << cell == full:
                    value = 0
                if value > best:
                    best = value
            return best
        kids.sort(reverse=True)  # why: the greedy order makes cut-offs come early
        near = self.near
        best = -WIN
        for value, cell in kids:
            bit = 1 << cell
            if occupied | bit == full:
                value = 0
            else:
                child_cand = cand ^ bit if near is None else (cand | near[cell]) & ~(occupied | bit)
                value = -self.negamax(opp, me | bit, child_cand, depth - 1, -beta, -alpha, -value, ply + 1)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def root(self, state: GridState, depth: int, rng: random.Random | None) -> int:
        me, opp = (state.x, state.o) if state.ply % 2 == 0 else (state.o, state.x)
        cand = self.candidates(me, opp)
        score = self.evaluate(me, opp)
        win, kids = self.children(me, opp, cand, score)
        if win >= 0:
            return win
        if rng is not None:
            rng.shuffle(kids)
        kids.sort(key=lambda kid: -kid[0])  # stable: random order among equal greedy scores
        occupied = me | opp
        near = self.near
        best, best_moves = -WIN - 1, []
        for value, cell in kids:
            bit = 1 << cell
            if occupied | bit == self.full:
                value = 0
            elif depth > 1:
                child_cand = cand ^ bit if near is None else (cand | near[cell]) & ~(occupied | bit)
                # window (best - 1, WIN]: a move as good as the best so far gets an exact value
                low = best - 1 if rng is not None else best
                value = -self.negamax(opp, me | bit, child_cand, depth - 1, -WIN - 1, -low, -value, 1)
            if value > best:
                best, best_moves = value, [cell]
            elif value == best:
                best_moves.append(cell)
        return best_moves[0] if rng is None else rng.choice(best_moves)


def _nested_eval(state: NestedState, value: tuple[tuple[int, ...], ...]) -> int:
    """Evaluation from the side to move (see the module docstring)."""
    mover = state.ply & 1
    mine_boards, their_boards = (state.xs, state.os) if mover == 0 else (state.os, state.xs)
    my_won, their_won = (state.xwon, state.owon) if mover == 0 else (state.owon, state.xwon)
    decided = state.xwon | state.owon | state.full
    total = 0
    for b in range(9):
        if decided >> b & 1:
            continue
        mine, theirs = mine_boards[b], their_boards[b]
        for line in LINES3:
            total += value[POPCOUNT9[line & mine]][POPCOUNT9[line & theirs]]
    if isinstance(state.variant, Multi):
        big = 4 * (POPCOUNT9[my_won] - POPCOUNT9[their_won])
    else:
        drawn = state.full & ~(state.xwon | state.owon)
        big = 0
        for line in LINES3:
            if line & drawn:
                continue
            big += value[POPCOUNT9[line & my_won]][POPCOUNT9[line & their_won]]
        big += POPCOUNT9[my_won] - POPCOUNT9[their_won]
    return total + BIG_WEIGHT * big


def _nested_negamax(
    state: NestedState, depth: int, alpha: int, beta: int, ply: int, value: tuple[tuple[int, ...], ...]
) -> int:
    if state.is_over:
        return 0 if state.winner is None else -(WIN - ply)  # the side that just moved won
    if depth == 0:
        return _nested_eval(state, value)
    best = -WIN
    for move in state.legal_moves():
        v = -_nested_negamax(state.play(move), depth - 1, -beta, -alpha, ply + 1, value)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


def _nested_root(state: NestedState, depth: int, heuristic: str, rng: random.Random | None) -> int:
    value = line_value_table(heuristic, 3)
    moves = state.legal_moves()
    if rng is not None:
        rng.shuffle(moves)
    best, best_moves = -WIN - 1, []
    for move in moves:
        low = best - 1 if rng is not None else best
        v = -_nested_negamax(state.play(move), depth - 1, -WIN - 1, -low, 1, value)
        if v > best:
            best, best_moves = v, [move]
        elif v == best:
            best_moves.append(move)
    return best_moves[0] if rng is None else rng.choice(best_moves)


@register
class AlphaBetaStrategy(Strategy):
    name = "alphabeta"
    option_spec = {"depth": (int, 3), "heuristic": (str, "candidate"), "seed": (int, None)}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if not 1 <= self.options["depth"] <= 12:
            raise AlphaBetaOptionError(
                f"option 'depth' of 'alphabeta' must be between 1 and 12, not {self.options['depth']}"
            )
        if self.options["heuristic"] not in HEURISTICS:
            raise AlphaBetaOptionError(
                f"option 'heuristic' of 'alphabeta' must be one of {', '.join(HEURISTICS)}, "
                f"not {self.options['heuristic']!r}"
            )
        seed = self.options["seed"]
        self.rng = random.Random(seed) if seed is not None else None
        self._grid: dict[Variant, _GridSearch] = {}

    def supports(self, variant: Variant) -> bool:
        return True

    def _choose(self, state: State) -> int:
        depth, heuristic = self.options["depth"], self.options["heuristic"]
        if isinstance(state, GridState):
            search = self._grid.get(state.variant)
            if search is None:
                search = self._grid[state.variant] = _GridSearch(state.variant, heuristic)  # type: ignore[arg-type]
            return search.root(state, depth, self.rng)
        assert isinstance(state, NestedState)
        return _nested_root(state, depth, heuristic, self.rng)
