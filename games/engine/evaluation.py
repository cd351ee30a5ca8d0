"""How a position stands, on every board: X's chance to win, a proven result where a search proves one, the best move.

One ``evaluate(state, seconds)`` for every variant, used alike by the analysis of a finished game (each of its
positions) and by the analysis board's "best move":

- boards the exact solver knows (one grid of at most 16 cells): the result with best play, exactly; X's chance
  is 1, 1/2 or 0, and the best move is one that keeps the result;
- gomoku-class grids (more than 16 cells, at most 8 in a row): the ``gomoku`` strategy's search for ``seconds``.
  A win at once, an open four or a forced win by fours (VCF) is a proven win for the side to move; two fives
  to block is a proven loss. Otherwise the alpha-beta value of its move (or, where no search ran, the board's
  static value) is mapped to a chance by a logistic curve (``GOMOKU_SCALE``); a forced win by threes (VCT,
  which the search does not check against every defence) counts as 0.95;
- ultimate and multi (and grids of more than 8 in a row): the search of ``mcts`` (with its defaults: on
  ultimate the move prior) and the MCTS-solver for ``seconds``; the chance is the mean reward of the most
  visited move (a draw counts a half), a proven win or loss where the solver proves one (it proves wins and
  losses, never draws).

A finished position is its result. The time is per position: a 60-move game at 0.25 s takes about 15 s.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from math import exp

from .analysis import MoveVerdict, analyse, can_analyse
from .core import State, Variant
from .grid import GridState, GridVariant
from .strategies.gomoku import GomokuStrategy
from .strategies.gomoku_board import C_WIN, WON, Board, shape_for
from .strategies.mcts import MCTSStrategy
from .strategies.perfect import solver_for

#: the time per position (seconds) when none is given: the analysis of a game and the analysis board alike
DEFAULT_SECONDS = 0.25
#: alpha-beta values of the gomoku search: a value of this size is a 73 % chance (1 / (1 + e^-1))
GOMOKU_SCALE = 600.0
#: a forced win by threes (VCT) found by the threat-space search: likely, not proven against every defence
VCT_CHANCE = 0.95
#: a win found by alpha-beta over the few candidate moves it searches (likely, not proven)
SEARCH_WIN_CHANCE = 0.98
#: the gomoku patterns' tables grow as 3 ** 2k: beyond this many in a row, grids are searched by MCTS
GOMOKU_MAX_K = 8


@dataclass(frozen=True)
class Evaluation:
    """A position seen from X: ``x_chance`` X's chance to win (a draw counts a half) in 0..1; ``proven`` the result
    with best play where a search proved it ("X", "O", "draw"), else None; ``best`` the best move found (None once
    the game is over); ``exact`` whether the exact solver said it (``best`` then keeps the result)."""

    x_chance: float
    proven: str | None
    best: int | None
    exact: bool = False


def _result(winner: str | None) -> float:
    return 1.0 if winner == "X" else 0.0 if winner == "O" else 0.5


def _for_x(chance: float, side: str) -> float:
    """``chance`` for ``side`` as X's chance."""
    return chance if side == "X" else 1.0 - chance


def _winner(mover_wins: bool, side: str) -> str:
    return side if mover_wins else ("O" if side == "X" else "X")


def evaluate(state: State, seconds: float = DEFAULT_SECONDS, seed: int = 0) -> Evaluation:
    """How ``state`` stands (see the module's words); ``seconds`` bounds the search of a board too big to solve."""
    if state.is_over:
        return Evaluation(_result(state.winner), state.winner or "draw", None, exact=True)
    board = getattr(state, "board", None)
    if board is not None:  # a Swap2 game: its stones' position, seen from the seats that hold them
        return _by_seat(state, evaluate(board, seconds, seed))
    if can_analyse(state.variant):
        return _exact(state)
    variant = state.variant
    if isinstance(state, GridState) and isinstance(variant, GridVariant) and variant.k <= GOMOKU_MAX_K:
        return _gomoku(state, seconds)
    return _mcts(state, seconds, seed)


def _by_seat(state: State, found: Evaluation) -> Evaluation:
    """The evaluation of a Swap2 game's stones (``found``: X = the stones placed first) for its seats; the best move
    is the stones' best while a stone is to be placed (none while a side is chosen)."""
    swapped = state.black != "X"  # type: ignore[attr-defined]
    chance = 1.0 - found.x_chance if swapped else found.x_chance
    proven = found.proven
    if proven in ("X", "O"):
        proven = state.seat(proven)  # type: ignore[attr-defined]
    best = found.best if found.best in state.legal_moves() else None
    return Evaluation(chance, proven, best, found.exact)


def _exact(state: State) -> Evaluation:
    assert isinstance(state, GridState)
    variant = state.variant
    solver = solver_for(variant.rows, variant.cols, variant.k)  # type: ignore[attr-defined]
    me, opp = (state.x, state.o) if state.to_move == "X" else (state.o, state.x)
    best_value, best = -2, None
    for cell in state.legal_moves():
        mine = me | 1 << cell
        if any(mine & line == line for line in solver.cell_lines[cell]):
            value = 1
        else:
            value = -solver.solve(opp, mine, -1, 1)
            value = 1 if value >= 1 else -1 if value <= -1 else 0
        if value > best_value:
            best_value, best = value, cell
            if value == 1:
                break
    side = state.to_move
    proven = "draw" if best_value == 0 else _winner(best_value == 1, side)
    return Evaluation(_result(proven if proven != "draw" else None), proven, best, exact=True)


def _gomoku(state: GridState, seconds: float) -> Evaluation:
    side = state.to_move
    strategy = GomokuStrategy(seconds=seconds)
    move, reason = strategy.analyse(state)
    if reason in ("win", "open four", "vcf"):
        return Evaluation(_for_x(1.0, side), side, move)
    if reason == "vct":
        return Evaluation(_for_x(VCT_CHANCE, side), None, move)
    variant: GridVariant = state.variant  # type: ignore[assignment]
    score = strategy.last_score
    if score is None:  # no search ran (the opening, a forced block): the board's value after the move
        board = Board(shape_for(variant.rows, variant.cols, variant.k), state.x, state.o)
        me = state.ply & 1
        fives = [c for c, _, _, tc, _ in board.scan(me) if tc == C_WIN]
        if len(set(fives)) >= 2:  # two fives to block: lost
            return Evaluation(_for_x(0.0, side), _winner(False, side), move)
        board.play(move, me)
        lines = board.lines if me == 0 else -board.lines
        threat = max((e[2] for e in board.scan(me ^ 1)), default=0)
        score = 10 * lines - threat // 4
    if abs(score) >= WON:  # a win inside alpha-beta's few candidate moves: likely, not proven against all
        return Evaluation(_for_x(SEARCH_WIN_CHANCE if score > 0 else 1.0 - SEARCH_WIN_CHANCE, side), None, move)
    return Evaluation(_for_x(1.0 / (1.0 + exp(-score / GOMOKU_SCALE)), side), None, move)


def _mcts(state: State, seconds: float, seed: int) -> Evaluation:
    side = state.to_move
    strategy = MCTSStrategy(seconds=seconds, seed=seed, solver=True, book=False, reuse=False)
    game = strategy.game_for(state)
    moves = game.root_moves()
    winning = game.winning_move(moves)
    if winning is not None:
        return Evaluation(_for_x(1.0, side), side, winning)
    tree = strategy.fresh_tree(game)
    game.run(tree, random.Random(seed), 1 << 62, time.perf_counter() + seconds, False)
    kids = tree.kids[tree.root]
    visited = [k for k in kids if tree.visits[k]]
    if not visited:  # no time for a single playout: nothing known
        return Evaluation(0.5, None, moves[0])
    proven = tree.proven
    won = [k for k in visited if proven[k] == 1]
    if won:
        return Evaluation(_for_x(1.0, side), side, tree.kmove[won[0]])
    alive = [k for k in visited if proven[k] != -1]
    if not alive and len(visited) == len(moves):  # every move loses
        best = max(visited, key=lambda k: tree.visits[k])
        return Evaluation(_for_x(0.0, side), _winner(False, side), tree.kmove[best])
    best = max(alive or visited, key=lambda k: tree.visits[k])
    chance = tree.total[best] / tree.visits[best]
    return Evaluation(_for_x(min(1.0, max(0.0, chance)), side), None, tree.kmove[best])


def _outcome(proven: str | None, side: str) -> str | None:
    """A proven result ("X", "O", "draw") as ``side``'s outcome ("win", "draw", "loss"); None stays None."""
    if proven is None or proven == "draw":
        return proven
    return "win" if proven == side else "loss"


def analyse_moves(
    variant: Variant, moves: Sequence[int], seconds: float = DEFAULT_SECONDS, *, start: State | None = None
) -> list[MoveVerdict]:
    """A verdict for each of ``moves`` (a game of ``variant`` from ``start``, by default its empty board), on every
    board: exact where the solver knows the board (``analysis.analyse``), else from ``evaluate`` of each position
    for ``seconds`` (one search per position: the position after a move is the one before the next). ValueError
    for an illegal move (IllegalMove) or one after the end of the game."""
    if can_analyse(variant):
        return analyse(variant, moves, start=start)
    if not moves:
        return []
    states = [variant.new_game() if start is None else start]
    for ply, move in enumerate(moves, start=1):
        if states[-1].is_over:
            raise ValueError(f"move {ply} ({move}) comes after the end of the game")
        states.append(states[-1].play(move))
    found = [evaluate(state, seconds, seed=n) for n, state in enumerate(states)]
    verdicts = []
    for ply, move in enumerate(moves, start=1):
        side, before, after = states[ply - 1].to_move, found[ply - 1], found[ply]
        verdicts.append(
            MoveVerdict(
                ply,
                side,
                move,
                _outcome(before.proven, side),
                _outcome(after.proven, side),
                () if before.best is None else (before.best,),
                before.x_chance,
                after.x_chance,
            )
        )
    return verdicts
