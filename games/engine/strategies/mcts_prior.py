"""mcts's move prior on ultimate (default rules): a move's worth at a glance, from the rules of thumb good players
keep. It orders a node's moves (the best is expanded first), biases selection while a child has few visits, and
decides which moves a node may expand yet (progressive widening, ``mcts_knowing``).

A move is worth, in units of a win:

- ``PRIOR_WIN`` if it wins the small board it is on (a board still undecided), else ``PRIOR_BLOCK`` if it takes
  the cell where the opponent would win that board;
- minus ``PRIOR_FREE`` if it sends the opponent to a full board (a free choice of board);
- plus ``PRIOR_DEAD`` if it sends them to a board already decided (under the default rules they must still play
  there, a move that changes no board);
- minus ``PRIOR_SEND`` if it sends them to a board they can win at once.
"""

from __future__ import annotations

from collections.abc import Callable

from ..nested_raw import WIN9

#: WINNING9[mask]: the cells that complete a line of three for a player holding ``mask`` (taken or not)
WINNING9 = tuple(sum(1 << c for c in range(9) if not m >> c & 1 and WIN9[m | 1 << c]) for m in range(512))

PRIOR_WIN = 1.0
PRIOR_BLOCK = 0.5
PRIOR_FREE = 1.0
PRIOR_SEND = 1.0
PRIOR_DEAD = 0.3
#: ties are broken at random by at most this much (the order of equal moves is the search's only randomness)
JITTER = 0.001


def ordered_moves(
    xs: list[int], os_: list[int], occ: list[int], won: list[int], side: int, moves: list[int],
    rand: Callable[[], float],
) -> tuple[list[int], list[float]]:
    """``moves`` of the raw position sorted by their prior, worst first (expansion pops the best from the end), and
    their priors aligned with them. One call per node listed: the opponent's threats are found once."""
    owned = won[0] | won[1]
    mine, theirs = (os_, xs) if side else (xs, os_)
    winning = WINNING9
    threats = 0  # undecided boards where the opponent has a winning cell free
    for b in range(9):
        if not owned >> b & 1 and winning[theirs[b]] & ~occ[b] & 511:
            threats |= 1 << b
    scored = []
    for m in moves:
        b, c = divmod(m, 9)
        bit = 1 << c
        h = 0.0
        wins_board = False
        if not owned >> b & 1:
            if winning[mine[b]] & bit:
                h = PRIOR_WIN
                wins_board = True
            elif winning[theirs[b]] & bit:
                h = PRIOR_BLOCK
        if c == b:  # sent back to this board: as it is after the move
            after = occ[c] | bit
            if after == 511:
                h -= PRIOR_FREE
            elif wins_board or owned >> c & 1:
                h += PRIOR_DEAD
            elif winning[theirs[c]] & ~after & 511:
                h -= PRIOR_SEND
        elif occ[c] == 511:
            h -= PRIOR_FREE
        elif owned >> c & 1:
            h += PRIOR_DEAD
        elif threats >> c & 1:
            h -= PRIOR_SEND
        scored.append((h + JITTER * rand(), m))
    scored.sort()
    return [m for _, m in scored], [h for h, _ in scored]


def move_prior(xs: list[int], os_: list[int], occ: list[int], won: list[int], side: int, move: int) -> float:
    """One move's prior (for tests and for reading: ``ordered_moves`` is the search's, all moves at once)."""
    _, priors = ordered_moves(xs, os_, occ, won, side, [move], lambda: 0.0)
    return priors[0]
