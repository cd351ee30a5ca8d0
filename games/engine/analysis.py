"""After the game: what each move did to the outcome with best play from both sides.

For the boards the ``perfect`` solver knows (grid variants of at most 16 cells: classic, 4 x 4, 3 x 5 …),
every position of a game has an exact outcome for the side to move: a win, a draw or a loss. A move
that keeps the mover's outcome is sound; one that lowers it (a win let go, a draw lost) is a mistake,
and the moves that would have kept it are named. Only the sign of each value is needed, so each
position is searched with the narrow window round 0 that settles draws cheaply.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .core import Variant, side_of_ply
from .grid import GridState, GridVariant
from .strategies.perfect import MAX_CELLS, Solver, solver_for

#: outcomes for the side to move, worst first
OUTCOMES = ("loss", "draw", "win")


@dataclass(frozen=True)
class MoveVerdict:
    """What move number ``ply`` (by ``side``, on ``move``) did, with best play from both sides."""

    ply: int
    side: str
    move: int
    before: str  # the mover's outcome before the move: "win", "draw" or "loss"
    after: str  # the mover's outcome after it
    best: tuple[int, ...]  # the moves that keep ``before`` (every legal move keeps a loss)

    @property
    def mistake(self) -> bool:
        return OUTCOMES.index(self.after) < OUTCOMES.index(self.before)


def outcome_words(outcome: str, mover: str) -> str:
    """An outcome for ``mover`` ("win", "draw", "loss") in words that name the winner: "a win for X"."""
    if outcome == "draw":
        return "a draw"
    return f"a win for {mover if outcome == 'win' else ('O' if mover == 'X' else 'X')}"


def can_analyse(variant: Variant) -> bool:
    """Whether ``analyse`` answers for this variant (exact outcomes need a small grid board)."""
    return isinstance(variant, GridVariant) and variant.cell_count <= MAX_CELLS


def _outcome(solver: Solver, me: int, opp: int) -> str:
    value = solver.solve(me, opp, -1, 1)  # exact when 0; otherwise at least its sign is right
    return "win" if value >= 1 else "loss" if value <= -1 else "draw"


def start_outcome(variant: Variant) -> str:
    """X's outcome with best play from the empty board (X moves first): "win", "draw" or "loss"."""
    if not can_analyse(variant):
        raise ValueError(f"best play is only known on grid boards of at most {MAX_CELLS} cells")
    assert isinstance(variant, GridVariant)
    return _outcome(solver_for(variant.rows, variant.cols, variant.k), 0, 0)


def analyse(variant: Variant, moves: Sequence[int]) -> list[MoveVerdict]:
    """A verdict for each of ``moves`` (a legal game of ``variant``, played from its start).

    Raises ValueError if the variant has no exact solver (see ``can_analyse``) or a move is illegal.
    """
    if not can_analyse(variant):
        raise ValueError(
            f"moves are only analysed on grid boards of at most {MAX_CELLS} cells, not {variant.describe()}"
        )
    assert isinstance(variant, GridVariant)
    solver = solver_for(variant.rows, variant.cols, variant.k)
    state: GridState = variant.new_game()
    verdicts = []
    for ply, move in enumerate(moves, start=1):
        if state.is_over:
            raise ValueError(f"move {ply} ({move}) comes after the end of the game")
        me, opp = (state.x, state.o) if ply % 2 else (state.o, state.x)
        outcomes = {}
        for cell in state.legal_moves():
            mine = me | 1 << cell
            if any(mine & line == line for line in solver.cell_lines[cell]):
                outcomes[cell] = "win"
            else:
                outcomes[cell] = OUTCOMES[2 - OUTCOMES.index(_outcome(solver, opp, mine))]
        if move not in outcomes:
            state.play(move)  # raises IllegalMove (a ValueError) saying why
            raise ValueError(f"move {ply} ({move}) is not legal")
        before = max(outcomes.values(), key=OUTCOMES.index)
        best = tuple(sorted(cell for cell, outcome in outcomes.items() if outcome == before))
        verdicts.append(MoveVerdict(ply, side_of_ply(ply), move, before, outcomes[move], best))
        state = state.play(move)
    return verdicts
