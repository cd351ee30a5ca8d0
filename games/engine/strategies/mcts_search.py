"""mcts's search loops on raw positions: the plain UCT loop of the nested variants (with the MCTS-solver) and the
grid variants' loop. ``mcts_knowing`` adds the move prior on ultimate. Why they are fast: see ``mcts``."""

from __future__ import annotations

import random
import time
from operator import add as add_
from operator import or_

from ..grid import GridState, GridVariant
from ..nested import NestedState, NestedVariant
from ..nested_raw import ONGOING
from .mcts_playouts import _smart_playout
from .mcts_tree import SETTLE_CHECK, _explore_table, _reward, _settled, _Tree


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

    def new_tree(self, c: float) -> _Tree:
        return _Tree(c)

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

    def new_tree(self, c: float) -> _Tree:
        return _Tree(c)

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
