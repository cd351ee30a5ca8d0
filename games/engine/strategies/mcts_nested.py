"""mcts's search on the nested boards with game knowledge (issue 34): RAVE/AMAF statistics and policy playouts.

RAVE: every playout also tells which cells each side ended up taking. A cell is taken once in a game, so the
moves a side played after a node are simply the cells it holds at the end that were empty at that node: the
playout's own masks, at no cost to the playout. Each child of a node on the path whose cell the node's mover
took later gets that playout's reward in its AMAF statistics; selection then ranks a child by a blend of its own
mean and its AMAF mean, with weight ``beta = n_amaf / (n + n_amaf + b2 * n * n_amaf)`` on the AMAF mean (Silver's
schedule: the AMAF mean dominates while the child is rarely visited, its own mean once it is well visited).
"""

from __future__ import annotations

import random
import time
from operator import add as add_

from ..nested_raw import BOARD_CELL, ONGOING
from .mcts_tree import SETTLE_CHECK, _explore_table, _reward, _settled, _Tree

#: Silver's 4 b^2 (b: the AMAF mean's bias): how soon a child's own mean takes over from its AMAF mean
RAVE_B2 = 0.04
#: the progressive bias of a move: this times its ``move_prior``, fading as 1 / (visits + 1)
PRIOR_WEIGHT = 1.0
#: virtual visits a new node starts with at the evaluation's value (the ``value`` option)
VALUE_VISITS = 4.0
#: WIDEN[visits]: the children a node may have after that many visits (progressive widening)
WIDEN_TOP = 6561
WIDEN_BASE = 2
WIDEN = [WIDEN_BASE + int(n**0.5) for n in range(WIDEN_TOP + 1)]
#: MOVE_BIT[move] = (board, 1 << cell)
MOVE_BIT = tuple((b, 1 << c) for b, c in BOARD_CELL)


class RaveTree(_Tree):
    """The tree with AMAF visits and reward totals per node (for the side that moved into it), and a bias per
    node (progressive bias: ``bias / (visits + 1)`` is added to its mean, so it fades as visits come in)."""

    __slots__ = ("av", "at", "b2", "hb", "vt", "v0", "uh")
    MOVED = (*_Tree.MOVED, "av", "at", "hb", "vt", "uh")
    SETTINGS = (*_Tree.SETTINGS, "b2", "v0")

    def __init__(self, c: float, b2: float) -> None:
        super().__init__(c)
        self.av: list[int] = [0]
        self.at: list[float] = [0.0]
        self.hb: list[float] = [0.0]
        #: virtual reward total per node: ``v0`` virtual visits at the evaluation's value (0 without one)
        self.vt: list[float] = [0.0]
        #: per node listed with a prior: the priors of its untried moves, aligned with them
        self.uh: list[list[float] | None] = [None]
        self.v0 = 0.0
        self.b2 = b2

    def add(self, parent: int, move: int, bias: float = 0.0, value: float = 0.0) -> int:
        self.av.append(0)
        self.at.append(0.0)
        self.hb.append(bias)
        self.vt.append(self.v0 * value)
        self.uh.append(None)
        child = super().add(parent, move)
        self.cmean[parent][-1] = bias
        return child

    def back_up(self, path: list[int], reward: float) -> None:
        visits, total, up_mean, up_inv, slot = self.visits, self.total, self.up_mean, self.up_inv, self.slot
        proven, av, at, b2, hb, vt, v0 = self.proven, self.av, self.at, self.b2, self.hb, self.vt, self.v0
        visits[self.root] += 1
        for n in path:
            k = visits[n] + 1
            visits[n] = k
            t = total[n] + reward
            total[n] = t
            i = slot[n]
            if not proven[n]:
                q = (t + vt[n]) / (k + v0)
                na = av[n]
                if na:
                    q += na / (k + na + b2 * k * na) * (at[n] / na - q)
                up_mean[n][i] = q + hb[n] / (k + 1)
            up_inv[n][i] = k**-0.5
            reward = 1.0 - reward

    def amaf(self, parents: list[int], sides: list[int], xs: list[int], os_: list[int], reward_x: float) -> None:
        """The AMAF update: ``parents`` are the nodes of the path where a choice was made, ``sides`` who chose
        there; ``xs``/``os_`` the cells each side held at the end of the playout; ``reward_x`` the result for X."""
        kids, kmove, av, at, visits, total = self.kids, self.kmove, self.av, self.at, self.visits, self.total
        up_mean, slot, proven, b2, move_bit, hb = self.up_mean, self.slot, self.proven, self.b2, MOVE_BIT, self.hb
        for node, side in zip(parents, sides, strict=True):
            held = os_ if side else xs
            r = 1.0 - reward_x if side else reward_x
            for k in kids[node]:
                b, bit = move_bit[kmove[k]]
                if held[b] & bit:
                    na = av[k] + 1
                    av[k] = na
                    ta = at[k] + r
                    at[k] = ta
                    if not proven[k]:
                        n = visits[k]
                        if n:
                            q = total[k] / n
                            up_mean[k][slot[k]] = q + na / (n + na + b2 * n * na) * (ta / na - q) + hb[k] / (n + 1)


class PriorTree(_Tree):
    """The tree with a progressive bias per node (``bias / (visits + 1)`` added to its mean: it fades as visits
    come in) and, per node listed, the priors of its untried moves (aligned with them)."""

    __slots__ = ("hb", "uh")
    MOVED = (*_Tree.MOVED, "hb", "uh")

    def __init__(self, c: float) -> None:
        super().__init__(c)
        self.hb: list[float] = [0.0]
        self.uh: list[list[float] | None] = [None]

    def add(self, parent: int, move: int, bias: float = 0.0) -> int:
        self.hb.append(bias)
        self.uh.append(None)
        return super().add(parent, move)

    def back_up(self, path: list[int], reward: float) -> None:
        visits, total, up_mean, up_inv, slot = self.visits, self.total, self.up_mean, self.up_inv, self.slot
        proven, hb = self.proven, self.hb
        visits[self.root] += 1
        for n in path:
            k = visits[n] + 1
            visits[n] = k
            t = total[n] + reward
            total[n] = t
            i = slot[n]
            if not proven[n]:
                up_mean[n][i] = t / k + hb[n] / (k + 1)
            up_inv[n][i] = k**-0.5
            reward = 1.0 - reward


class KnowingSearch:
    """The search loop with RAVE (``b2``; None: plain UCT) over a nested game's raw position (``game``: an
    ``mcts._NestedGame``, which knows the variant, the root's masks and the playout)."""

    def __init__(self, game: object, b2: float | None, leaf: object = None, prior: object = None,
                 value: object = None) -> None:
        self.game = game
        #: X's expected score of a raw position: each new node starts with VALUE_VISITS virtual visits at it
        self.value = value
        self.b2 = b2
        #: a move's worth at a glance (``mcts_policy.move_prior``): expansion order and progressive bias
        self.prior = prior
        #: progressive widening: a node expands its next move (in the prior's order) only after enough visits
        self.widen = False
        #: X's expected score of a raw position, used instead of a playout at the leaves (None: playouts)
        self.leaf = leaf

    def __getattr__(self, name: str) -> object:
        return getattr(self.game, name)

    def new_tree(self, c: float) -> _Tree:
        if self.b2 is None and self.prior is None and self.value is None:
            return _Tree(c)
        if self.b2 is None and self.value is None:
            return PriorTree(c)
        tree = RaveTree(c, self.b2 if self.b2 is not None else 0.0)
        if self.value is not None:
            tree.v0 = VALUE_VISITS
        return tree

    def run(self, tree: _Tree, rng: random.Random, budget: int, deadline: float | None, settle: bool) -> int:
        """Iterate until the budget, the deadline or (``settle``) a settled leader; returns iterations done."""
        g = self.game
        v = g.variant  # type: ignore[attr-defined]
        step, moves_of, closes_won = v.raw_step, v.raw_moves, v.closes_won
        playout = g.playout  # type: ignore[attr-defined]
        randbytes, rand, clock = rng.randbytes, rng.random, time.perf_counter
        rxs, ros, rocc, rwon = g.xs, g.os, g.occ, g.won  # type: ignore[attr-defined]
        rfull, rtarget, rside = g.full, g.target, g.side  # type: ignore[attr-defined]
        visits, kmove, untried = tree.visits, tree.kmove, tree.untried
        kids, cmean, cinv = tree.kids, tree.cmean, tree.cinv
        add, list_moves, back_up, c = tree.add, tree.list_moves, tree.back_up, tree.c
        solver, prove, proven, root = g.solver, tree.prove, tree.proven, tree.root  # type: ignore[attr-defined]
        amaf = tree.amaf if isinstance(tree, RaveTree) and self.b2 is not None else None
        leaf, prior, weight, value = self.leaf, self.prior, PRIOR_WEIGHT, self.value
        widen = WIDEN if self.widen else None
        uh = tree.uh if isinstance(tree, (RaveTree, PriorTree)) else None
        done = 0
        score = 0.5
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
            parents: list[int] = []
            sides: list[int] = []
            while True:
                todo = untried[node]
                if todo is None:
                    todo = moves_of(occ, full | won[0] | won[1] if closes_won else full, target)
                    if prior is not None:  # the best-looking move is expanded first (popped from the end)
                        todo, uh[node] = prior(xs, os_, occ, won, full, side, todo, rand)
                    list_moves(node, todo)
                if amaf is not None:
                    parents.append(node)
                    sides.append(side)
                if todo and (widen is None or len(kids[node]) < widen[min(visits[node], WIDEN_TOP)]):
                    if prior is not None:
                        m = todo.pop()
                        h = weight * uh[node].pop()
                        full, target, res = step(xs, os_, occ, won, full, side, m)
                        if value is not None and res == ONGOING:
                            e = value(xs, os_, won[0], won[1], full, target, side ^ 1)
                            child = add(node, m, h, 1.0 - e if side else e)
                        else:
                            child = add(node, m, h)
                    else:
                        i = int(rand() * len(todo))
                        m = todo[i]
                        todo[i] = todo[-1]
                        todo.pop()
                        full, target, res = step(xs, os_, occ, won, full, side, m)
                        if value is not None and res == ONGOING:
                            e = value(xs, os_, won[0], won[1], full, target, side ^ 1)
                            child = add(node, m, 0.0, 1.0 - e if side else e)
                        else:
                            child = add(node, m)
                    path.append(child)
                    if res == ONGOING:
                        if leaf is not None:
                            score = leaf(xs, os_, won[0], won[1], full, target, side ^ 1)
                            res = None
                        else:
                            res = playout(xs, os_, occ, won[0], won[1], full, target, side ^ 1, randbytes)
                    elif solver and res == side:
                        prove(child, 1)
                    break
                scores = list(map(add_, cmean[node], map(explore[visits[node]].__mul__, cinv[node])))
                node = kids[node][scores.index(max(scores))]
                path.append(node)
                full, target, res = step(xs, os_, occ, won, full, side, kmove[node])
                if res != ONGOING:
                    break
                side ^= 1
            if res is None:  # scored by the evaluation
                back_up(path, score if rside == 0 else 1.0 - score)
                continue
            back_up(path, _reward(res, rside))
            if amaf is not None:
                amaf(parents, sides, xs, os_, _reward(res, 0))
        return done
