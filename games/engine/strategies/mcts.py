"""``mcts``: Monte-Carlo tree search (UCT) for every variant, bounded by ``iterations`` or ``seconds``.

Options:

- ``iterations``: playouts per move; ``seconds``: thinking time per move. Either or both (whichever
  runs out first); neither means ``seconds=1.0``. Only an ``iterations`` bound is repeatable.
- ``seed``: seeds the generator, so with ``iterations`` the same positions get the same moves.
- ``c`` (default 1.0): the UCT exploration constant; rewards are 1 win, 1/2 draw, 0 loss.
- ``solver`` (ultimate, multi): MCTS-solver. A move that ends the game with a win is a proven win; a
  position with a winning move is a proven loss for the side that moved into it, and one whose moves
  are all proven losses is a proven win. UCT then always takes a proven win and never a proven loss,
  and the search stops once the root is proven.
- ``smart`` (ultimate, multi): playouts that, on the small board they are sent to, take a win of that
  board when there is one, else block the opponent's, else play at random.
- ``reuse`` (ultimate, multi): the strategy object keeps its last tree; when the next position follows
  the last one by a move or two (its own and the reply), the search goes on from that subtree. The move
  chosen is still legal and sound for the position given, whatever came before; only the statistics
  carry over.

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
from math import inf, log, sqrt
from operator import add as add_
from operator import or_
from typing import Any

from ..core import State, Variant
from ..grid import GridState, GridVariant
from ..nested import NestedState, NestedVariant
from ..nested_raw import (
    ONGOING,
)
from .base import Strategy, register
from .mcts_playouts import _smart_playout

DEFAULT_SECONDS = 1.0
DEFAULT_C = 1.0
#: an hour a move: a budget no one waits for (inf or 1e308 would never return)
MAX_SECONDS = 3600
#: how often (in iterations) an ``iterations``-bounded search checks whether the leader is settled
SETTLE_CHECK = 64
#: a kept tree larger than this (nodes) is dropped rather than reused (memory)
REUSE_LIMIT = 3_000_000


@register
class MCTSStrategy(Strategy):
    name = "mcts"
    option_spec = {
        "iterations": (int, None),
        "seconds": ((int, float), None),
        "seed": (int, None),
        "c": ((int, float), None),
        "solver": (bool, False),
        "smart": (bool, False),
        "reuse": (bool, False),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        iterations, seconds, c = self.options["iterations"], self.options["seconds"], self.options["c"]
        if iterations is not None and iterations < 1:
            raise ValueError(f"option 'iterations' of strategy 'mcts' must be at least 1, not {iterations}")
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(
                f"option 'seconds' of strategy 'mcts' must be more than 0 and at most {MAX_SECONDS}, not {seconds}"
            )
        if c is not None and not 0 <= c < inf:  # also refuses nan, which compares false with anything
            raise ValueError(f"option 'c' of strategy 'mcts' must be a finite number of at least 0, not {c}")
        if iterations is None and seconds is None:
            seconds = self.options["seconds"] = DEFAULT_SECONDS  # shown as the setting in use
        self.iterations: int | None = iterations
        self.seconds: float | None = seconds
        self.c = float(DEFAULT_C if c is None else c)
        self.rng = random.Random(self.options["seed"])
        #: iterations run by the last ``choose`` (for benchmarks)
        self.last_iterations = 0
        #: nested variants with ``reuse``: the last search's tree and its root position, for the next move
        self._kept: tuple[Any, _Tree] | None = None
        self._last_tree: _Tree | None = None
        self.last_reused = 0

    def supports(self, variant: Variant) -> bool:
        return isinstance(variant, (NestedVariant, GridVariant))

    def _choose(self, state: State) -> int:
        if isinstance(state, NestedState):
            return self._search(_NestedGame(state, self.options["solver"], self.options["smart"]), state)
        if isinstance(state, GridState):
            return self._search(_GridGame(state))
        raise ValueError(f"strategy 'mcts' does not support {state!r}")  # pragma: no cover - supports() guards

    def _search(self, game: _NestedGame | _GridGame, state: State | None = None) -> int:
        moves = game.root_moves()
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        winning = game.winning_move(moves)
        if winning is not None:
            self.last_iterations = 0
            return winning
        tree = self._reused(state) if self.options["reuse"] and state is not None else None
        #: visits the search started with (a reused subtree's), for tests and benchmarks
        self.last_reused = 0 if tree is None else tree.visits[tree.root]
        if tree is None:
            tree = _Tree(self.c)
        budget = self.iterations if self.iterations is not None else 1 << 62
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        self.last_iterations = game.run(tree, self.rng, budget, deadline, self.iterations is not None)
        visits, total, root = tree.visits, tree.total, tree.root
        kids = tree.kids[root]
        if not kids:  # the budget ran out before a single iteration (a busy machine): any legal move
            return self.rng.choice(moves)
        proven = tree.proven
        won = [k for k in kids if proven[k] == 1]
        if won:
            best = won[0]
        else:
            alive = [k for k in kids if proven[k] != -1 and visits[k]] or [k for k in kids if visits[k]] or kids
            best = max(alive, key=lambda k: (visits[k], total[k] / visits[k] if visits[k] else 0.0))
        if self.options["reuse"] and state is not None:
            self._kept = (state, tree)
        self._last_tree = tree  # for tests: what the last search proved
        return tree.kmove[best]

    def _reused(self, state: State) -> _Tree | None:
        """The kept tree re-rooted at ``state`` when ``state`` follows the kept root by a move or two."""
        if self._kept is None:
            return None
        old, tree = self._kept
        self._kept = None
        if not isinstance(state, NestedState) or old.variant != state.variant or len(tree.visits) > REUSE_LIMIT:
            return None
        # a NestedState keeps no history: the moves since the kept root are the cells that filled since
        diff = [m for m in range(81) if (state.xs[m // 9] | state.os[m // 9]) >> (m % 9) & 1
                and not (old.xs[m // 9] | old.os[m // 9]) >> (m % 9) & 1]
        if not 1 <= len(diff) <= 2 or state.ply - old.ply != len(diff):
            return None
        # the order of the moves: the old root's side played the one it owns
        mover = old.ply & 1
        mine = old.xs if mover == 0 else old.os
        after_mine = state.xs if mover == 0 else state.os
        first = [m for m in diff if after_mine[m // 9] >> (m % 9) & 1 and not mine[m // 9] >> (m % 9) & 1]
        order = first + [m for m in diff if m not in first]
        node = tree.root
        for m in order:
            node = next((k for k in tree.kids[node] if tree.kmove[k] == m), -1)
            if node < 0 or tree.untried[node] is None:
                return None
        if tree.proven[node] != 0:
            return None
        tree.reroot(node)
        return tree


class _Tree:
    """The search tree as parallel lists indexed by node number (node 0 is the root).

    Per node: visits, summed reward (for the side that moved into it), the move into it, its moves
    not yet expanded (None: not listed yet), its children, and, aligned with the children, their
    mean rewards and 1/sqrt(visits): kept in the parent so that UCT selection is two C-level maps.
    ``up_mean[i]``/``up_inv[i]``/``slot[i]`` say where node i's own entries live in its parent.
    Children lists are made when a node is first listed, so the many leaves cost no lists.
    """

    __slots__ = (
        "c", "visits", "total", "kmove", "untried", "kids", "cmean", "cinv", "up_mean", "up_inv", "slot",
        "root", "parent", "proven",
    )

    def __init__(self, c: float) -> None:
        self.c = c
        #: the node searched from (not 0 once a kept tree is re-rooted)
        self.root = 0
        self.parent: list[int] = [-1]
        #: per node, for the side that moved into it: 1 a proven win, -1 a proven loss, 0 not known (solver)
        self.proven: list[int] = [0]
        self.visits: list[int] = [0]
        self.total: list[float] = [0.0]
        self.kmove: list[int] = [-1]
        self.untried: list[list[int] | None] = [None]
        self.kids: list[list[int]] = [[]]
        self.cmean: list[list[float]] = [[]]
        self.cinv: list[list[float]] = [[]]
        self.up_mean: list[list[float]] = [[]]
        self.up_inv: list[list[float]] = [[]]
        self.slot: list[int] = [0]

    def add(self, parent: int, move: int) -> int:
        """A new child of ``parent`` reached by ``move``; returns its number."""
        child = len(self.visits)
        self.visits.append(0)
        self.total.append(0.0)
        self.kmove.append(move)
        self.untried.append(None)
        self.kids.append(_NO_KIDS)
        self.cmean.append(_NO_KIDS)
        self.cinv.append(_NO_KIDS)
        cm, ci = self.cmean[parent], self.cinv[parent]
        self.slot.append(len(cm))
        cm.append(0.0)
        ci.append(0.0)
        self.up_mean.append(cm)
        self.up_inv.append(ci)
        self.kids[parent].append(child)
        self.parent.append(parent)
        self.proven.append(0)
        return child

    def reroot(self, node: int) -> None:
        """Search from ``node`` from now on (its statistics are kept; the rest of the tree is unused)."""
        self.root = node

    def prove(self, node: int, value: int) -> None:
        """``node`` is a proven win (1) or loss (-1) for the side that moved into it; pass it up the path.

        A child that wins for its mover makes its parent a loss for the parent's mover; a parent all of
        whose moves are listed, expanded and lost makes a win for the parent's mover. A proven node's mean
        in its parent is set far out of reach, so UCT always picks a win and never a loss again."""
        proven, root = self.proven, self.root
        while True:
            proven[node] = value
            if node == root:
                return
            self.up_mean[node][self.slot[node]] = 1e9 if value == 1 else -1e9
            parent = self.parent[node]
            if value == 1:
                node, value = parent, -1
                continue
            # a loss for the mover into node: the parent is won only if every move from it is lost
            todo = self.untried[parent]
            if todo is None or todo or any(proven[k] != -1 for k in self.kids[parent]):
                return
            node, value = parent, 1

    def list_moves(self, node: int, moves: list[int]) -> list[int]:
        self.untried[node] = moves
        self.kids[node] = []
        self.cmean[node] = []
        self.cinv[node] = []
        return moves

    def back_up(self, path: list[int], reward: float) -> None:
        """``reward`` is for the side that moved into path[0]; the sides alternate down the path."""
        visits, total, up_mean, up_inv, slot = self.visits, self.total, self.up_mean, self.up_inv, self.slot
        proven = self.proven
        visits[self.root] += 1
        for n in path:
            k = visits[n] + 1
            visits[n] = k
            t = total[n] + reward
            total[n] = t
            i = slot[n]
            if not proven[n]:  # a proven node keeps its mark (far out of reach) in the parent
                up_mean[n][i] = t / k
            up_inv[n][i] = k**-0.5
            reward = 1.0 - reward


#: placeholder children list of a node not listed yet (never appended to)
_NO_KIDS: list[Any] = []


def _settled(tree: _Tree, remaining: int) -> bool:
    """True when no other root child can catch the most visited one in ``remaining`` iterations."""
    kids = tree.kids[tree.root]
    if len(kids) < 2:
        return True
    top = sorted(map(tree.visits.__getitem__, kids))
    return top[-1] - top[-2] > remaining


#: c * sqrt(log(n)) for n visits, grown as searches need it (a lookup instead of two calls per step)
def _explore_table(c: float, size: int) -> list[float]:
    return [0.0] + [c * sqrt(log(n)) for n in range(1, size)]


def _reward(result: int, side: int) -> float:
    return 1.0 if result == side else 0.5 if result < 0 else 0.0


class _NestedGame:
    """Search on the raw masks of a nested variant (ultimate, multi)."""

    def __init__(self, state: NestedState, solver: bool = False, smart: bool = False) -> None:
        self.variant: NestedVariant = state.variant  # type: ignore[assignment]
        self.xs = list(state.xs)
        self.os = list(state.os)
        self.occ = list(map(or_, state.xs, state.os))
        self.won = [state.xwon, state.owon]
        self.full = state.full
        self.target = state.target
        self.side = state.ply & 1
        self.solver = solver
        self.playout = _smart_playout(self.variant) if smart else self.variant.raw_playout

    def root_moves(self) -> list[int]:
        v = self.variant
        return v.raw_moves(self.occ, v.raw_closed(self.won[0], self.won[1], self.full), self.target)

    def winning_move(self, moves: list[int]) -> int | None:
        step = self.variant.raw_step
        for m in moves:
            if step(self.xs[:], self.os[:], self.occ[:], self.won[:], self.full, self.side, m)[2] == self.side:
                return m
        return None

    def run(self, tree: _Tree, rng: random.Random, budget: int, deadline: float | None, settle: bool) -> int:
        """Iterate until the budget, the deadline or (``settle``) a settled leader; returns iterations done."""
        v = self.variant
        step, moves_of, closes_won = v.raw_step, v.raw_moves, v.closes_won
        playout = self.playout
        randbytes, rand, clock = rng.randbytes, rng.random, time.perf_counter
        rxs, ros, rocc, rwon = self.xs, self.os, self.occ, self.won
        rfull, rtarget, rside = self.full, self.target, self.side
        visits, kmove, untried = tree.visits, tree.kmove, tree.untried
        kids, cmean, cinv = tree.kids, tree.cmean, tree.cinv
        add, list_moves, back_up, c = tree.add, tree.list_moves, tree.back_up, tree.c
        solver, prove, proven, root = self.solver, tree.prove, tree.proven, tree.root
        done = 0
        explore = _explore_table(c, max(min(budget, 4096), visits[root]) + 2)
        while done < budget:
            if deadline is not None and clock() >= deadline:
                break
            if visits[root] + 2 >= len(explore):
                explore = _explore_table(c, 2 * len(explore))
            if settle and done % SETTLE_CHECK == 0 and done and _settled(tree, budget - done):
                break
            if solver and proven[root]:
                break
            done += 1
            xs, os_, occ, won = rxs[:], ros[:], rocc[:], rwon[:]
            full, target, side = rfull, rtarget, rside
            node = root
            path = []
            while True:
                todo = untried[node]
                if todo is None:
                    todo = list_moves(node, moves_of(occ, full | won[0] | won[1] if closes_won else full, target))
                if todo:  # expand one random untried move, then play out from there
                    i = int(rand() * len(todo))
                    m = todo[i]
                    todo[i] = todo[-1]
                    todo.pop()
                    full, target, res = step(xs, os_, occ, won, full, side, m)
                    child = add(node, m)
                    path.append(child)
                    if res == ONGOING:
                        res = playout(xs, os_, occ, won[0], won[1], full, target, side ^ 1, randbytes)
                    elif solver and res == side:
                        prove(child, 1)  # the move wins the game: its parent is lost for the other side
                    break
                scores = list(map(add_, cmean[node], map(explore[visits[node]].__mul__, cinv[node])))
                node = kids[node][scores.index(max(scores))]
                path.append(node)
                full, target, res = step(xs, os_, occ, won, full, side, kmove[node])
                if res != ONGOING:  # a finished game in the tree: its result is exact
                    break
                side ^= 1
            back_up(path, _reward(res, rside))
        return done


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

    def run(self, tree: _Tree, rng: random.Random, budget: int, deadline: float | None, settle: bool) -> int:
        v = self.variant
        cell_lines, full_mask, cells, playout = v.cell_lines, v.full, range(v.cell_count), v.raw_playout
        rand, clock = rng.random, time.perf_counter
        rx, ro, rside = self.x, self.o, self.side
        visits, kmove, untried = tree.visits, tree.kmove, tree.untried
        kids, cmean, cinv = tree.kids, tree.cmean, tree.cinv
        add, list_moves, back_up, c = tree.add, tree.list_moves, tree.back_up, tree.c
        done = 0
        explore = _explore_table(c, min(budget, 4096) + 2)
        while done < budget:
            if deadline is not None and clock() >= deadline:
                break
            if done + 2 >= len(explore):
                explore = _explore_table(c, 2 * len(explore))
            if settle and done % SETTLE_CHECK == 0 and done and _settled(tree, budget - done):
                break
            done += 1
            x, o, side = rx, ro, rside
            node = 0
            path = []
            while True:
                todo = untried[node]
                if todo is None:
                    occ = x | o
                    todo = list_moves(node, [i for i in cells if not occ >> i & 1])
                expanded = bool(todo)
                if expanded:
                    i = int(rand() * len(todo))
                    m = todo[i]
                    todo[i] = todo[-1]
                    todo.pop()
                    path.append(add(node, m))
                else:
                    scores = list(map(add_, cmean[node], map(explore[visits[node]].__mul__, cinv[node])))
                    node = kids[node][scores.index(max(scores))]
                    path.append(node)
                    m = kmove[node]
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
                if expanded:
                    res = playout(x, o, side, rand)
                    break
            back_up(path, _reward(res, rside))
        return done
