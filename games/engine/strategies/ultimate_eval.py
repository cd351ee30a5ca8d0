"""A cheap evaluation of an ultimate position (default rules): X's expected score, 0..1, from the big board.

Each small board still open gets, for each side, the chance that the side completes a line on it first when the
board's empty cells are filled at random, either side starting (``BOARD_X``/``BOARD_O``: computed once over the
3^9 ways a board can be marked); a won board is 1 for its owner and 0 for the other, a full board 0 for both.
A big-board line is then as likely for a side as the product of its three boards, and the side's chance to
complete one of the eight lines is ``1 - prod(1 - line)``. The score is a logistic curve of

- the difference of the two sides' chances to complete a line,
- the difference of their summed line products,
- the difference of the boards they own,
- the side to move, and whether it can win the board it is sent to at once (tempo),

with weights fitted (``python -m games.engine.strategies.ultimate_eval --fit``) to the mean result of random
playouts from positions of random games: it estimates in a few microseconds what a random playout estimates
with the noise of a coin toss, and about as well as sixty playouts averaged. ``mcts`` uses it at the leaves of
its tree instead of a playout on ultimate (docs/engine.md).
"""

from __future__ import annotations

from math import exp

from ..nested_raw import LINES3, WIN9

#: T3[mask]: the mask's cells as base-3 digits 1 (x's marks) -- index = T3[x] + 2 * T3[o]
T3 = tuple(sum(3**i for i in range(9) if m >> i & 1) for m in range(512))
#: WINNING9[mask]: the cells that complete a line of three for a player holding ``mask`` (taken or not)
WINNING9 = tuple(sum(1 << c for c in range(9) if not m >> c & 1 and WIN9[m | 1 << c]) for m in range(512))
#: the eight lines of the big board, as board numbers
BIG_LINES = tuple(tuple(b for b in range(9) if line >> b & 1) for line in LINES3)


def _board_chances() -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(X's chances, O's chances) to complete a line first on a small board filled at random from each of its
    3^9 markings, averaged over which side fills first; index T3[x] + 2 * T3[o] (impossible indexes: 0)."""
    memo: dict[int, tuple[float, float]] = {}

    def chances(x: int, o: int, turn: int) -> tuple[float, float]:
        key = x << 10 | o << 1 | turn
        known = memo.get(key)
        if known is not None:
            return known
        if WIN9[x]:
            out = (1.0, 0.0)
        elif WIN9[o]:
            out = (0.0, 1.0)
        elif x | o == 511:
            out = (0.0, 0.0)
        else:
            cells = [1 << c for c in range(9) if not (x | o) >> c & 1]
            px = po = 0.0
            for bit in cells:
                a, b = chances(x | bit, o, 1) if turn == 0 else chances(x, o | bit, 0)
                px += a
                po += b
            out = (px / len(cells), po / len(cells))
        memo[key] = out
        return out

    bx, bo = [0.0] * 19683, [0.0] * 19683
    for x in range(512):
        for o in range(512):
            if not x & o:
                (a, b), (c, d) = chances(x, o, 0), chances(x, o, 1)
                bx[T3[x] + 2 * T3[o]] = (a + c) / 2
                bo[T3[x] + 2 * T3[o]] = (b + d) / 2
    return tuple(bx), tuple(bo)


BOARD_X, BOARD_O = _board_chances()

# Weights of the logistic curve, fitted by ``--fit`` (see the module's doc): X's chance to make a line minus O's,
# summed line products, boards owned, the side to move (X +1, O -1) and its tempo, and the bias.
W_LINE = 1.266
W_PRODUCTS = 0.305
W_OWNED = 0.208
W_SIDE = 0.057
W_TEMPO = 0.110
W_BIAS = 0.037


def x_score(xs: list[int], os_: list[int], xwon: int, owon: int, full: int, target: int, side: int) -> float:
    """X's expected score (a win 1, a draw 1/2) in the raw position (``side``: 0 X, 1 O to move)."""
    bx, bo, t3 = BOARD_X, BOARD_O, T3
    px = [0.0] * 9
    po = [0.0] * 9
    closed = xwon | owon | full
    for b in range(9):
        if closed >> b & 1:
            if xwon >> b & 1:
                px[b] = 1.0
            elif owon >> b & 1:
                po[b] = 1.0
        else:
            i = t3[xs[b]] + 2 * t3[os_[b]]
            px[b] = bx[i]
            po[b] = bo[i]
    miss_x = miss_o = 1.0
    sum_x = sum_o = 0.0
    for a, b, c in BIG_LINES:
        lx = px[a] * px[b] * px[c]
        lo = po[a] * po[b] * po[c]
        miss_x *= 1.0 - lx
        miss_o *= 1.0 - lo
        sum_x += lx
        sum_o += lo
    sign = -1.0 if side else 1.0
    tempo = 0.0
    if target < 0:
        tempo = 0.5
    elif not (xwon | owon) >> target & 1:
        mine = os_[target] if side else xs[target]
        if WINNING9[mine] & ~(xs[target] | os_[target]) & 511:
            tempo = 1.0
    z = (W_LINE * (miss_o - miss_x) + W_PRODUCTS * (sum_x - sum_o)
         + W_OWNED * (_POP[xwon] - _POP[owon]) + sign * (W_SIDE + W_TEMPO * tempo) + W_BIAS)
    return 1.0 / (1.0 + exp(-z))


_POP = tuple(bin(m).count("1") for m in range(512))
