"""mcts's smart playouts on the nested boards: a random playout that takes a win, or blocks a loss, on the small
board it is sent to (raw masks, no allocation: the same shape as ``nested_raw``'s plain playouts)."""

from __future__ import annotations

from collections.abc import Callable

from ..nested import Multi, NestedVariant
from ..nested_raw import (
    _CHUNK,
    BOARD_CELL,
    FREE_PICK,
    NEXT_OPEN,
    PICK9,
    POPCOUNT9,
    SENT,
    WIN9,
    _free_board,
)

# Playouts that look one move ahead on the board they are sent to ----------------------------------
#: WINNING9[mask]: the cells that complete a line of three for a player holding ``mask`` (taken or not)
WINNING9 = tuple(
    sum(1 << c for c in range(9) if not m >> c & 1 and WIN9[m | 1 << c]) for m in range(512)
)
#: FIRST9[mask]: the lowest cell of a non-empty 9-bit mask
FIRST9 = tuple((m & -m).bit_length() - 1 for m in range(512))


def _smart_ultimate(
    xs: list[int], os_: list[int], occ: list[int], xwon: int, owon: int, full: int, target: int, side: int,
    randbytes: Callable[[int], bytes],
) -> int:
    """ultimate's random playout, except that on the board it is sent to a player takes a small-board win
    when there is one, else blocks the opponent's, else plays at random (on boards still undecided)."""
    pick, win9, winning, first = PICK9, WIN9, WINNING9, FIRST9
    owned = xwon | owon
    mine, theirs = (os_, xs) if side else (xs, os_)
    if target < 0:
        target = _free_board(occ, full, randbytes)
    while True:
        for r in randbytes(_CHUNK):
            o = occ[target]
            if o == 511:
                target = _free_board(occ, full, randbytes)
                continue
            if owned >> target & 1:
                c = pick[o][r]
                if c > 8:
                    continue
            else:
                free = 511 ^ o
                w = winning[mine[target]] & free or winning[theirs[target]] & free
                if w:
                    c = first[w]
                else:
                    c = pick[o][r]
                    if c > 8:
                        continue
            bit = 1 << c
            o |= bit
            occ[target] = o
            mm = mine[target] | bit
            mine[target] = mm
            if win9[mm] and not owned >> target & 1:
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


def _smart_closed(
    xs: list[int], os_: list[int], occ: list[int], xwon: int, owon: int, full: int, target: int, side: int,
    randbytes: Callable[[int], bytes],
) -> int:
    """ultimate with ``closed_boards``: as ``_smart_ultimate`` on the board sent to; free choices at random."""
    pick, free_pick, win9, sent, board_cell, winning, first = PICK9, FREE_PICK, WIN9, SENT, BOARD_CELL, WINNING9, FIRST9
    closed = full | xwon | owon
    row = sent[closed]
    mine, theirs = (os_, xs) if side else (xs, os_)
    while True:
        for r in randbytes(_CHUNK):
            if target >= 0:
                b = target
                o = occ[b]
                free = 511 ^ o
                w = winning[mine[b]] & free or winning[theirs[b]] & free
                if w:
                    c = first[w]
                else:
                    c = pick[o][r]
                    if c > 8:
                        continue
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
            if win9[mm]:
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


def _smart_multi(
    xs: list[int], os_: list[int], occ: list[int], xwon: int, owon: int, full: int, target: int, side: int,
    randbytes: Callable[[int], bytes],
) -> int:
    """multi's random playout with a small-board win taken, else the opponent's blocked."""
    pick, win9, next_open, winning, first = PICK9, WIN9, NEXT_OPEN, WINNING9, FIRST9
    closed = full | xwon | owon
    row = next_open[closed]
    mine, theirs = (os_, xs) if side else (xs, os_)
    if target < 0:
        target = _free_board(occ, closed, randbytes)
    while True:
        for r in randbytes(_CHUNK):
            o = occ[target]
            free = 511 ^ o
            w = winning[mine[target]] & free or winning[theirs[target]] & free
            if w:
                c = first[w]
            else:
                c = pick[o][r]
                if c > 8:
                    continue
            bit = 1 << c
            o |= bit
            occ[target] = o
            mm = mine[target] | bit
            mine[target] = mm
            if win9[mm]:
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


def _smart_playout(variant: NestedVariant) -> Callable[..., int]:
    if isinstance(variant, Multi):
        return _smart_multi
    return _smart_closed if variant.closes_won else _smart_ultimate
