"""mcts's policy playouts on ultimate: random play with three rules of thumb that good players never break.

On the board it is sent to, a player

1. takes a small-board win there when it has one (on a board still undecided);
2. otherwise plays a random cell among those that do not send the opponent to a board where the opponent wins
   at once, nor to a full board (a free choice for the opponent); only when every cell does one of those, a random
   cell of the board.

Why it is cheap: the boards where each side has a winning cell are kept as two 9-bit masks, updated for the one
board a move touches, so rule 2 is a single lookup (``PICK9`` of the board's occupied cells with the forbidden
cells added, the same uniform byte pick as the plain playout). Raw masks, no allocation, as ``nested_raw``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..nested_raw import _CHUNK, PICK9, WIN9, _free_board

#: WINNING9[mask]: the cells that complete a line of three for a player holding ``mask`` (taken or not)
WINNING9 = tuple(sum(1 << c for c in range(9) if not m >> c & 1 and WIN9[m | 1 << c]) for m in range(512))
#: FIRST9[mask]: the lowest cell of a non-empty 9-bit mask
FIRST9 = tuple((m & -m).bit_length() - 1 for m in range(512))


def threats(mine: list[int], occ: list[int], owned: int) -> int:
    """The undecided boards where the holder of ``mine`` can win at once (a 9-bit mask)."""
    winning = WINNING9
    out = 0
    for b in range(9):
        if not owned >> b & 1 and winning[mine[b]] & ~occ[b] & 511:
            out |= 1 << b
    return out


def policy_ultimate(
    xs: list[int], os_: list[int], occ: list[int], xwon: int, owon: int, full: int, target: int, side: int,
    randbytes: Callable[[int], bytes],
) -> int:
    """The policy playout under ultimate's default rules (won boards stay playable); mutates the lists and returns
    the result (0 X won, 1 O won, -1 draw), like ``nested_raw._playout_ultimate``."""
    pick, win9, winning, first = PICK9, WIN9, WINNING9, FIRST9
    owned = xwon | owon
    if side:
        mine, theirs = os_, xs
        tm, th = threats(os_, occ, owned), threats(xs, occ, owned)
    else:
        mine, theirs = xs, os_
        tm, th = threats(xs, occ, owned), threats(os_, occ, owned)
    if target < 0:
        target = _free_board(occ, full, randbytes)
    while True:
        for r in randbytes(_CHUNK):
            o = occ[target]
            if o == 511:  # sent to a full board: play anywhere
                target = _free_board(occ, full, randbytes)
                continue
            if tm >> target & 1:
                c = first[winning[mine[target]] & ~o]
            else:
                c = pick[o | th | full][r]
                if c > 8:
                    if c == 9:  # every free cell sends somewhere bad: any of them
                        c = pick[o][r]
                        if c > 8:
                            continue
                    else:
                        continue
            bit = 1 << c
            o |= bit
            occ[target] = o
            mm = mine[target] | bit
            mine[target] = mm
            if not owned >> target & 1:
                if win9[mm]:
                    owned |= 1 << target
                    if mine is xs:
                        xwon |= 1 << target
                        if win9[xwon]:
                            return 0
                    else:
                        owon |= 1 << target
                        if win9[owon]:
                            return 1
                    tm &= ~(1 << target)
                    th &= ~(1 << target)
                else:
                    if winning[mm] & ~o & 511:
                        tm |= 1 << target
                    else:
                        tm &= ~(1 << target)
                    if th >> target & 1 and not winning[theirs[target]] & ~o & 511:
                        th &= ~(1 << target)
            if o == 511:
                full |= 1 << target
                if full == 511:
                    return -1
            target = c
            mine, theirs = theirs, mine
            tm, th = th, tm


def move_prior(xs: list[int], os_: list[int], occ: list[int], won: list[int], full: int, side: int, m: int) -> float:
    """A move's worth at a glance (ultimate, default rules), about -1..1: winning the small board it is on, or
    blocking the opponent's win there, is good; sending the opponent to a board they win at once, or to a full
    board (a free choice), is bad; sending them to a board already decided is good (their move there is lost)."""
    b, c = divmod(m, 9)
    bit = 1 << c
    owned = won[0] | won[1]
    mine, theirs = (os_, xs) if side else (xs, os_)
    h = 0.0
    if not owned >> b & 1:
        if WINNING9[mine[b]] & bit:
            h += PRIOR_WIN
        elif WINNING9[theirs[b]] & bit:
            h += PRIOR_BLOCK
    after = occ[c] | bit if c == b else occ[c]
    if after == 511:
        h -= PRIOR_FREE
    elif owned >> c & 1 or (b == c and h >= PRIOR_WIN):
        h += PRIOR_DEAD
    elif WINNING9[theirs[c]] & ~after & 511:
        h -= PRIOR_SEND
    return h


PRIOR_WIN = 1.0
PRIOR_BLOCK = 0.5
PRIOR_FREE = 1.0
PRIOR_SEND = 1.0
PRIOR_DEAD = 0.3


def win_first_ultimate(
    xs: list[int], os_: list[int], occ: list[int], xwon: int, owon: int, full: int, target: int, side: int,
    randbytes: Callable[[int], bytes],
) -> int:
    """The plain random playout, except that a player takes a small-board win on the board it is sent to (an
    undecided one) when it has one: rule 1 of ``policy_ultimate`` alone, at the cost of two lookups a move."""
    pick, win9, winning, first = PICK9, WIN9, WINNING9, FIRST9
    owned = xwon | owon
    mine, theirs = (os_, xs) if side else (xs, os_)
    if target < 0:
        target = _free_board(occ, full, randbytes)
    while True:
        for r in randbytes(_CHUNK):
            o = occ[target]
            w = 0 if owned >> target & 1 else winning[mine[target]] & ~o & 511
            if w:
                c = first[w]
            else:
                c = pick[o][r]
                if c > 8:
                    if c == 9:  # sent to a full board: play anywhere
                        target = _free_board(occ, full, randbytes)
                    continue
            bit = 1 << c
            o |= bit
            occ[target] = o
            mm = mine[target] | bit
            mine[target] = mm
            if w:
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


def ordered_moves(
    xs: list[int], os_: list[int], occ: list[int], won: list[int], full: int, side: int, moves: list[int],
    rand: Callable[[], float],
) -> tuple[list[int], list[float]]:
    """``moves`` sorted by ``move_prior`` (ties in random order), worst first, with their priors: one call per
    node listed, the best move at the end, where expansion pops it."""
    owned = won[0] | won[1]
    mine, theirs = (os_, xs) if side else (xs, os_)
    winning = WINNING9
    threats = 0  # boards where the opponent wins at once
    for b in range(9):
        if not owned >> b & 1 and winning[theirs[b]] & ~occ[b] & 511:
            threats |= 1 << b
    scored = []
    for m in moves:
        b, c = divmod(m, 9)
        bit = 1 << c
        h = 0.0
        won_here = False
        if not owned >> b & 1:
            if winning[mine[b]] & bit:
                h = PRIOR_WIN
                won_here = True
            elif winning[theirs[b]] & bit:
                h = PRIOR_BLOCK
        if c == b:
            after = occ[c] | bit
            if after == 511:
                h -= PRIOR_FREE
            elif won_here or owned >> c & 1:
                h += PRIOR_DEAD
            elif winning[theirs[c]] & ~after & 511:
                h -= PRIOR_SEND
        elif occ[c] == 511:
            h -= PRIOR_FREE
        elif owned >> c & 1:
            h += PRIOR_DEAD
        elif threats >> c & 1:
            h -= PRIOR_SEND
        scored.append((h + 0.001 * rand(), m))
    scored.sort()
    return [m for _, m in scored], [h for h, _ in scored]
