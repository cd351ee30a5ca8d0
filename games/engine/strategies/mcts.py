"""``mcts``: Monte-Carlo tree search (UCT) for every variant, bounded by ``iterations`` or ``seconds``.

Options:

- ``iterations``: playouts per move; ``seconds``: thinking time per move. Either or both (whichever
  runs out first); neither means ``seconds=1.0``. Only an ``iterations`` bound is repeatable.
- ``seed``: seeds the generator, so with ``iterations`` the same positions get the same moves.
- ``c`` (default 1.0): the UCT exploration constant; rewards are 1 win, 1/2 draw, 0 loss.

The final move is the most visited root child. A move that wins at once is played without search.

Why it is fast (tens of thousands of iterations a second on ultimate in pure Python):

- the tree is a handful of parallel lists indexed by node number, not objects;
- a node stores only the move into it: each iteration copies the root's raw bit masks (a few short
  lists) and replays the path with the variant's ``raw_step``; no state objects are built;
- UCT selection is one pass of C-level ``map`` over the children's cached mean and 1/sqrt(visits);
- the playout is the variant's ``raw_playout`` straight on those masks.
"""

from __future__ import annotations

import random
import time
from math import log, sqrt
from operator import add, or_
from typing import Any

from ..core import State, Variant
from ..grid import GridState, GridVariant
from ..nested import ONGOING, NestedState, NestedVariant
from . import Strategy, register

DEFAULT_SECONDS = 1.0
DEFAULT_C = 1.0
#: how often (in iterations) an ``iterations``-bounded search checks whether the leader is settled
SETTLE_CHECK = 64


@register
class MCTSStrategy(Strategy):
    name = "mcts"
    option_spec = {
        "iterations": (int, None),
        "seconds": ((int, float), None),
        "seed": (int, None),
        "c": ((int, float), None),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        iterations, seconds, c = self.options["iterations"], self.options["seconds"], self.options["c"]
        if iterations is not None and iterations < 1:
            raise ValueError(f"option 'iterations' of strategy 'mcts' must be at least 1, not {iterations}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"option 'seconds' of strategy 'mcts' must be more than 0, not {seconds}")
        if c is not None and c < 0:
            raise ValueError(f"option 'c' of strategy 'mcts' must not be negative, not {c}")
        if iterations is None and seconds is None:
            seconds = self.options["seconds"] = DEFAULT_SECONDS  # shown as the setting in use
        self.iterations: int | None = iterations
        self.seconds: float | None = seconds
        self.c = float(DEFAULT_C if c is None else c)
        self.rng = random.Random(self.options["seed"])
        #: iterations run by the last ``choose`` (for benchmarks)
        self.last_iterations = 0

    def supports(self, variant: Variant) -> bool:
        return isinstance(variant, (NestedVariant, GridVariant))

    def _choose(self, state: State) -> int:
        if isinstance(state, NestedState):
            return self._search(_NestedGame(state))
        if isinstance(state, GridState):
            return self._search(_GridGame(state))
        raise ValueError(f"strategy 'mcts' does not support {state!r}")  # pragma: no cover - supports() guards

    def _search(self, game: _NestedGame | _GridGame) -> int:
        moves = game.root_moves()
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        winning = game.winning_move(moves)
        if winning is not None:
            self.last_iterations = 0
            return winning
        budget = self.iterations if self.iterations is not None else 1 << 62
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        tree = game.run(self.rng, self.c, budget, deadline, self.iterations is not None)
        visits, mean, kids, kmove, done = tree
        self.last_iterations = done
        best = max(kids, key=lambda k: (visits[k], mean[k]))
        return kmove[best]


def _settled(visits: list[int], kids: list[int], remaining: int) -> bool:
    """True when no other root child can catch the most visited one in ``remaining`` iterations."""
    if len(kids) < 2:
        return True
    top = sorted(map(visits.__getitem__, kids))
    return top[-1] - top[-2] > remaining


class _NestedGame:
    """Search on the raw masks of a nested variant (ultimate, multi)."""

    def __init__(self, state: NestedState) -> None:
        self.variant: NestedVariant = state.variant  # type: ignore[assignment]
        self.xs = list(state.xs)
        self.os = list(state.os)
        self.occ = list(map(or_, state.xs, state.os))
        self.won = [state.xwon, state.owon]
        self.full = state.full
        self.target = state.target
        self.side = state.ply & 1

    def root_moves(self) -> list[int]:
        v = self.variant
        return v.raw_moves(self.occ, v.raw_closed(self.won[0], self.won[1], self.full), self.target)

    def winning_move(self, moves: list[int]) -> int | None:
        step = self.variant.raw_step
        for m in moves:
            if step(self.xs[:], self.os[:], self.occ[:], self.won[:], self.full, self.side, m)[2] == self.side:
                return m
        return None

    def run(
        self, rng: random.Random, c: float, budget: int, deadline: float | None, settle: bool
    ) -> tuple[list[int], list[float], list[int], list[int], int]:
        v = self.variant
        step, playout, moves_of = v.raw_step, v.raw_playout, v.raw_moves
        closes_won = v.closes_won
        randbytes, rand, clock = rng.randbytes, rng.random, time.perf_counter
        rxs, ros, rocc, rwon = self.xs, self.os, self.occ, self.won
        rfull, rtarget, rside = self.full, self.target, self.side
        # The tree: node i's visits, summed reward (for the side that moved into it), children, the move
        # into it, its moves not yet expanded (None: not listed yet), and, aligned with its children,
        # their mean rewards and 1/sqrt(visits) (kept in the parent so that selection is two maps).
        visits: list[int] = [0]
        total: list[float] = [0.0]
        kids: list[list[int]] = [[]]
        kmove: list[int] = [-1]
        untried: list[list[int] | None] = [None]
        cmean: list[list[float]] = [[]]
        cinv: list[list[float]] = [[]]
        #: where node i's own mean and 1/sqrt(visits) live: its parent's lists and its slot in them
        up_mean: list[list[float]] = [[]]
        up_inv: list[list[float]] = [[]]
        slot: list[int] = [0]
        done = 0
        while done < budget:
            if deadline is not None and clock() >= deadline:
                break
            if settle and done % SETTLE_CHECK == 0 and done and _settled(visits, kids[0], budget - done):
                break
            done += 1
            xs, os_, occ, won = rxs[:], ros[:], rocc[:], rwon[:]
            full, target, side = rfull, rtarget, rside
            node = 0
            path = []
            while True:
                todo = untried[node]
                if todo is None:
                    closed = full | won[0] | won[1] if closes_won else full
                    todo = untried[node] = moves_of(occ, closed, target)
                if todo:  # expand one random untried move, then play out from there
                    i = int(rand() * len(todo))
                    m = todo[i]
                    todo[i] = todo[-1]
                    todo.pop()
                    full, target, res = step(xs, os_, occ, won, full, side, m)
                    child = len(visits)
                    visits.append(0)
                    total.append(0.0)
                    kmove.append(m)
                    untried.append(None)
                    kids.append([])
                    cm = cmean[node]
                    slot.append(len(cm))
                    cm.append(0.0)
                    up_mean.append(cm)
                    ci = cinv[node]
                    ci.append(0.0)
                    up_inv.append(ci)
                    cmean.append([])
                    cinv.append([])
                    kids[node].append(child)
                    path.append(child)
                    if res == ONGOING:
                        res = playout(xs, os_, occ, won[0], won[1], full, target, side ^ 1, randbytes)
                    break
                scores = list(map(add, cmean[node], map((c * sqrt(log(visits[node]))).__mul__, cinv[node])))
                node = kids[node][scores.index(max(scores))]
                path.append(node)
                full, target, res = step(xs, os_, occ, won, full, side, kmove[node])
                if res != ONGOING:  # a finished game in the tree: its result is exact
                    break
                side ^= 1
            # Back up: path[0] was moved into by the root's side to move, then the sides alternate.
            visits[0] += 1
            r = 1.0 if res == rside else 0.5 if res < 0 else 0.0
            for n in path:
                k = visits[n] + 1
                visits[n] = k
                t = total[n] + r
                total[n] = t
                i = slot[n]
                up_mean[n][i] = t / k
                up_inv[n][i] = k**-0.5
                r = 1.0 - r
        mean = [t / k if k else 0.0 for t, k in zip(total, visits, strict=True)]
        return visits, mean, kids[0], kmove, done


class _GridGame:
    """Search on the two bit masks of a grid variant."""

    def __init__(self, state: GridState) -> None:
        self.variant: GridVariant = state.variant  # type: ignore[assignment]
        self.x = state.x
        self.o = state.o
        self.side = state.ply & 1

    def root_moves(self) -> list[int]:
        occ = self.x | self.o
        return [i for i in range(self.variant.cell_count) if not occ >> i & 1]

    def winning_move(self, moves: list[int]) -> int | None:
        mine = self.o if self.side else self.x
        cell_lines = self.variant.cell_lines
        for m in moves:
            after = mine | 1 << m
            if any(after & line == line for line in cell_lines[m]):
                return m
        return None

    def run(
        self, rng: random.Random, c: float, budget: int, deadline: float | None, settle: bool
    ) -> tuple[list[int], list[float], list[int], list[int], int]:
        v = self.variant
        cell_lines, full_mask, n_cells, playout = v.cell_lines, v.full, v.cell_count, v.raw_playout
        rand, clock = rng.random, time.perf_counter
        rx, ro, rside = self.x, self.o, self.side
        visits: list[int] = [0]
        total: list[float] = [0.0]
        mean: list[float] = [0.0]
        inv_sqrt: list[float] = [0.0]
        kids: list[list[int]] = [[]]
        kmove: list[int] = [-1]
        untried: list[list[int] | None] = [None]
        mean_of, inv_sqrt_of = mean.__getitem__, inv_sqrt.__getitem__
        done = 0
        while done < budget:
            if deadline is not None and clock() >= deadline:
                break
            if settle and done % SETTLE_CHECK == 0 and done and _settled(visits, kids[0], budget - done):
                break
            done += 1
            x, o, side = rx, ro, rside
            node = 0
            path = []
            while True:
                todo = untried[node]
                if todo is None:
                    occ = x | o
                    todo = untried[node] = [i for i in range(n_cells) if not occ >> i & 1]
                if todo:
                    i = int(rand() * len(todo))
                    m = todo[i]
                    todo[i] = todo[-1]
                    todo.pop()
                    child = len(visits)
                    visits.append(0)
                    total.append(0.0)
                    mean.append(0.0)
                    inv_sqrt.append(0.0)
                    kids.append([])
                    kmove.append(m)
                    untried.append(None)
                    kids[node].append(child)
                    path.append(child)
                else:
                    ks = kids[node]
                    explore = c * sqrt(log(visits[node]))
                    scores = list(map(add, map(mean_of, ks), map(explore.__mul__, map(inv_sqrt_of, ks))))
                    node = ks[scores.index(max(scores))]
                    path.append(node)
                    m = kmove[node]
                    child = -1
                bit = 1 << m
                if side:
                    o |= bit
                    mine = o
                else:
                    x |= bit
                    mine = x
                if any(mine & line == line for line in cell_lines[m]):
                    res = side
                    break
                if x | o == full_mask:
                    res = -1
                    break
                side ^= 1
                if child >= 0:  # just expanded: play out
                    res = playout(x, o, side, rand)
                    break
            visits[0] += 1
            r = 1.0 if res == rside else 0.5 if res < 0 else 0.0
            for n in path:
                k = visits[n] + 1
                visits[n] = k
                t = total[n] + r
                total[n] = t
                mean[n] = t / k
                inv_sqrt[n] = k**-0.5
                r = 1.0 - r
        return visits, mean, kids[0], kmove, done
