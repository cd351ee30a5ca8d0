"""Puzzles from real games: a position where the side to move has a short forced win, proven, with one way to it.

``find_puzzle(state)`` answers for the side to move (the *solver* of the puzzle): the winning line, or None. A
puzzle is kept only when

- the win is proven: on boards the exact solver knows (grids of at most 16 cells) by the solver itself; on bigger
  grids (gomoku-class) by a threat-space proof that checks every defence, a VCF: each move of the solving side wins at
  once, makes a four (a line one short, so the defender's only answer is to block it, unless they can win first:
  that refutes it), or blocks a four of the defender's that the defender's block made; on the nested boards (ultimate,
  multi) by an exhaustive search of every move of both sides, bounded by the line's length (the MCTS solver of the
  analysis finds these positions; this search proves the short win and names its moves);
- it is short: at most ``MAX_MOVES`` moves of the solving side (``NESTED_MAX_MOVES`` on nested boards, where the
  search is exhaustive);
- every move of the solving side along the line is the only one that keeps the win: on exact boards the only move
  that wins at all; on gomoku-class boards the only move that wins by such a proof within ``MAX_MOVES`` moves; on
  nested boards the only one that wins within ``NESTED_MAX_MOVES``. So a position with two winning first moves is
  never a puzzle.

The defender's replies are the longest resistance: of the replies that lose last, the one after which the solving
side's next move is unique, then the lowest cell. ``refutation(state)`` is the defence's answer to a wrong move (the
page shows it).
"""

from __future__ import annotations

from dataclasses import dataclass

from .analysis import can_analyse
from .core import State
from .grid import GridState, GridVariant, line_tables
from .strategies.base import get_strategy
from .strategies.perfect import solver_for

#: the solving side's moves in a puzzle at most
MAX_MOVES = 5
#: on nested boards (an exhaustive search of both sides' moves)
NESTED_MAX_MOVES = 3


@dataclass(frozen=True)
class Found:
    """A puzzle's solution: the moves from the position, the solving side's first and last; how it was proven."""

    solution: tuple[int, ...]
    proof: str  # "solver", "fours" or "search"

    @property
    def moves_to_win(self) -> int:
        return (len(self.solution) + 1) // 2


def find_puzzle(state: State) -> Found | None:
    """The puzzle in ``state`` for its side to move, or None (see the module's words)."""
    if state.is_over:
        return None
    if can_analyse(state.variant):
        return _exact(state)  # type: ignore[arg-type]
    if isinstance(state, GridState):
        return _Fours(state.variant).puzzle(state)  # type: ignore[arg-type]
    return _Nested(state).puzzle()


def refutation(state: State) -> int | None:
    """The defence's answer to a wrong move (``state``: after it, the defender to move): the solver's best move on
    exact boards; else a win at once, a block of the other side's win at once, or the ``threats`` player's move on
    grids; on nested boards a move after which the other side cannot win at once."""
    if state.is_over:
        return None
    if can_analyse(state.variant):
        me, opp = _sides(state)  # type: ignore[arg-type]
        variant: GridVariant = state.variant  # type: ignore[assignment]
        return solver_for(variant.rows, variant.cols, variant.k).best_move(me, opp)
    if isinstance(state, GridState):
        fours = _Fours(state.variant)  # type: ignore[arg-type]
        me, opp = _sides(state)
        for mask in (fours.completions(me, opp), fours.completions(opp, me)):
            if mask:
                return _low(mask)
        return get_strategy("threats").choose(state)
    moves = state.legal_moves()
    mover = state.to_move
    for move in moves:
        if state.play(move).winner == mover:
            return move
    for move in moves:
        after = state.play(move)
        if after.is_over or not any(after.play(m).winner == after.to_move for m in after.legal_moves()):
            return move
    return moves[0]


def _sides(state: GridState) -> tuple[int, int]:
    return (state.x, state.o) if state.to_move == "X" else (state.o, state.x)


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# Exact boards: the solver ------------------------------------------------------------------------------------


def _exact(state: GridState) -> Found | None:
    variant: GridVariant = state.variant  # type: ignore[assignment]
    solver = solver_for(variant.rows, variant.cols, variant.k)
    me, opp = _sides(state)
    line: list[int] = []
    while True:
        values = solver.move_values(me, opp)
        winners = [cell for cell, value in values.items() if value > 0]
        if len(winners) != 1:
            return None  # no win, or more than one move keeps it
        move = winners[0]
        empties = variant.cell_count - (me | opp).bit_count()
        if not line and (empties - values[move]) // 2 + 1 > MAX_MOVES:
            return None
        line.append(move)
        me |= 1 << move
        if values[move] == empties:  # completes a line: the win
            return Found(tuple(line), "solver")
        replies = solver.move_values(opp, me)  # the defender's, all losing: the longest resistance is the highest
        longest = max(replies.values())
        tied = sorted(cell for cell, value in replies.items() if value == longest)
        reply = min(tied, key=lambda cell: (_winners_after(solver, me, opp | 1 << cell) != 1, cell))
        line.append(reply)
        opp |= 1 << reply


def _winners_after(solver, me: int, opp: int) -> int:
    """How many moves of ``me`` (to move) win: the next move of the line is unique when it is 1."""
    return sum(value > 0 for value in solver.move_values(me, opp).values())


# Gomoku-class boards: fours ----------------------------------------------------------------------------------


class _Fours:
    """A VCF proof on a grid: exact over the defender's replies, the solving side restricted to wins at once, fours
    and forced blocks (see the module's words). Masks: ``me`` the side to move's stones, ``opp`` the other's."""

    def __init__(self, variant: GridVariant) -> None:
        self.lines, self.cell_lines = line_tables(variant.rows, variant.cols, variant.k)
        self.k1 = variant.k - 1
        self.full = variant.full
        self.memo: dict[tuple[int, int, int], int | None] = {}

    def completions(self, mine: int, theirs: int) -> int:
        """Cells where ``mine`` completes a line now."""
        found = 0
        k1 = self.k1
        for line in self.lines:
            if not line & theirs and (line & mine).bit_count() == k1:
                found |= line & ~mine
        return found

    def candidates(self, me: int, opp: int) -> list[int]:
        """The solving side's moves worth proving: the forced block when the other side has a win at once, else
        every move that makes a four (a completion for the next move)."""
        threats = self.completions(opp, me)
        if threats:
            return _bits(threats) if threats & (threats - 1) == 0 else []
        return self.fours(me, opp)

    def fours(self, me: int, opp: int) -> list[int]:
        """The moves that make a four: a line then one short of ``me``'s, free of ``opp``."""
        occupied = me | opp
        found = set()
        k2 = self.k1 - 1
        for line in self.lines:
            if not line & opp and (line & me).bit_count() == k2:
                found.update(_bits(line & ~occupied))
        return sorted(found)

    def depth(self, me: int, opp: int, n: int) -> int | None:
        """The fewest moves (at most ``n``) in which the side to move wins by the proof, else None."""
        if self.completions(me, opp):
            return 1
        if n <= 1:
            return None
        key = (me, opp, n)
        if key in self.memo:
            return self.memo[key]
        best = None
        for move in self.candidates(me, opp):
            found = self.after(me | 1 << move, opp, n)
            if found is not None and (best is None or found < best):
                best = found
                if best == 2:
                    break
        self.memo[key] = best
        return best

    def after(self, me: int, opp: int, n: int) -> int | None:
        """The solving side has just played (not a win), with ``n`` moves of its budget counting this one: the
        moves to its win against the longest resistance, else None."""
        if self.completions(opp, me) or (me | opp) == self.full:
            return None  # the defender wins at once (or nothing is left)
        mine = self.completions(me, opp)
        if not mine:
            return None  # a quiet move: the defender is free, nothing is proven
        if mine & (mine - 1):
            return 2  # two completions: one is blocked, the other wins
        found = self.depth(me, opp | mine, n - 1)
        return None if found is None else found + 1

    def winning_moves(self, me: int, opp: int) -> dict[int, int]:
        """Every move that wins by the proof within ``MAX_MOVES``, with its number of moves (a win at once, and
        every four that wins too: with a win at once in hand, a four elsewhere wins as well)."""
        at_once = self.completions(me, opp)
        wins = dict.fromkeys(_bits(at_once), 1)
        for move in self.fours(me, opp) if at_once else self.candidates(me, opp):
            if move in wins:
                continue
            found = self.after(me | 1 << move, opp, MAX_MOVES)
            if found is not None:
                wins[move] = found
        return wins

    def puzzle(self, state: GridState) -> Found | None:
        me, opp = _sides(state)
        line: list[int] = []
        while True:
            wins = self.winning_moves(me, opp)
            if len(wins) != 1:
                return None
            [(move, length)] = wins.items()
            if not line and length > MAX_MOVES:
                return None
            line.append(move)
            me |= 1 << move
            if length == 1:
                return Found(tuple(line), "fours")
            mine = self.completions(me, opp)
            reply = _low(mine)  # the block (of the lower one, when there are two: the other wins)
            line.append(reply)
            opp |= 1 << reply


# Nested boards: an exhaustive bounded search ------------------------------------------------------------------


class _Nested:
    """Exhaustive AND-OR search over every move of both sides, bounded by the solving side's moves."""

    def __init__(self, root: State) -> None:
        self.root = root
        self.side = root.to_move
        self.memo: dict[tuple[object, int, int], bool] = {}

    def wins_at_once(self, state: State) -> list[int]:
        side = state.to_move
        return [m for m in state.legal_moves() if state.play(m).winner == side]

    def wins_within(self, state: State, n: int) -> bool:
        """The side to move (the solving side) wins within ``n`` of its moves against every defence."""
        if n < 1 or state.is_over:
            return False
        key = (state.key(), state.ply & 1, n)
        if key in self.memo:
            return self.memo[key]
        result = bool(self.wins_at_once(state)) or (n > 1 and any(
            self.holds(state.play(move), n - 1) for move in state.legal_moves()
        ))
        self.memo[key] = result
        return result

    def holds(self, state: State, n: int) -> bool:
        """The defender to move: every reply still loses within ``n`` moves of the solving side."""
        if state.is_over:
            return False  # ended otherwise than by the solving side's win (a draw; a win is caught before)
        return all(not (after := state.play(reply)).is_over and self.wins_within(after, n)
                   for reply in state.legal_moves())

    def depth(self, state: State, limit: int) -> int | None:
        return next((n for n in range(1, limit + 1) if self.wins_within(state, n)), None)

    def reply_depth(self, state: State, limit: int) -> int | None:
        """The defender to move: the most moves the solving side then needs (the longest resistance), None if a
        reply escapes ``limit``."""
        worst = 0
        for reply in state.legal_moves():
            after = state.play(reply)
            found = None if after.is_over else self.depth(after, limit)
            if found is None:
                return None
            worst = max(worst, found)
        return worst

    def winning_moves(self, state: State) -> dict[int, int]:
        """Every move winning within ``NESTED_MAX_MOVES``, with its number of moves."""
        wins = dict.fromkeys(self.wins_at_once(state), 1)
        for move in state.legal_moves():
            if move in wins:
                continue
            after = state.play(move)
            found = None if after.is_over else self.reply_depth(after, NESTED_MAX_MOVES - 1)
            if found is not None:
                wins[move] = found + 1
        return wins

    def puzzle(self) -> Found | None:
        state = self.root
        line: list[int] = []
        while True:
            wins = self.winning_moves(state)
            if len(wins) != 1:
                return None
            [(move, length)] = wins.items()
            line.append(move)
            state = state.play(move)
            if length == 1:
                return Found(tuple(line), "search")
            replies = []
            for reply in state.legal_moves():
                after = state.play(reply)
                found = self.depth(after, length - 1)
                if found is not None:
                    replies.append((-found, len(self.winning_moves(after)) != 1, reply))
            line.append(min(replies)[2])
            state = state.play(line[-1])
