"""After the game: what each move did to the outcome with best play from both sides, or to the mover's chances.

For the boards the ``perfect`` solver knows (grid variants of at most 16 cells: classic, 4 x 4, 3 x 5 …),
every position of a game has an exact outcome for the side to move: a win, a draw or a loss. A move
that keeps the mover's outcome is sound; one that lowers it (a win let go, a draw lost) is a mistake,
and the moves that would have kept it are named. Only the sign of each value is needed, so each
position is searched with the narrow window round 0 that settles draws cheaply.

Boards too big to solve are analysed by ``evaluation.analyse_moves``: each move's verdict then also holds X's
chance to win before and after it (``x_before``, ``x_after``), and ``before`` / ``after`` are the mover's outcome
only where a search proved it (else None). A verdict's mark (``verdict``):

- both outcomes known (always on solved boards): "?" when the move lowered the mover's outcome by one step (a win
  let go to a draw, a draw to a loss), "??" by two (a win to a loss);
- otherwise by how much the move lowered the mover's chance to win (a draw counts a half): "??" by at least
  ``BLUNDER_DROP`` (0.30), "?" by at least ``MISTAKE_DROP`` (0.15); never for the best move found, nor in a
  position already proven lost. (lichess marks 0.10 / 0.15 of this scale; a quarter second of search is
  noisier than its engine, so the marks here ask for twice the drop.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .core import State, Variant
from .grid import GridState, GridVariant
from .strategies.perfect import MAX_CELLS, Solver, solver_for

#: outcomes for the side to move, worst first
OUTCOMES = ("loss", "draw", "win")
#: the drop in the mover's chance to win (0..1) that makes a move a mistake ("?") or a blunder ("??")
MISTAKE_DROP = 0.15
BLUNDER_DROP = 0.30
#: X's chance to win for each outcome of the mover
_CHANCE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True)
class MoveVerdict:
    """What move number ``ply`` (by ``side``, on ``move``) did, with best play from both sides."""

    ply: int
    side: str
    move: int
    before: str | None  # the mover's outcome before the move: "win", "draw" or "loss"; None: not proven
    after: str | None  # the mover's outcome after it
    best: tuple[int, ...]  # the moves that keep ``before`` (every legal move keeps a loss); else the best found
    x_before: float | None = None  # X's chance to win before the move; None: an exact verdict (from ``before``)
    x_after: float | None = None

    @property
    def exact(self) -> bool:
        """The solver's verdict (every position's outcome known), not a search's estimate."""
        return self.x_before is None

    def _x(self, outcome: str | None, chance: float | None) -> float:
        if chance is not None:
            return chance
        mine = _CHANCE[outcome or "draw"]
        return mine if self.side == "X" else 1.0 - mine

    @property
    def chance_before(self) -> float:
        """X's chance to win before the move (1, 1/2 or 0 where the outcome is exact)."""
        return self._x(self.before, self.x_before)

    @property
    def chance_after(self) -> float:
        return self._x(self.after, self.x_after)

    def _result(self, outcome: str | None) -> str | None:
        if outcome is None or outcome == "draw":
            return outcome
        return self.side if outcome == "win" else ("O" if self.side == "X" else "X")

    @property
    def proven_before(self) -> str | None:
        """The result with best play before the move where known: "X", "O", "draw"; else None."""
        return self._result(self.before)

    @property
    def proven_after(self) -> str | None:
        return self._result(self.after)

    @property
    def drop(self) -> float:
        """How much the move lowered the mover's chance to win (0 when it did not)."""
        change = self.chance_after - self.chance_before
        return max(0.0, -change if self.side == "X" else change)

    @property
    def verdict(self) -> str:
        """The mark: "??" a blunder, "?" a mistake, "" neither (the module's words say when)."""
        if self.before is not None and self.after is not None:
            steps = OUTCOMES.index(self.before) - OUTCOMES.index(self.after)
            return "??" if steps >= 2 else "?" if steps == 1 else ""
        if self.before == "loss" or (self.best and self.move == self.best[0]):
            return ""
        drop = self.drop
        return "??" if drop >= BLUNDER_DROP else "?" if drop >= MISTAKE_DROP else ""

    @property
    def mistake(self) -> bool:
        """A mistake or a blunder."""
        return bool(self.verdict)


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


def analyse(variant: Variant, moves: Sequence[int], *, start: State | None = None) -> list[MoveVerdict]:
    """A verdict for each of ``moves`` (a legal game of ``variant``, played from ``start``, by default its empty
    board).

    Raises ValueError if the variant has no exact solver (see ``can_analyse``) or a move is illegal.
    """
    if not can_analyse(variant):
        raise ValueError(
            f"moves are only analysed on grid boards of at most {MAX_CELLS} cells, not {variant.describe()}"
        )
    assert isinstance(variant, GridVariant)
    solver = solver_for(variant.rows, variant.cols, variant.k)
    state = variant.new_game() if start is None else start
    assert isinstance(state, GridState)
    verdicts = []
    for ply, move in enumerate(moves, start=1):
        if state.is_over:
            raise ValueError(f"move {ply} ({move}) comes after the end of the game")
        side = state.to_move
        me, opp = (state.x, state.o) if side == "X" else (state.o, state.x)
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
        verdicts.append(MoveVerdict(ply, side, move, before, outcomes[move], best))
        state = state.play(move)
    return verdicts
