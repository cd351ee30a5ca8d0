"""``gomoku``: threat-space search and alpha-beta for k in a row on boards too big to solve.

Meant for m,n,k and n x n boards where neither ``perfect`` (at most 16 cells, which this strategy
leaves to it) nor ``pairing`` (n x n with n in a row) applies, above all 15 x 15 with five in a row.
In order, the player

1. wins at once; blocks the opponent's five; makes an open four (a win next move);
2. looks for its own forced win by continuous fours (VCF), then for the opponent's forced wins as if
   the opponent moved next (fours, then threes and fours: VCT), then for its own VCT;
3. when the opponent has a forced win, considers only the moves after which it has none (the
   must-block; a four of its own counts only if the threat is gone after the forced answer);
4. searches the rest with alpha-beta and iterative deepening over the best few candidate moves
   (ranked by pattern scores) until the time budget runs out. Inside the tree the same must-block
   holds: facing a five only the block is searched, facing an open-four or four-three threat only
   the cells on its lines and the mover's own fours. Leaves are scored by the lines (alphabeta's
   weighted heuristic: 3 ** (n - 1) for a line with n stones of one side and none of the other, kept
   incrementally) plus a quarter of the mover's best threat.

The budget is shared out: about 5 % for its own VCF, 12 % for the opponent's, 30 % for the
opponent's VCT, 45 % for its own, 70 % for checking defences; alpha-beta has the rest (at least 30 %).

Options: ``seconds`` (default 1.0, the budget of one move), ``depth`` (a cap on the alpha-beta
depth; 1 or 2 makes a shallow player), ``vct`` (default True: search threes as well as fours),
``width`` (candidate moves per node, default 8), ``slip`` (default none, i.e. 0: with this probability a move is
a random pick among the ``SLIP_AMONG`` best candidates by pattern score, without any search; wins,
blocks of a five and open fours are still played: a plausible move that may miss a threat, for the
ladder's rungs below hard) and ``seed`` (equally good root moves are chosen at random among; without a
seed the first one; it seeds the slips too).

Patterns. Threats are read move-centred: for an empty cell and a direction, the ``2k - 1`` cells
of the line centred on it (the only ones a line through the cell can use) decide what playing there
makes in that direction: a five, an open four (two ways to five), a four (one way), a three (a
stone more makes an open four: open and broken threes both), or less. The board is kept four more
times as "rotated" bit boards, one per direction, where each line of the board lies on consecutive
bits with ``k - 1`` padding bits between lines; so the window of a cell is one shift and one AND,
and (own window, blocked window) is the key of a dict of levels, filled once per pattern (there are
at most 3 ** (2k - 2) of them; a 15 x 15 game of 29 moves met about 1,600). The four levels of a
cell give its class (five, open or double four, four-three, four, double three, three) and score;
they are kept per cell and updated incrementally (``Board``).
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..core import State, Variant
from ..grid import GridState, GridVariant
from .base import Strategy, register
from .gomoku_board import (
    C_FOUR,
    C_FOUR3,
    C_NONE,
    C_OPEN4,
    C_THREE,
    C_WIN,
    DEFAULT_SECONDS,
    DEFAULT_WIDTH,
    MAX_SECONDS,
    SMALL_BOARD,
    VCF_DEPTH,
    VCT_DEPTH,
    VCT_WIDTH,
    WIN,
    WON,
    Board,
    GomokuOptionError,
    _Timeout,
    shape_for,
)


class Searcher:
    """The searches of one move: threat-space (VCF, VCT) and alpha-beta, sharing one deadline."""

    def __init__(self, board: Board, lines: tuple[tuple[int, ...], ...], deadline: float, width: int) -> None:
        self.board = board
        self.lines = lines
        self.k = board.shape.k
        self.deadline = deadline
        self.width = width
        self.nodes = 0
        self.fails: dict[tuple[int, int, int, bool], int] = {}  # position -> depth it failed at

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes & 15 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout

    # Threat-space search --------------------------------------------------------------------
    def attack(self, side: int, depth: int, threes: bool) -> int:
        """A move of ``side`` (to move) that starts a forced win by fours (and threes if ``threes``), or -1."""
        self.tick()
        board = self.board
        key = (board.bb[0], board.bb[1], side, threes)
        if self.fails.get(key, -1) >= depth:
            return -1
        scan = board.scan(side)
        wins = [c for c, mc, _, _, _ in scan if mc == C_WIN]
        if wins:
            return wins[0]
        blocks = [c for c, _, _, tc, _ in scan if tc == C_WIN]
        if len(blocks) >= 2:
            self.fails[key] = depth
            return -1
        opens = [c for c, mc, _, _, _ in scan if mc == C_OPEN4]
        if blocks:
            if blocks[0] in opens:
                return blocks[0]
            moves = [(ms, c, mc) for c, mc, ms, _, _ in scan if c == blocks[0]]
        else:
            if opens:
                return opens[0]
            low = C_THREE if threes else C_FOUR
            moves = [(ms, c, mc) for c, mc, ms, _, _ in scan if mc >= low]
        if depth <= 0 and threes:
            found = self.attack(side, VCF_DEPTH, False)  # the threes ran out: fours may still win
            if found < 0:
                self.fails[key] = depth
            return found
        if depth <= 0 or not moves:
            self.fails[key] = depth
            return -1
        moves.sort(reverse=True)
        if threes:
            moves = moves[:VCT_WIDTH]
        for _, cell, cls in moves:
            board.play(cell, side)
            try:
                if cls >= C_FOUR and not threes:
                    ok = self._forced_reply(cell, side, depth)
                else:
                    ok = self.defend(side, depth, threes)
            finally:
                board.undo(cell, side)
            if ok:
                return cell
        self.fails[key] = depth
        return -1

    def _forced_reply(self, cell: int, side: int, depth: int) -> bool:
        board = self.board
        reply = board.five_point(cell, side, self.lines, self.k)
        if reply < 0:
            return False
        board.play(reply, side ^ 1)
        try:
            return self.attack(side, depth - 1, False) >= 0
        finally:
            board.undo(reply, side ^ 1)

    def defend(self, side: int, depth: int, threes: bool) -> bool:
        """``side`` just made a threat; True if every answer of the other side still loses to it."""
        self.tick()
        board = self.board
        other = side ^ 1
        scan = board.scan(other)
        if any(mc == C_WIN for _, mc, _, _, _ in scan):
            return False  # the defender wins first
        fives = [c for c, _, _, tc, _ in scan if tc == C_WIN]
        if len(fives) >= 2:
            return True
        if fives:
            replies = fives
        else:
            threats = [c for c, _, _, tc, _ in scan if tc >= C_FOUR3]
            if not threats:
                return False
            span = 0
            for t in threats:
                for s in board.shape.spans[t]:
                    span |= s
            span &= ~(board.bb[0] | board.bb[1])
            replies = []
            rest = span
            while rest:
                low = rest & -rest
                rest ^= low
                c = low.bit_length() - 1
                board.toggle(c, other)
                if all(board.fresh_class(t, side) < C_FOUR3 for t in threats if t != c):
                    replies.append(c)
                board.toggle(c, other)
            replies += [c for c, mc, _, _, _ in scan if mc >= C_FOUR and c not in replies]
        for reply in replies:
            board.play(reply, other)
            try:
                ok = self.attack(side, depth - 1, threes) >= 0
            finally:
                board.undo(reply, other)
            if not ok:
                return False
        return True

    def winning_attack(self, side: int, threes: bool) -> int:
        """``attack`` with its depth; -1 on timeout too."""
        try:
            return self.attack(side, VCT_DEPTH if threes else VCF_DEPTH, threes)
        except _Timeout:
            return -1

    # Alpha-beta --------------------------------------------------------------------------------
    def moves(self, side: int) -> tuple[int, list[int]]:
        """(verdict, moves in search order): verdict 1 the mover wins now, 2 it makes an open four (a win
        in three plies), -1 it faces two fives, 0 otherwise. Facing a five only the block is a move; facing an
        open-four or four-three threat, only the cells on the threat's lines and the mover's own fours."""
        board = self.board
        scan = board.scan(side)
        best_mine = best_theirs = C_NONE
        for _, mc, _, tc, _ in scan:
            if mc > best_mine:
                best_mine = mc
            if tc > best_theirs:
                best_theirs = tc
        if best_mine == C_WIN:
            return 1, [c for c, mc, _, _, _ in scan if mc == C_WIN][:1]
        if best_theirs == C_WIN:
            blocks = [c for c, _, _, tc, _ in scan if tc == C_WIN]
            return (-1 if len(blocks) >= 2 else 0), blocks[:1]
        if best_mine == C_OPEN4:
            return 2, [c for c, mc, _, _, _ in scan if mc == C_OPEN4][:1]
        ranked = sorted(scan, key=lambda e: -(e[2] + e[4] * 0.9 if e[2] >= e[4] else e[4] + e[2] * 0.9))
        if best_theirs >= C_FOUR3:
            threats = [c for c, _, _, tc, _ in scan if tc >= C_FOUR3]
            span = 0
            for t in threats:
                for s in board.shape.spans[t]:
                    span |= s
            allowed = [e[0] for e in ranked if (span >> e[0] & 1) or e[1] >= C_FOUR]
            return 0, allowed[: max(self.width, 12)]
        return 0, [e[0] for e in ranked[: self.width]]

    def evaluate(self, side: int) -> int:
        """Lines (alphabeta's weighted heuristic) from ``side``'s view, plus the tempo of its best threat."""
        board = self.board
        lines = -board.lines if side else board.lines
        best = max((e[2] for e in board.scan(side)), default=0)
        return 10 * lines + best // 4

    def negamax(self, side: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.tick()
        board = self.board
        if depth <= 0:
            return self.evaluate(side)
        decided, moves = self.moves(side)
        if decided == 1:
            return WIN - ply - 1
        if decided == 2:
            return WIN - ply - 3
        if decided == -1:
            return -(WIN - ply - 2)
        if not moves:
            return 0
        best = -WIN
        full = (1 << board.shape.n) - 1
        for cell in moves:
            board.play(cell, side)
            try:
                if board.bb[0] | board.bb[1] == full:
                    value = 0
                else:
                    value = -self.negamax(side ^ 1, depth - 1, -beta, -alpha, ply + 1)
            finally:
                board.undo(cell, side)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best


#: a slip picks among this many of the best candidates by pattern score
SLIP_AMONG = 4


@register
class GomokuStrategy(Strategy):
    name = "gomoku"
    option_spec = {
        "seconds": ((int, float), None),
        "depth": (int, None),
        "vct": (bool, True),
        "width": (int, None),
        "slip": ((int, float), None),
        "seed": (int, None),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        seconds, depth, width = self.options["seconds"], self.options["depth"], self.options["width"]
        if seconds is None:
            seconds = self.options["seconds"] = DEFAULT_SECONDS
        if not 0 < seconds <= MAX_SECONDS:
            raise GomokuOptionError(
                f"option 'seconds' of 'gomoku' must be more than 0 and at most {MAX_SECONDS}, not {seconds}"
            )
        if depth is not None and not 1 <= depth <= 30:
            raise GomokuOptionError(f"option 'depth' of 'gomoku' must be between 1 and 30, not {depth}")
        if width is not None and not 2 <= width <= 50:
            raise GomokuOptionError(f"option 'width' of 'gomoku' must be between 2 and 50, not {width}")
        self.slip = float(self.options["slip"] or 0.0)
        if not 0 <= self.slip <= 1:
            raise GomokuOptionError(f"option 'slip' of 'gomoku' must be between 0 and 1, not {self.options['slip']}")
        self.seconds = float(seconds)
        self.depth = depth or 30
        self.width = width or DEFAULT_WIDTH
        seed = self.options["seed"]
        self.rng = random.Random(seed) if seed is not None else None
        self.slips = random.Random(seed)
        #: what the last ``choose`` did (for tests and benchmarks): 'win', 'block', 'vcf', 'vct', 'search', 'slip'
        self.last_reason = ""
        self.last_depth = 0
        #: the alpha-beta value of the last move chosen by search, for the side to move (None: no search ran)
        self.last_score: int | None = None

    def supports(self, variant: Variant) -> bool:
        # boards of at most 16 cells are solved (``perfect``): gomoku is for the ones that are not
        return isinstance(variant, GridVariant) and variant.k >= 3 and variant.cell_count > SMALL_BOARD

    def _choose(self, state: State) -> int:
        assert isinstance(state, GridState)
        return self.analyse(state)[0]

    def analyse(self, state: GridState) -> tuple[int, str]:
        """(move, reason) for the side to move."""
        variant: GridVariant = state.variant  # type: ignore[assignment]
        started = time.perf_counter()
        deadline = started + self.seconds
        shape = shape_for(variant.rows, variant.cols, variant.k)
        board = Board(shape, state.x, state.o)
        search = Searcher(board, variant.cell_lines, deadline, self.width)
        side = state.ply & 1
        other = side ^ 1
        legal = state.legal_moves()
        if not state.x | state.o:
            return self._done(shape.centre if shape.centre in legal else legal[0], "opening")
        scan = board.scan(side)
        if not scan:  # no stone has an empty neighbour in reach: any cell
            return self._done(legal[0], "only")
        by_cell = {e[0]: e for e in scan}
        for c, mc, _, _, _ in scan:
            if mc == C_WIN:
                return self._done(c, "win")
        blocks = [c for c, _, _, tc, _ in scan if tc == C_WIN]
        if blocks:
            return self._done(blocks[0], "block")
        opens = [c for c, mc, _, _, _ in scan if mc == C_OPEN4]
        if opens:
            return self._done(opens[0], "open four")
        if self.slip and self.slips.random() < self.slip:
            ranked = sorted(scan, key=lambda e: -(e[2] + e[4] * 0.9))
            return self._done(self.slips.choice(ranked[:SLIP_AMONG])[0], "slip")
        # Forced wins by fours (cheap) for either side; then threes, the opponent's first: a forced win of
        # theirs must be answered (must-block), a forced win of ours is only a bonus.
        vct = self.options["vct"]
        budget = self.seconds
        search.deadline = started + budget * 0.05
        move = search.winning_attack(side, False)
        if move >= 0:
            return self._done(move, "vcf")
        search.deadline = started + budget * 0.12
        theirs = search.winning_attack(other, False)
        if theirs < 0 and vct:
            search.deadline = started + budget * 0.3
            theirs = search.winning_attack(other, True)
        if vct:
            search.deadline = started + budget * 0.45
            move = search.winning_attack(side, True)
            if move >= 0:
                return self._done(move, "vct")
        allowed = [e[0] for e in scan]
        reason = "search"
        if theirs >= 0:
            defences = self._defences(search, side, scan, vct, started + budget * 0.7)
            if defences:
                allowed = defences
                reason = "defend"
        search.deadline = deadline
        return self._done(self._alphabeta(search, side, [c for c in allowed if c in by_cell], by_cell), reason)

    def _defences(
        self, search: Searcher, side: int, scan: list[tuple[int, int, int, int, int]], threes: bool, until: float
    ) -> list[int]:
        """Moves after which the opponent has no forced win (of the kind found), best first."""
        board = search.board
        other = side ^ 1
        ranked = sorted(scan, key=lambda e: -(e[4] * 2 + e[2] + (10**6 if e[1] >= C_FOUR else 0)))
        good = []
        search.deadline = until
        safe_from_fours = []
        lines, k = search.lines, search.k
        for c, mc, *_ in ranked[:24]:
            board.play(c, side)
            # a four of ours only delays: after their forced answer the threat must be gone too
            reply = board.five_point(c, side, lines, k) if mc >= C_FOUR else -1
            if reply >= 0:
                board.play(reply, other)
            try:
                if search.attack(other, VCF_DEPTH, False) < 0:
                    safe_from_fours.append(c)
                    if not threes or search.attack(other, VCT_DEPTH, True) < 0:
                        good.append(c)
            except _Timeout:
                break
            finally:
                if reply >= 0:
                    board.undo(reply, other)
                board.undo(c, side)
        return good or safe_from_fours

    def _alphabeta(
        self, search: Searcher, side: int, allowed: list[int], by_cell: dict[int, tuple[int, int, int, int, int]]
    ) -> int:
        order = sorted(allowed, key=lambda c: -(by_cell[c][2] + by_cell[c][4] * 0.9))
        if len(order) > max(self.width, 12):
            order = order[: max(self.width, 12)]
        if self.rng is not None:
            self.rng.shuffle(order)
            order.sort(key=lambda c: -(by_cell[c][2] + by_cell[c][4] * 0.9))
        best_move = order[0]
        board = search.board
        self.last_depth = 0
        self.last_score = None
        for depth in range(1, self.depth + 1):
            try:
                best, best_moves = -WIN - 1, []
                for cell in order:
                    board.play(cell, side)
                    try:
                        value = -search.negamax(side ^ 1, depth - 1, -WIN - 1, -(best - 1), 1)
                    finally:
                        board.undo(cell, side)
                    if value > best:
                        best, best_moves = value, [cell]
                    elif value == best:
                        best_moves.append(cell)
            except _Timeout:
                break
            best_move = best_moves[0] if self.rng is None else self.rng.choice(best_moves)
            self.last_depth = depth
            self.last_score = best
            order.remove(best_move)
            order.insert(0, best_move)
            if best >= WON or best <= -WON:
                break
        return best_move

    def _done(self, move: int, reason: str) -> tuple[int, str]:
        if reason not in ("search", "defend"):
            self.last_score = None
        self.last_reason = reason
        return move, reason
