"""The gomoku strategy's board: threat patterns read move-centred on rotated bit boards, each empty cell's
class (five, open four, four-three, four, three...) and score kept incrementally (see ``gomoku``'s docstring,
"Patterns")."""

from __future__ import annotations

from functools import lru_cache

from ..grid import line_tables

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

# Direction levels: what playing the cell makes along one direction.
L_NONE, L_DEAD3, L_TWO, L_THREE, L_FOUR, L_OPEN4, L_FIVE = range(7)
# Cell classes: the four directions together.
C_NONE, C_THREE, C_DOUBLE3, C_FOUR, C_FOUR3, C_OPEN4, C_WIN = range(7)
LEVEL_VALUE = (0, 10, 35, 400, 450, 8_000, 100_000)
CLASS_BONUS = (0, 0, 2_500, 0, 6_000, 8_000, 0)

WIN = 1_000_000_000
#: scores at or above this mean a won (or lost) game found inside the search
WON = WIN - 1000
DEFAULT_SECONDS = 1.0
MAX_SECONDS = 3600
DEFAULT_WIDTH = 8
CACHE_LIMIT = 200_000
#: boards of at most this many cells are left to ``perfect``
SMALL_BOARD = 16
VCF_DEPTH = 12  # attacker moves
VCT_DEPTH = 4
VCT_WIDTH = 8


class GomokuOptionError(ValueError):
    """A bad option for ``gomoku``."""


class _Timeout(Exception):
    """The budget ran out inside a search."""


def _five_points(mine: int, blocked: int, k: int) -> int:
    """Empty window bits that complete a k-window through the centre (bit k - 1)."""
    points = 0
    full = (1 << k) - 1
    for s in range(k):
        w = full << s
        if w & blocked:
            continue
        rest = w & ~mine
        if rest and not rest & (rest - 1):
            points |= rest
    return points


def _level(mine: int, blocked: int, k: int) -> int:
    """The level of a pattern whose centre is (now) one of ``mine``."""
    full = (1 << k) - 1
    for s in range(k):
        w = full << s
        if w & mine == w:
            return L_FIVE
    points = _five_points(mine, blocked, k)
    if points:
        return L_OPEN4 if points & (points - 1) else L_FOUR
    width = 2 * k - 1
    empties = [1 << j for j in range(width) if not (mine | blocked) >> j & 1]
    best = L_NONE
    for e in empties:
        after = mine | e
        p = _five_points(after, blocked, k)
        if p & (p - 1):
            return L_THREE
        if p:
            best = L_DEAD3
    if best == L_NONE:
        for e in empties:
            after = mine | e
            for e2 in empties:
                if e2 != e:
                    p = _five_points(after | e2, blocked, k)
                    if p & (p - 1):
                        return L_TWO
    return best


class _LevelTable(dict):  # type: ignore[type-arg]
    """key = own window | blocked window << (2k - 1), centre bit clear -> level; filled on demand."""

    def __init__(self, k: int) -> None:
        super().__init__()
        self.k = k
        self.width = 2 * k - 1
        self.mask = (1 << self.width) - 1

    def __missing__(self, key: int) -> int:
        mine = key & self.mask | 1 << (self.k - 1)
        level = self[key] = _level(mine, key >> self.width, self.k)
        return level


@lru_cache(maxsize=16)
def _level_table(k: int) -> _LevelTable:
    return _LevelTable(k)


def _classify(levels: tuple[int, int, int, int]) -> tuple[int, int]:
    fours = sum(lv >= L_FOUR for lv in levels)
    threes = sum(lv == L_THREE for lv in levels)
    if L_FIVE in levels:
        cls = C_WIN
    elif L_OPEN4 in levels or fours >= 2:
        cls = C_OPEN4
    elif fours and threes:
        cls = C_FOUR3
    elif fours:
        cls = C_FOUR
    elif threes >= 2:
        cls = C_DOUBLE3
    elif threes:
        cls = C_THREE
    else:
        cls = C_NONE
    return cls, sum(LEVEL_VALUE[lv] for lv in levels) + CLASS_BONUS[cls]


#: index l0 * 343 + l1 * 49 + l2 * 7 + l3 -> class, and -> score
_COMBOS = [_classify((i // 343, i // 49 % 7, i // 7 % 7, i % 7)) for i in range(7**4)]
CLASS_OF = tuple(c for c, _ in _COMBOS)
SCORE_OF = tuple(s for _, s in _COMBOS)
del _COMBOS
#: the weight of direction d in a class index
WEIGHTS = (343, 49, 7, 1)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


class Shape:
    """Precomputed tables of one board shape (rows, cols, k)."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.n = rows * cols
        self.width = 2 * k - 1
        self.wmask = (1 << self.width) - 1
        pad = k - 1
        rbits: list[list[int]] = [[0] * 4 for _ in range(self.n)]
        shifts: list[list[int]] = [[0] * 4 for _ in range(self.n)]
        walls: list[list[int]] = [[0] * 4 for _ in range(self.n)]
        spans: list[list[int]] = [[0] * 4 for _ in range(self.n)]
        for d, (dr, dc) in enumerate(DIRECTIONS):
            offset = pad
            for r in range(rows):
                for c in range(cols):
                    if 0 <= r - dr < rows and 0 <= c - dc < cols:
                        continue  # not the start of a line
                    line = []
                    rr, cc = r, c
                    while 0 <= rr < rows and 0 <= cc < cols:
                        line.append(rr * cols + cc)
                        rr, cc = rr + dr, cc + dc
                    for i, cell in enumerate(line):
                        pos = offset + i
                        rbits[cell][d] = 1 << pos
                        shifts[cell][d] = pos - pad
                        wall = span = 0
                        for j in range(self.width):
                            t = i + j - pad
                            if 0 <= t < len(line):
                                span |= 1 << line[t]
                            else:
                                wall |= 1 << j
                        walls[cell][d] = wall << self.width
                        spans[cell][d] = span
                    offset += len(line) + pad
        self.rbits = tuple(tuple(b) for b in rbits)
        self.shifts = tuple(tuple(s) for s in shifts)
        self.walls = tuple(tuple(w) for w in walls)
        self.spans = tuple(tuple(s) for s in spans)
        #: per cell, per direction: the other cells of its window (whose levels a stone there changes)
        self.span_cells = tuple(
            tuple(tuple(_bits(m & ~(1 << cell))) for m in spans[cell]) for cell in range(self.n)
        )
        #: per cell: (direction, its weight, ((cell, shift, wall, level slot), ...)) for ``Board.play``
        self.span_info = tuple(
            tuple(
                (d, WEIGHTS[d], tuple((c, shifts[c][d], walls[c][d], 4 * c + d) for c in self.span_cells[cell][d]))
                for d in range(4)
            )
            for cell in range(self.n)
        )
        near = []
        for r in range(rows):
            for c in range(cols):
                m = 0
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        if 0 <= r + dr < rows and 0 <= c + dc < cols and (abs(dr) == abs(dc) or dr == 0 or dc == 0):
                            m |= 1 << ((r + dr) * cols + c + dc)
                near.append(m)
        self.near = tuple(near)
        self.table = _level_table(k)
        self.cell_lines = line_tables(rows, cols, k)[1]
        # DELTA[a][b]: change of the line score (3 ** (a - 1) for a line holding a of one side's stones and
        # none of the other's, negated for the other side) when the side holding a adds a stone
        value = [[(3 ** (a - 1) if a and not b else -(3 ** (b - 1)) if b and not a else 0) for b in range(k + 1)]
                 for a in range(k + 1)]
        self.delta = tuple(
            tuple((value[a + 1][b] if a < k else 0) - value[a][b] for b in range(k + 1)) for a in range(k + 1)
        )
        self.centre = (rows // 2) * cols + cols // 2


@lru_cache(maxsize=16)
def shape_for(rows: int, cols: int, k: int) -> Shape:
    return Shape(rows, cols, k)


class Board:
    """A mutable position for the searches, per side (0 X, 1 O): the normal mask, the four rotated ones,
    and for every empty cell its four direction levels as one index into ``CLASS_OF``/``SCORE_OF``.

    The levels are kept incrementally: a stone changes only the windows of the cells on its four lines
    within k - 1 of it, so ``play`` re-reads those (a few dozen lookups) and ``undo`` restores them from a
    stack; ``scan`` is then a gather over the candidate cells.
    """

    def __init__(self, shape: Shape, x: int, o: int) -> None:
        self.shape = shape
        self.bb = [0, 0]
        self.rot = [[0, 0, 0, 0], [0, 0, 0, 0]]
        self.near = 0
        n = shape.n
        #: per side, per cell: l0 * 343 + l1 * 49 + l2 * 7 + l3 (what playing the cell makes)
        self.index = [[0] * n, [0] * n]
        #: per side, per cell * 4 + direction: the level in that direction
        self.levels = [[0] * (4 * n), [0] * (4 * n)]
        self.history: list[tuple[int, int, list[tuple[int, int, int]]]] = []
        #: the line score from X's side (alphabeta's "weighted" heuristic, kept incrementally)
        self.lines = 0
        self.cache: dict[tuple[int, int, int], list[tuple[int, int, int, int, int]]] = {}
        for side, mask in ((0, x), (1, o)):
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                self.play(low.bit_length() - 1, side)

    def play(self, cell: int, side: int) -> None:
        shape = self.shape
        self.bb[side] |= 1 << cell
        rot = self.rot[side]
        b0, b1, b2, b3 = shape.rbits[cell]
        rot[0] |= b0
        rot[1] |= b1
        rot[2] |= b2
        rot[3] |= b3
        mine, theirs = self.bb[side], self.bb[side ^ 1]
        delta = shape.delta
        d_lines = 0
        for line in shape.cell_lines[cell]:
            d_lines += delta[(line & mine).bit_count() - 1][(line & theirs).bit_count()]
        old_lines = self.lines
        self.lines = old_lines - d_lines if side else old_lines + d_lines
        occ = self.bb[0] | self.bb[1]
        table, wm, width = shape.table, shape.wmask, shape.width
        xr, orr = self.rot
        xl, ol = self.levels
        xi, oi = self.index
        changed = []
        for d, weight, cells in shape.span_info[cell]:
            xd, od = xr[d], orr[d]
            for c, s, w, j in cells:
                if occ >> c & 1:
                    continue
                a = xd >> s & wm
                b = od >> s & wm
                lx, lo = xl[j], ol[j]
                nx = table[a | (b << width | w)]
                no = table[b | (a << width | w)]
                if nx != lx or no != lo:
                    changed.append((j, lx, lo))
                    xl[j] = nx
                    ol[j] = no
                    xi[c] += (nx - lx) * weight
                    oi[c] += (no - lo) * weight
        self.history.append((self.near, old_lines, changed))
        self.near |= shape.near[cell]

    def undo(self, cell: int, side: int) -> None:
        self.bb[side] ^= 1 << cell
        rot = self.rot[side]
        b0, b1, b2, b3 = self.shape.rbits[cell]
        rot[0] ^= b0
        rot[1] ^= b1
        rot[2] ^= b2
        rot[3] ^= b3
        self.near, self.lines, changed = self.history.pop()
        xl, ol = self.levels
        xi, oi = self.index
        for j, lx, lo in changed:
            c, d = j >> 2, j & 3
            weight = WEIGHTS[d]
            xi[c] += (lx - xl[j]) * weight
            oi[c] += (lo - ol[j]) * weight
            xl[j] = lx
            ol[j] = lo

    def candidates(self) -> int:
        occ = self.bb[0] | self.bb[1]
        if not occ:
            return 1 << self.shape.centre
        return self.near & ~occ

    def scan(self, side: int) -> list[tuple[int, int, int, int, int]]:
        """Per candidate cell: (cell, own class, own score, their class, their score) for ``side``; cached
        per position (the searches meet the same positions again and again)."""
        key = (self.bb[0], self.bb[1], side)
        found = self.cache.get(key)
        if found is None:
            if len(self.cache) > CACHE_LIMIT:
                self.cache.clear()
            found = self.cache[key] = self._scan(side)
        return found

    def _scan(self, side: int) -> list[tuple[int, int, int, int, int]]:
        cls_of, score_of = CLASS_OF, SCORE_OF
        mine, theirs = self.index[side], self.index[side ^ 1]
        out = []
        rest = self.candidates()
        while rest:
            low = rest & -rest
            rest ^= low
            cell = low.bit_length() - 1
            ia = mine[cell]
            ib = theirs[cell]
            out.append((cell, cls_of[ia], score_of[ia], cls_of[ib], score_of[ib]))
        return out

    def cell_class(self, cell: int, side: int) -> int:
        """The class of ``cell`` (empty) for ``side``, from the kept levels."""
        return CLASS_OF[self.index[side][cell]]

    def toggle(self, cell: int, side: int) -> None:
        """Put a stone on (or take it off) the rotated boards only: for a quick look with ``fresh_class``."""
        rot = self.rot[side]
        b0, b1, b2, b3 = self.shape.rbits[cell]
        rot[0] ^= b0
        rot[1] ^= b1
        rot[2] ^= b2
        rot[3] ^= b3

    def fresh_class(self, cell: int, side: int) -> int:
        """The class of ``cell`` (empty) for ``side``, read from the rotated boards."""
        shape = self.shape
        table, wm, width = shape.table, shape.wmask, shape.width
        mine, theirs = self.rot[side], self.rot[side ^ 1]
        shifts, walls = shape.shifts[cell], shape.walls[cell]
        index = 0
        for d in range(4):
            s = shifts[d]
            a = mine[d] >> s & wm
            b = theirs[d] >> s & wm
            index = index * 7 + table[a | (b << width | walls[d])]
        return CLASS_OF[index]

    def five_point(self, cell: int, side: int, lines: tuple[tuple[int, ...], ...], k: int) -> int:
        """After ``side`` played ``cell``: a cell completing one of its lines through it, or -1."""
        mine, theirs = self.bb[side], self.bb[side ^ 1]
        for line in lines[cell]:
            if not line & theirs and (line & mine).bit_count() == k - 1:
                return (line & ~mine).bit_length() - 1
        return -1
