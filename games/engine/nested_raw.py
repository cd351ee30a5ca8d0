"""The nested variants' tables and hot loops: 9-bit masks per small board, looked up in precomputed tables, and
random playouts and single steps on raw masks that allocate no state (mcts and the benchmark run millions of
them). ``nested`` builds the variants and states on them."""

from __future__ import annotations

from collections.abc import Callable

from .core import nested_cell_names

LINES3 = (0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010, 0b100100100, 0b100010001, 0b001010100)
ALL9 = 0b111111111
#: WIN9[mask]: the 9-bit mask holds a 3-in-a-row
WIN9 = tuple(any(m & line == line for line in LINES3) for m in range(512))
#: FREE9[occupied]: the empty cells of a board, ascending
FREE9 = tuple(tuple(c for c in range(9) if not m >> c & 1) for m in range(512))
POPCOUNT9 = tuple(bin(m).count("1") for m in range(512))
#: NEXT_OPEN[closed][c]: multi's rule 3, the first open board from c upwards, wrapping; -1 if none
NEXT_OPEN = tuple(
    tuple(next(((c + i) % 9 for i in range(9) if not closed >> ((c + i) % 9) & 1), -1) for c in range(9))
    for closed in range(512)
)

# Tables for the raw, allocation-free code below (random playouts and mcts) --------------------
#: result code of a raw position whose game goes on (0 X won, 1 O won, -1 draw)
ONGOING = -2
#: OPEN9[closed]: the open boards, ascending
OPEN9 = tuple(tuple(b for b in range(9) if not closed >> b & 1) for closed in range(512))
#: MOVES9[board][occupied]: the legal moves on that board, ascending
MOVES9 = tuple(tuple(tuple(9 * b + c for c in FREE9[occ]) for occ in range(512)) for b in range(9))
#: BOARD_CELL[move] = (board, cell)
BOARD_CELL = tuple(divmod(m, 9) for m in range(81))
#: SENT[closed][c]: ultimate's next target after a move in cell c (-1: free choice)
SENT = tuple(tuple(-1 if closed >> c & 1 else c for c in range(9)) for closed in range(512))
_REJECT = 255
#: BOARD_NAMES[board]: a small board named by its bottom-left and top-right cells, e.g. 'd4-f6' (board 4)
BOARD_NAMES = tuple(f"{nested_cell_names()[9 * b + 6]}-{nested_cell_names()[9 * b + 2]}" for b in range(9))


def board_label(board: int) -> str:
    """'board 4 (d4-f6)': a small board's number with its cells' range."""
    return f"board {board} ({BOARD_NAMES[board]})"


def _byte_pick(options: tuple[int, ...], reject: int) -> tuple[int, ...]:
    """Map a random byte 0..255 uniformly onto ``options``; the few bytes beyond the largest multiple of
    len(options) map to ``reject`` (the caller draws again), so the pick is exactly uniform."""
    n = len(options)
    limit = 256 // n * n if n else 0
    return tuple(options[r % n] if r < limit else reject for r in range(256))


#: PICK9[occupied][byte]: a uniformly random empty cell of a board, or 255 (draw again);
#: for a full board every byte gives FULL_MARK (ultimate: the move may go anywhere)
FULL_MARK = 9
PICK9 = tuple(bytes(_byte_pick(FREE9[occ], _REJECT)) if occ != ALL9 else bytes([FULL_MARK] * 256) for occ in range(512))
#: FREE_PICK[closed << 8 | byte]: a uniformly random move among ALL cells of the open boards, or -1;
#: the caller rejects occupied cells too, which leaves the choice uniform over the legal moves
FREE_PICK = tuple(
    m
    for closed in range(512)
    for m in _byte_pick(tuple(9 * b + c for b in range(9) if not closed >> b & 1 for c in range(9)), -1)
)
#: bytes drawn per refill of a playout's random stream: about one game's worth
_CHUNK = 96
# The playouts below write 511 (ALL9) as a literal: a constant load is cheaper than a global one.


def _free_board(occ: list[int], closed: int, randbytes: Callable[[int], bytes]) -> int:
    """A board for a free choice, drawn with probability proportional to its empty cells: a uniform
    cell of it drawn next makes the move uniform over all legal moves."""
    free_pick, board_cell = FREE_PICK, BOARD_CELL
    while True:
        for r in randbytes(16):
            m = free_pick[closed << 8 | r]
            if m >= 0:
                b, c = board_cell[m]
                if not occ[b] >> c & 1:
                    return b


def _playout_ultimate(
    xs: list[int], os_: list[int], occ: list[int], xwon: int, owon: int, full: int, target: int, side: int,
    randbytes: Callable[[int], bytes],
) -> int:
    """Random playout under ultimate's default rules (only full boards are closed); mutates the lists.

    Why it is fast: one random byte per move (drawn in bulk), one table lookup turns it into a cell,
    no objects are built, and the side to move is a swap of two local names (``mine is xs``: X moves).
    The next board is simply the cell played; when that board is full its pick row says FULL_MARK
    and a board is drawn for the free choice (rare), so the common path has no branch for it.
    """
    pick, win9 = PICK9, WIN9
    owned = xwon | owon
    mine, theirs = (os_, xs) if side else (xs, os_)
    if target < 0:
        target = _free_board(occ, full, randbytes)
    while True:
        for r in randbytes(_CHUNK):
            c = pick[occ[target]][r]
            if c > 8:
                if c == 9:  # sent to a full board: play anywhere
                    target = _free_board(occ, full, randbytes)
                continue
            bit = 1 << c
            o = occ[target] | bit
            occ[target] = o
            mm = mine[target] | bit
            mine[target] = mm
            if win9[mm] and not owned >> target & 1:
                # rare: the won masks are looked after here rather than swapped every move
                owned |= 1 << target
                if mine is xs:
                    xwon |= 1 << target
                    if win9[xwon]:
                        return 0
                else:
                    owon |= 1 << target
                    if win9[owon]:
                        return 1
            if o == 511:
                full |= 1 << target
                if full == 511:
                    return -1
            target = c
            mine, theirs = theirs, mine


def _playout_closed(
    xs: list[int], os_: list[int], occ: list[int], xwon: int, owon: int, full: int, target: int, side: int,
    randbytes: Callable[[int], bytes],
) -> int:
    """Random playout of ultimate with ``closed_boards`` (won boards are closed too)."""
    pick, free_pick, win9, sent, board_cell = PICK9, FREE_PICK, WIN9, SENT, BOARD_CELL
    closed = full | xwon | owon
    row = sent[closed]
    mine, theirs = (os_, xs) if side else (xs, os_)
    while True:
        for r in randbytes(_CHUNK):
            if target >= 0:
                c = pick[occ[target]][r]
                if c > 8:
                    continue
                b = target
            else:
                m = free_pick[closed << 8 | r]
                if m < 0:
                    continue
                b, c = board_cell[m]
                if occ[b] >> c & 1:
                    continue
            bit = 1 << c
            o = occ[b] | bit
            occ[b] = o
            mm = mine[b] | bit
            mine[b] = mm
            if win9[mm]:  # a board is closed once won, so this is a fresh win
                if mine is xs:
                    xwon |= 1 << b
                    if win9[xwon]:
                        return 0
                else:
                    owon |= 1 << b
                    if win9[owon]:
                        return 1
                closed |= 1 << b
                if closed == 511:
                    return -1
                row = sent[closed]
            elif o == 511:
                closed |= 1 << b
                if closed == 511:
                    return -1
                row = sent[closed]
            target = row[c]
            mine, theirs = theirs, mine


def _playout_multi(
    xs: list[int], os_: list[int], occ: list[int], xwon: int, owon: int, full: int, target: int, side: int,
    randbytes: Callable[[int], bytes],
) -> int:
    """Random playout of multi: won and full boards close; the most boards won wins at the end.
    Only the very first move of a game may be free; after it the next board is always an open one."""
    pick, win9, next_open = PICK9, WIN9, NEXT_OPEN
    closed = full | xwon | owon
    row = next_open[closed]
    mine, theirs = (os_, xs) if side else (xs, os_)
    if target < 0:
        target = _free_board(occ, closed, randbytes)
    while True:
        for r in randbytes(_CHUNK):
            c = pick[occ[target]][r]
            if c > 8:
                continue
            bit = 1 << c
            o = occ[target] | bit
            occ[target] = o
            mm = mine[target] | bit
            mine[target] = mm
            if win9[mm]:
                # rare: the won masks are looked after here rather than swapped every move
                if mine is xs:
                    xwon |= 1 << target
                else:
                    owon |= 1 << target
                closed |= 1 << target
            elif o == 511:
                closed |= 1 << target
            else:
                target = row[c]
                mine, theirs = theirs, mine
                continue
            if closed == 511:
                nx, no = POPCOUNT9[xwon], POPCOUNT9[owon]
                return 0 if nx > no else 1 if no > nx else -1
            row = next_open[closed]
            target = row[c]
            mine, theirs = theirs, mine


def _step_ultimate(
    xs: list[int], os_: list[int], occ: list[int], won: list[int], full: int, side: int, move: int
) -> tuple[int, int, int]:
    b, c = BOARD_CELL[move]
    bit = 1 << c
    mine = os_ if side else xs
    m = mine[b] | bit
    mine[b] = m
    o = occ[b] | bit
    occ[b] = o
    if o == ALL9:
        full |= 1 << b
    if WIN9[m] and not (won[0] | won[1]) >> b & 1:
        w = won[side] | 1 << b
        won[side] = w
        if WIN9[w]:
            return full, -1, side
    if full == ALL9:
        return full, -1, -1
    return full, -1 if full >> c & 1 else c, ONGOING


def _step_closed(
    xs: list[int], os_: list[int], occ: list[int], won: list[int], full: int, side: int, move: int
) -> tuple[int, int, int]:
    b, c = BOARD_CELL[move]
    bit = 1 << c
    mine = os_ if side else xs
    m = mine[b] | bit
    mine[b] = m
    o = occ[b] | bit
    occ[b] = o
    if o == ALL9:
        full |= 1 << b
    if WIN9[m] and not (won[0] | won[1]) >> b & 1:
        w = won[side] | 1 << b
        won[side] = w
        if WIN9[w]:
            return full, -1, side
    closed = full | won[0] | won[1]
    if closed == ALL9:
        return full, -1, -1
    return full, -1 if closed >> c & 1 else c, ONGOING


def _step_multi(
    xs: list[int], os_: list[int], occ: list[int], won: list[int], full: int, side: int, move: int
) -> tuple[int, int, int]:
    b, c = BOARD_CELL[move]
    bit = 1 << c
    mine = os_ if side else xs
    m = mine[b] | bit
    mine[b] = m
    o = occ[b] | bit
    occ[b] = o
    if o == ALL9:
        full |= 1 << b
    if WIN9[m] and not (won[0] | won[1]) >> b & 1:
        won[side] |= 1 << b
    closed = full | won[0] | won[1]
    if closed == ALL9:
        nx, no = POPCOUNT9[won[0]], POPCOUNT9[won[1]]
        return full, -1, 0 if nx > no else 1 if no > nx else -1
    return full, NEXT_OPEN[closed][c], ONGOING
